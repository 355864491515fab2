/**
 * The one scheduler of the inbox's time: it calls `inbox.tick()` when the inbox next needs it (a deadline passing,
 * a closed item leaving), fires `onDidCountdown` while requests are open or closed ones are still shown, so countdowns
 * and "N seconds ago" on screen move on, and lends its Timers to the notifier's decision windows. Nothing else in src keeps an inbox timer of its own.
 */
import { Emitter, type Event } from '../domain/events';
import type { Inbox } from '../domain/inbox';
import { Disposable } from '../util/lifecycle';
import { realTimers, type TimerHandle, type Timers } from '../util/timers';

/** How often on-screen countdowns ("4 min left") are redrawn while anything is open. */
export const COUNTDOWN_MS = 15_000;
/** A far deadline is re-checked at least hourly, so a machine that slept catches up. */
const MAX_WAIT_MS = 3_600_000;

export class InboxClock extends Disposable {
  private readonly _onDidCountdown = this._register(new Emitter<void>());
  /**
   * Every COUNTDOWN_MS while the inbox has open requests or closed ones still shown (their "answered elsewhere · 15
   * seconds ago" moves on too).
   */
  readonly onDidCountdown: Event<void> = this._onDidCountdown.event;
  private tickTimer: TimerHandle | undefined;
  private countdownTimer: TimerHandle | undefined;

  constructor(
    private readonly inbox: Inbox,
    readonly timers: Timers = realTimers,
  ) {
    super();
    this._register(inbox.onDidChangeItems(() => this.schedule()));
    this._register({
      dispose: () => {
        this.clear();
      },
    });
    this.schedule();
  }

  private clear(): void {
    if (this.tickTimer !== undefined) {
      this.timers.clearTimeout(this.tickTimer);
      this.tickTimer = undefined;
    }
    if (this.countdownTimer !== undefined) {
      this.timers.clearTimeout(this.countdownTimer);
      this.countdownTimer = undefined;
    }
  }

  private schedule(): void {
    if (this.tickTimer !== undefined) {
      this.timers.clearTimeout(this.tickTimer);
      this.tickTimer = undefined;
    }
    if (this.isDisposed) {
      return;
    }
    const at = this.inbox.nextWakeAt();
    if (at !== undefined) {
      const ms = Math.min(Math.max(0, at - this.timers.now()) + 50, MAX_WAIT_MS);
      this.tickTimer = this.timers.setTimeout(() => {
        this.tickTimer = undefined;
        this.inbox.tick();
        this.schedule();
      }, ms);
    }
    const shown = () => this.inbox.openCount > 0 || this.inbox.nextWakeAt() !== undefined;
    if (this.countdownTimer === undefined && (at !== undefined || this.inbox.openCount > 0)) {
      this.countdownTimer = this.timers.setTimeout(() => {
        this.countdownTimer = undefined;
        if (shown()) {
          this._onDidCountdown.fire();
        }
        this.schedule();
      }, COUNTDOWN_MS);
    }
  }
}
