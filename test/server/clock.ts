/**
 * The server's clock. Every deadline (in-turn ceiling, detached deadline, the once-a-minute sweep) is a timer on this
 * clock, never a bare setTimeout, so tests can move time forward instead of waiting for it.
 *
 * - `real` mode: now() is wall time plus an offset; timers also fire on their own through a real setTimeout.
 *   advance(ms) adds to the offset and fires whatever became due (the control API's "advance the clock");
 *   rewind(ms) takes it off again.
 * - `manual` mode: time stands still at `start` until advance(ms) moves it; timers fire only inside advance().
 */

export interface TimerHandle {
  readonly id: number;
}

export interface Clock {
  now(): number;
  /** Run `fn` once when now() reaches `at` (epoch ms). */
  at(at: number, fn: () => void): TimerHandle;
  /** Run `fn` every `everyMs`, first at now() + everyMs. */
  every(everyMs: number, fn: () => void): TimerHandle;
  cancel(handle: TimerHandle | undefined): void;
  /** Move time forward and fire every timer that became due, in due order. Returns the new now(). */
  advance(ms: number): number;
  dispose(): void;
}

interface Timer {
  id: number;
  due: number;
  fn: () => void;
  every?: number;
}

export class ServerClock implements Clock {
  private offset = 0;
  private readonly base: number | undefined;
  private readonly timers = new Map<number, Timer>();
  private nextId = 1;
  private real: NodeJS.Timeout | undefined;
  private disposed = false;

  constructor(
    readonly mode: 'real' | 'manual' = 'real',
    start?: number,
  ) {
    this.base = mode === 'manual' ? (start ?? Date.parse('2026-09-07T09:00:00.000Z')) : undefined;
    if (mode === 'real' && start !== undefined) {
      this.offset = start - Date.now();
    }
  }

  now(): number {
    return (this.base ?? Date.now()) + this.offset;
  }

  at(at: number, fn: () => void): TimerHandle {
    const t: Timer = { id: this.nextId++, due: at, fn };
    this.timers.set(t.id, t);
    this.arm();
    return { id: t.id };
  }

  every(everyMs: number, fn: () => void): TimerHandle {
    const step = Math.max(1, everyMs);
    const t: Timer = { id: this.nextId++, due: this.now() + step, fn, every: step };
    this.timers.set(t.id, t);
    this.arm();
    return { id: t.id };
  }

  cancel(handle: TimerHandle | undefined): void {
    if (handle) {
      this.timers.delete(handle.id);
    }
  }

  advance(ms: number): number {
    if (!(ms >= 0)) {
      throw new Error('advance: ms must be a non-negative number');
    }
    this.offset += ms;
    this.fireDue();
    return this.now();
  }

  /**
   * Move time back (control API `clock/rewind`): what happens next is stamped `ms` earlier, so a test can make a
   * request that was asked a while ago without waiting. Timers keep their due time, so they fire `ms` later.
   */
  rewind(ms: number): number {
    if (!(ms >= 0)) {
      throw new Error('rewind: ms must be a non-negative number');
    }
    this.offset -= ms;
    this.arm();
    return this.now();
  }

  dispose(): void {
    this.disposed = true;
    this.timers.clear();
    if (this.real) {
      clearTimeout(this.real);
      this.real = undefined;
    }
  }

  private fireDue(): void {
    // Bounded: each pass fires timers due now; a repeating timer re-arms past now, so it fires at most
    // (elapsed / every) times, which the cap below keeps finite even for absurd advances.
    for (let guard = 0; guard < 100_000; guard++) {
      const now = this.now();
      let next: Timer | undefined;
      for (const t of this.timers.values()) {
        if (t.due <= now && (!next || t.due < next.due || (t.due === next.due && t.id < next.id))) {
          next = t;
        }
      }
      if (!next) {
        break;
      }
      if (next.every) {
        next.due += next.every;
      } else {
        this.timers.delete(next.id);
      }
      try {
        next.fn();
      } catch (err) {
        console.error('[test-server] timer failed:', err);
      }
    }
    this.arm();
  }

  private arm(): void {
    if (this.mode !== 'real' || this.disposed) {
      return;
    }
    if (this.real) {
      clearTimeout(this.real);
      this.real = undefined;
    }
    let due = Infinity;
    for (const t of this.timers.values()) {
      due = Math.min(due, t.due);
    }
    if (due === Infinity) {
      return;
    }
    const delay = Math.min(Math.max(0, due - this.now()), 2 ** 31 - 1);
    this.real = setTimeout(() => {
      this.real = undefined;
      this.fireDue();
    }, delay);
    this.real.unref();
  }
}
