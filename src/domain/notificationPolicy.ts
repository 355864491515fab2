/**
 * What to toast, and when. Toasts are a shortcut and the tree is the record (house style §8.12): only items that are
 * new to this session get one, never twice (a reconnect or re-backfill that re-delivers an item stays quiet).
 *
 * A live request gets its own toast at once. Only when requests come faster than a person reads them (a third within
 * `rateWindowMs` of the first of two already toasted) do the extra ones fold, for the rest of that run of arrivals (a
 * run ends after `runGapMs` without one), into one "N more approvals waiting" notice: shown `foldSettleMs` after the
 * last extra arrived (at most `foldMaxMs` after the first), and once more at the end of the run for extras that came
 * after it, never a pile. Items found by a backfill share one "N approvals waiting" notice when the backfill ends.
 * Pure state with explicit time; `InboxNotifier` wires it to an Inbox with injected timers.
 */
import type { IDisposable } from '../util/lifecycle';
import { realTimers, type TimerHandle, type Timers as BaseTimers } from '../util/timers';
import { BoundedMap } from './boundedMap';
import { Emitter, type Event } from './events';
import type { Inbox } from './inbox';
import { keyId, type RequestKey } from './model';

export type NotificationMode = 'all' | 'riskyOnly' | 'off';

/**
 * `single`: one request's own toast. `merged`: what a backfill found, "N approvals waiting". `more`: the extras of a
 * fast run of arrivals, "N more approvals waiting" (the first of that run had toasts of their own).
 */
export type NotificationDecision =
  | { readonly type: 'single'; readonly key: RequestKey }
  | { readonly type: 'merged'; readonly keys: readonly RequestKey[] }
  | { readonly type: 'more'; readonly keys: readonly RequestKey[] };

/** The facts the policy needs about an item (an InboxItem fits). */
export interface NotificationCandidate {
  readonly key: RequestKey;
  readonly isRisky: boolean;
  readonly source: 'live' | 'backfill';
}

/** The policy's timing (milliseconds), all optional in `NotificationPolicyOptions`. */
export const TOAST_TIMING = {
  /** At most `toastsPerWindow` live toasts of their own within this long. */
  rateWindowMs: 2_000,
  /** 2: the third request within `rateWindowMs` starts folding. */
  toastsPerWindow: 2,
  /** A run of arrivals ends after this long without one; the next request then gets its own toast. */
  runGapMs: 2_000,
  /** The folded notice waits this long after the last extra, so it counts the whole burst… */
  foldSettleMs: 500,
  /** …but no longer than this after the first extra. */
  foldMaxMs: 2_000,
  /** Items found by a backfill wait up to this long (or until `endBackfill`) to share one notice. */
  backfillWindowMs: 5_000,
};

export interface NotificationPolicyOptions extends Partial<typeof TOAST_TIMING> {
  readonly mode?: NotificationMode;
  /** How many notified keys are remembered; default 5000. */
  readonly memorySize?: number;
}

type Queue = Map<string, NotificationCandidate>;

export class NotificationPolicy {
  private _mode: NotificationMode;
  private readonly _o: typeof TOAST_TIMING;
  /** Every key ever offered (notified, queued, or skipped by the mode): never offered again. */
  private readonly _seen: BoundedMap<string, true>;
  /** Requests' own toasts due now, not yet flushed; `_out`: decisions taken before them (a fold that was due). */
  private readonly _ready: Queue = new Map();
  private readonly _out: NotificationDecision[] = [];
  /** When the live toasts of their own went out, within the rate window. */
  private _toasted: number[] = [];
  private _lastLive = -Infinity;
  /** This run of arrivals folds its extras; `_foldShown`: its first "more" notice went out. */
  private _folding = false;
  private _foldShown = false;
  private readonly _fold: Queue = new Map();
  private _foldFirst = 0;
  private readonly _found: Queue = new Map();
  private _foundDue = Infinity;

  constructor(options: NotificationPolicyOptions = {}) {
    this._mode = options.mode ?? 'all';
    this._o = { ...TOAST_TIMING, ...options };
    this._seen = new BoundedMap(options.memorySize ?? 5_000);
  }

  get mode(): NotificationMode {
    return this._mode;
  }

  /** Changing the mode also applies it to items not notified yet. */
  set mode(mode: NotificationMode) {
    this._mode = mode;
    for (const q of [this._ready, this._fold, this._found]) {
      for (const [id, c] of q) {
        if (!this._wants(c)) {
          q.delete(id);
        }
      }
    }
  }

  /** When `flush` should next be called, if anything is queued (a request's own toast is due at once). */
  dueAt(): number | undefined {
    const due =
      this._ready.size || this._out.length
        ? -Infinity
        : Math.min(this._foldDue(), this._found.size ? this._foundDue : Infinity);
    return due === Infinity ? undefined : due;
  }

  /**
   * Offers a newly seen pending item. Items already offered once are ignored for good, whatever the mode was then,
   * so switching notifications on does not replay old items.
   */
  offer(item: NotificationCandidate, now: number): void {
    const id = keyId(item.key);
    if (this._seen.has(id)) {
      return;
    }
    this._seen.set(id, true);
    if (!this._wants(item)) {
      return;
    }
    if (item.source === 'backfill') {
      this._foundDue = Math.min(this._foundDue, now + this._o.backfillWindowMs);
      this._found.set(id, item);
      return;
    }
    this._out.push(...this._takeFold(now)); // a fold due before this arrival goes out first
    if (now - this._lastLive >= this._o.runGapMs) {
      this._folding = this._foldShown = false; // a new run
    }
    this._lastLive = now;
    this._toasted = this._toasted.filter((t) => now - t < this._o.rateWindowMs);
    if (!this._folding && this._toasted.length < this._o.toastsPerWindow) {
      this._toasted.push(now);
      this._ready.set(id, item);
    } else {
      this._folding = true;
      if (!this._fold.size) {
        this._foldFirst = now;
      }
      this._fold.set(id, item);
    }
  }

  /** The item stopped waiting before its notice went out: drop it (it stays "seen"). */
  withdraw(key: RequestKey | string): void {
    const id = typeof key === 'string' ? key : keyId(key);
    this._ready.delete(id);
    this._fold.delete(id);
    this._found.delete(id);
  }

  /** A backfill finished: what it found may be notified at the next flush instead of waiting for the window. */
  endBackfill(): void {
    if (this._found.size) {
      this._foundDue = -Infinity;
    }
  }

  /** Returns the decisions due at `now`: requests' own toasts, a due "more" notice, a due backfill notice. */
  flush(now: number): NotificationDecision[] {
    const out = this._out.splice(0);
    // Ready toasts keep their place after a fold that went out before them.
    out.push(...[...this._ready.values()].map((c): NotificationDecision => ({ type: 'single', key: c.key })));
    this._ready.clear();
    out.push(...this._takeFold(now));
    if (now >= this._foundDue) {
      const keys = [...this._found.values()].map((c) => c.key);
      this._found.clear();
      this._foundDue = Infinity;
      if (keys.length) {
        out.push(keys.length === 1 ? { type: 'single', key: keys[0] } : { type: 'merged', keys });
      }
    }
    return out;
  }

  private _takeFold(now: number): NotificationDecision[] {
    if (now < this._foldDue()) {
      return [];
    }
    this._foldShown = true;
    const keys = [...this._fold.values()].map((c) => c.key);
    this._fold.clear();
    return [{ type: 'more', keys }];
  }

  /** The first notice of a run counts its burst; extras after it wait for the run to end (one more notice). */
  private _foldDue(): number {
    if (!this._fold.size) {
      return Infinity;
    }
    const o = this._o;
    return this._foldShown
      ? this._lastLive + o.runGapMs
      : Math.min(this._foldFirst + o.foldMaxMs, this._lastLive + o.foldSettleMs);
  }

  private _wants(c: NotificationCandidate): boolean {
    return this._mode === 'all' || (this._mode === 'riskyOnly' && c.isRisky);
  }
}

/** The timer half of the one Timers interface (src/util/timers.ts); tests drive time by hand. */
export type Timers = Pick<BaseTimers, 'setTimeout' | 'clearTimeout'>;

/**
 * Feeds an Inbox's new pending items to a NotificationPolicy and fires each decision when it is due: a request's own
 * toast in the same call that added it to the inbox, a shared notice when its window closes. A decision only names
 * items still pending when it fires.
 */
export class InboxNotifier implements IDisposable {
  private readonly _onDidDecide = new Emitter<NotificationDecision>();
  readonly onDidDecide: Event<NotificationDecision> = this._onDidDecide.event;
  private readonly _sub: IDisposable;
  private _timer: TimerHandle | undefined;
  private _timerAt: number | undefined;
  /** Whether this window toasts a new item (false: another window of this VS Code shows it; src/session/windowSync.ts). */
  shouldToast: (item: NotificationCandidate) => boolean = () => true;

  constructor(
    private readonly _inbox: Inbox,
    readonly policy: NotificationPolicy,
    private readonly _now: () => number = Date.now,
    private readonly _timers: Timers = realTimers,
  ) {
    this._sub = _inbox.onDidChangeItems((change) => {
      const now = this._now();
      for (const id of change.ids) {
        const item = this._inbox.get(id);
        if (item?.pending && change.added.includes(id) && this.shouldToast(item)) {
          this.policy.offer(item, now);
        } else if (!item?.pending) {
          this.policy.withdraw(id);
        }
      }
      this._fireOrSchedule();
    });
  }

  /** Call when a server's backfill completed, so its findings are notified without waiting for the window. */
  endBackfill(): void {
    this.policy.endBackfill();
    this._fireOrSchedule();
  }

  dispose(): void {
    this._sub.dispose();
    this._cancel();
    this._onDidDecide.dispose();
  }

  private _fireOrSchedule(): void {
    const due = this.policy.dueAt();
    if (due !== undefined && due <= this._now()) {
      this._cancel();
      this._fire();
    } else {
      this._schedule();
    }
  }

  private _schedule(): void {
    const due = this.policy.dueAt();
    if (due === this._timerAt) {
      return;
    }
    this._cancel();
    if (due !== undefined) {
      this._timerAt = due;
      this._timer = this._timers.setTimeout(() => this._fire(), Math.max(0, due - this._now()));
    }
  }

  private _cancel(): void {
    if (this._timerAt !== undefined) {
      this._timers.clearTimeout(this._timer!);
      this._timerAt = undefined;
      this._timer = undefined;
    }
  }

  private _fire(): void {
    this._timerAt = undefined;
    this._timer = undefined;
    for (const d of this.policy.flush(this._now())) {
      this._onDidDecide.fire(d);
    }
    this._schedule();
  }
}
