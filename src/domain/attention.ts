/**
 * Attention without focus theft: which waiting requests deserve one "N approvals waiting" reminder when a window
 * gains focus. A toast hides itself after VS Code's purge time of *focused* time (10 s for info, 12 s for warnings;
 * it stays while the window is in the background), or when the user closes it. On a focus gain, the requests whose
 * toast has hidden that way and that still wait are the reminder; the reminder is their new toast, so a focus flicker
 * right after it finds nothing hidden and stays quiet. Pure state with explicit time.
 */
import { BoundedMap } from './boundedMap';

/** VS Code's longest purge time for a toast we show (warnings, 12 s); counting hidden sooner could show two. */
export const TOAST_HIDES_AFTER_MS = 12_000;

interface Shown {
  shownAt: number;
  /** Focused time the toast has been on screen, counted up to the last blur. */
  focusedMs: number;
  closed: boolean;
}

export class AttentionTracker {
  private readonly _shown: BoundedMap<string, Shown>;
  private _focused: boolean;
  private _focusedSince: number;

  constructor(
    focused: boolean,
    now: number,
    private readonly _hidesAfterMs = TOAST_HIDES_AFTER_MS,
    memorySize = 5_000,
  ) {
    this._focused = focused;
    this._focusedSince = now;
    this._shown = new BoundedMap(memorySize);
  }

  /** A toast naming `ids` was shown at `now` (a request's own, a shared notice, or a reminder). */
  shown(ids: readonly string[], now: number): void {
    for (const id of ids) {
      this._shown.set(id, { shownAt: now, focusedMs: 0, closed: false });
    }
  }

  /** The toast naming `ids`, shown at `shownAt`, was closed (dismissed or a button clicked) without answering. */
  closed(ids: readonly string[], shownAt: number): void {
    for (const id of ids) {
      const s = this._shown.get(id);
      if (s && s.shownAt === shownAt) {
        s.closed = true;
      }
    }
  }

  /**
   * The window's focus changed. On a gain, returns the ids still waiting (`isWaiting`) whose toast has hidden, oldest
   * toast first; the caller shows one reminder for them and reports it with `shown`. Ids no longer waiting are
   * forgotten.
   */
  focus(focused: boolean, now: number, isWaiting: (id: string) => boolean): string[] {
    if (focused === this._focused) {
      return [];
    }
    this._focused = focused;
    if (!focused) {
      for (const id of this._shown.keys()) {
        const s = this._shown.get(id)!;
        s.focusedMs += Math.max(0, now - Math.max(this._focusedSince, s.shownAt));
      }
      return [];
    }
    this._focusedSince = now;
    const due: Array<[string, number]> = [];
    for (const id of [...this._shown.keys()]) {
      const s = this._shown.get(id)!;
      if (!isWaiting(id)) {
        this._shown.delete(id);
      } else if (s.closed || s.focusedMs >= this._hidesAfterMs) {
        due.push([id, s.shownAt]);
      }
    }
    return due.sort((a, b) => a[1] - b[1]).map(([id]) => id);
  }
}

/** The status bar asks for attention while any request has waited longer than this. */
export const LONG_WAIT_MS = 60_000;

/** Whether any pending request has waited over LONG_WAIT_MS at `now`, counted from when it was asked. */
export function hasWaitedLong(items: Iterable<{ readonly pending: boolean; readonly askedAt: number }>, now: number) {
  for (const i of items) {
    if (i.pending && now - i.askedAt > LONG_WAIT_MS) {
      return true;
    }
  }
  return false;
}
