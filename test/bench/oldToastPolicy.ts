/**
 * The notification policy before issue 13 (src/domain/notificationPolicy.ts at commit 5b031ce), kept only as the
 * toast-latency bench's baseline: every live request waited out a 1.5 s burst window. Do not use it in src.
 *
 * What to toast. Toasts are a shortcut and the tree is the record (house style §8.12): only items that are new to this
 * session get one, never twice (a reconnect or re-backfill that re-delivers an item stays quiet), and items that
 * arrive close together share one "N approvals waiting" notice. Pure state with explicit time; `InboxNotifier` wires
 * it to an Inbox with injected timers.
 */
import type { IDisposable } from '../../src/util/lifecycle';
import { realTimers, type TimerHandle, type Timers as BaseTimers } from '../../src/util/timers';
import { BoundedMap } from '../../src/domain/boundedMap';
import { Emitter, type Event } from '../../src/domain/events';
import type { Inbox } from '../../src/domain/inbox';
import { keyId, type RequestKey } from '../../src/domain/model';

export type NotificationMode = 'all' | 'riskyOnly' | 'off';

export type NotificationDecision =
  | { readonly type: 'single'; readonly key: RequestKey }
  | { readonly type: 'merged'; readonly keys: readonly RequestKey[] };

/** The facts the policy needs about an item (an InboxItem fits). */
export interface NotificationCandidate {
  readonly key: RequestKey;
  readonly isRisky: boolean;
  readonly source: 'live' | 'backfill';
}

export interface NotificationPolicyOptions {
  readonly mode?: NotificationMode;
  /** Live items within this window of the first one are merged; default 1.5 s. */
  readonly burstWindowMs?: number;
  /** Items found by a backfill wait up to this long (or until `endBackfill`) to share one notice; default 5 s. */
  readonly backfillWindowMs?: number;
  /** How many notified keys are remembered; default 5000. */
  readonly memorySize?: number;
}

export const DEFAULT_BURST_WINDOW_MS = 1_500;
export const DEFAULT_BACKFILL_WINDOW_MS = 5_000;

export class OldNotificationPolicy {
  private _mode: NotificationMode;
  private readonly _burstMs: number;
  private readonly _backfillMs: number;
  /** Every key ever offered (notified, queued, or skipped by the mode): never offered again. */
  private readonly _seen: BoundedMap<string, true>;
  private readonly _queue = new Map<string, NotificationCandidate>();
  private _dueAt: number | undefined;

  constructor(options: NotificationPolicyOptions = {}) {
    this._mode = options.mode ?? 'all';
    this._burstMs = options.burstWindowMs ?? DEFAULT_BURST_WINDOW_MS;
    this._backfillMs = options.backfillWindowMs ?? DEFAULT_BACKFILL_WINDOW_MS;
    this._seen = new BoundedMap(options.memorySize ?? 5_000);
  }

  get mode(): NotificationMode {
    return this._mode;
  }

  /** Changing the mode also applies it to items still waiting in the burst window. */
  set mode(mode: NotificationMode) {
    this._mode = mode;
    for (const [id, c] of this._queue) {
      if (!this._wants(c)) {
        this._queue.delete(id);
      }
    }
    this._resetIfEmpty();
  }

  /** When `flush` should next be called, if anything is queued. */
  dueAt(): number | undefined {
    return this._dueAt;
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
    this._queue.set(id, item);
    const due = now + (item.source === 'backfill' ? this._backfillMs : this._burstMs);
    this._dueAt = this._dueAt === undefined ? due : Math.min(this._dueAt, due);
  }

  /** The item stopped waiting before its notice went out: drop it from the queue (it stays "seen"). */
  withdraw(key: RequestKey | string): void {
    this._queue.delete(typeof key === 'string' ? key : keyId(key));
    this._resetIfEmpty();
  }

  /** A backfill finished: what it found may be notified at the next flush instead of waiting for the window. */
  endBackfill(now: number): void {
    if (this._queue.size && [...this._queue.values()].some((c) => c.source === 'backfill')) {
      this._dueAt = Math.min(this._dueAt ?? now, now);
    }
  }

  /** Returns the decisions due at `now` (one single or merged notice), or nothing if the window is still open. */
  flush(now: number): NotificationDecision[] {
    if (this._dueAt === undefined || now < this._dueAt) {
      return [];
    }
    const keys = [...this._queue.values()].map((c) => c.key);
    this._queue.clear();
    this._dueAt = undefined;
    if (keys.length === 0) {
      return [];
    }
    return keys.length === 1 ? [{ type: 'single', key: keys[0] }] : [{ type: 'merged', keys }];
  }

  private _wants(c: NotificationCandidate): boolean {
    return this._mode === 'all' || (this._mode === 'riskyOnly' && c.isRisky);
  }

  private _resetIfEmpty(): void {
    if (this._queue.size === 0) {
      this._dueAt = undefined;
    }
  }
}

/** The timer half of the one Timers interface (src/util/timers.ts); tests drive time by hand. */
export type Timers = Pick<BaseTimers, 'setTimeout' | 'clearTimeout'>;

/**
 * Feeds an Inbox's new pending items to a NotificationPolicy and fires each decision when its window closes.
 * A decision only names items still pending when it fires.
 */
export class OldInboxNotifier implements IDisposable {
  private readonly _onDidDecide = new Emitter<NotificationDecision>();
  readonly onDidDecide: Event<NotificationDecision> = this._onDidDecide.event;
  private readonly _sub: IDisposable;
  private _timer: TimerHandle | undefined;
  private _timerAt: number | undefined;

  constructor(
    private readonly _inbox: Inbox,
    readonly policy: OldNotificationPolicy,
    private readonly _now: () => number = Date.now,
    private readonly _timers: Timers = realTimers,
  ) {
    this._sub = _inbox.onDidChangeItems((change) => {
      const now = this._now();
      for (const id of change.ids) {
        const item = this._inbox.get(id);
        if (item?.pending && change.added.includes(id)) {
          this.policy.offer(item, now);
        } else if (!item?.pending) {
          this.policy.withdraw(id);
        }
      }
      this._schedule();
    });
  }

  /** Call when a server's backfill completed, so its findings are notified without waiting for the window. */
  endBackfill(): void {
    this.policy.endBackfill(this._now());
    this._schedule();
  }

  dispose(): void {
    this._sub.dispose();
    this._cancel();
    this._onDidDecide.dispose();
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
