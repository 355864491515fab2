import * as vscode from 'vscode';
import { AttentionTracker } from '../../domain/attention';
import type { Inbox } from '../../domain/inbox';
import { Disposable } from '../../util/lifecycle';
import type { Notifier } from './notifier';

/**
 * Attention without focus theft: when this window gains focus and requests whose toasts have hidden are still
 * waiting, one "N approvals waiting" toast (the rule is src/domain/attention.ts). Nothing is shown while the window
 * is in the background, and nothing takes the focus.
 */
export class FocusReminder extends Disposable {
  private readonly tracker: AttentionTracker;

  constructor(
    private readonly notifier: Notifier,
    private readonly inbox: Inbox,
    private readonly now: () => number,
  ) {
    super();
    this.tracker = new AttentionTracker(vscode.window.state.focused, now());
    this._register(
      notifier.onDidShow((t) => {
        const at = this.now();
        this.tracker.shown(t.ids, at);
        void Promise.resolve(t.closed).then(() => this.tracker.closed(t.ids, at));
      }),
    );
    this._register(vscode.window.onDidChangeWindowState((s) => this.focusChanged(s.focused)));
  }

  private focusChanged(focused: boolean): void {
    const due = this.tracker.focus(focused, this.now(), (id) => !!this.inbox.get(id)?.pending);
    if (due.length) {
      void this.notifier.remind(due);
    }
  }
}
