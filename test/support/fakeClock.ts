/**
 * The one fake clock of the tests that run product code in this process (unit, conformance): a settable `now`
 * (`t`) and timers that fire only when the clock is advanced, in due order. It satisfies both the protocol's
 * `Timers` (now, setTimeout, clearTimeout) and the domain's `now` options. (The local server has its own clock,
 * test/server/clock.ts: it is part of the server, moved by the control API.)
 */
export class FakeClock {
  private seq = 0;
  private readonly queue = new Map<number, { at: number; fn: () => void }>();

  constructor(public t = 1_000_000) {}

  readonly now = (): number => this.t;

  setTimeout(fn: () => void, ms: number): number {
    const id = ++this.seq;
    this.queue.set(id, { at: this.t + Math.max(0, ms), fn });
    return id;
  }

  clearTimeout(h: unknown): void {
    this.queue.delete(h as number);
  }

  /** Timers not fired or cleared yet. */
  get pending(): number {
    return this.queue.size;
  }

  /** Moves the clock forward, running every timer due by then in time order. Returns the new time. */
  advance(ms: number): number {
    const end = this.t + ms;
    for (let guard = 0; guard < 10_000 && this.fireNext(end); guard++) {
      // fireNext ran one timer
    }
    this.t = end;
    return end;
  }

  /** `advance`, letting promises settle before and after each timer (for code that awaits between timers). */
  async advanceSettled(ms: number): Promise<void> {
    const end = this.t + ms;
    for (let guard = 0; guard < 10_000; guard++) {
      await settle();
      if (!this.fireNext(end)) {
        break;
      }
    }
    this.t = end;
    await settle();
  }

  /** Runs the earliest timer due by `end` (the first set, among equals); false when none is due. */
  private fireNext(end: number): boolean {
    let next: [number, { at: number; fn: () => void }] | undefined;
    for (const e of this.queue) {
      if (e[1].at <= end && (!next || e[1].at < next[1].at)) {
        next = e;
      }
    }
    if (!next) {
      return false;
    }
    this.queue.delete(next[0]);
    this.t = Math.max(this.t, next[1].at);
    next[1].fn();
    return true;
  }
}

/** Lets pending promise callbacks and immediates run. */
export async function settle(): Promise<void> {
  for (let i = 0; i < 10; i++) {
    await new Promise((r) => setImmediate(r));
  }
}
