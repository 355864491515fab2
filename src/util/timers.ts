/** The one clock-and-timers interface every layer receives, so tests drive time by hand. */

/** Whatever the timer implementation returns (a Node Timeout, a number in tests). */
export type TimerHandle = object | number;

/** A clock and one-shot timers. */
export interface Timers {
  /** Epoch milliseconds. */
  now(): number;
  setTimeout(fn: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
}

export const realTimers: Timers = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => {
    const t = setTimeout(fn, Math.min(Math.max(0, ms), 2 ** 31 - 1));
    t.unref?.();
    return t;
  },
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};
