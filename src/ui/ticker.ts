import type { Inbox } from '../domain/inbox';
import { Disposable } from '../util/lifecycle';

/** Calls `inbox.tick()` when the inbox next needs it (a deadline passing, a closed item leaving). */
export class InboxTicker extends Disposable {
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly inbox: Inbox) {
    super();
    this._register(inbox.onDidChangeItems(() => this.schedule()));
    this._register({ dispose: () => clearTimeout(this.timer) });
    this.schedule();
  }

  private schedule(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const at = this.inbox.nextWakeAt();
    if (at !== undefined && !this.isDisposed) {
      // Bounded: a far deadline is re-checked at least hourly, so a sleeping machine catches up.
      const ms = Math.min(Math.max(0, at - Date.now()) + 50, 3_600_000);
      this.timer = setTimeout(() => {
        this.timer = undefined;
        this.inbox.tick();
        this.schedule();
      }, ms);
    }
  }
}
