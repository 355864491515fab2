import * as vscode from 'vscode';
import { hasWaitedLong } from '../../domain/attention';
import type { Event } from '../../domain/events';
import type { Inbox } from '../../domain/inbox';
import type { ConnectionState } from '../../domain/model';
import type { ConnectionManager } from '../../platform/connection';
import { Disposable } from '../../util/lifecycle';
import { StatusStrings } from '../strings';

/** The inbox clock's ticks and time (src/session/inboxClock.ts). */
export interface StatusClock {
  readonly onDidCountdown: Event<void>;
  readonly timers: { now(): number };
}

/**
 * One status bar item on the left: connection state and open count. A click focuses the Pending Approvals view;
 * the tooltip offers Reconnect and Show Logs. Warning/error backgrounds for a lost connection or refused key, and
 * the warning background while a request has waited over a minute (re-checked on the inbox clock's ticks).
 * No agent text ever reaches this item (its tooltip is trusted markdown with our own command links only).
 */
export class ConnectionStatus extends Disposable {
  private readonly item: vscode.StatusBarItem;

  constructor(
    private readonly connection: ConnectionManager,
    private readonly inbox: Inbox,
    /** The Pending Approvals view: its description carries the reason while the connection has a problem. */
    private readonly view?: vscode.TreeView<unknown>,
    private readonly clock?: StatusClock,
  ) {
    super();
    this.item = this._register(
      vscode.window.createStatusBarItem('fountain.status', vscode.StatusBarAlignment.Left, 50),
    );
    this.item.name = StatusStrings.name;
    this.item.command = 'fountain.pending.focus';
    this._register(connection.onDidChangeState(() => this.render()));
    this._register(inbox.onDidChangeItems(() => this.render()));
    if (clock) {
      this._register(clock.onDidCountdown(() => this.render()));
    }
    this.render();
    this.item.show();
  }

  private render(): void {
    const s: ConnectionState = this.connection.state;
    const n = this.inbox.openCount;
    const count = n > 0 ? ` ${n}` : '';
    let text: string;
    let detail: string;
    let background: vscode.ThemeColor | undefined;
    switch (s.kind) {
      case 'connected':
        text = `$(bell${n > 0 ? '-dot' : ''})${count}`;
        detail = StatusStrings.connected;
        break;
      case 'connecting':
      case 'stopped':
        text = `$(loading~spin)${count}`;
        detail = StatusStrings.connecting;
        break;
      case 'backoff':
        text = `$(debug-disconnect)${count}`;
        detail = StatusStrings.backoff;
        background = new vscode.ThemeColor('statusBarItem.warningBackground');
        break;
      case 'authFailed':
        text = `$(key)${count}`;
        detail = StatusStrings.authFailed(s.message);
        background = new vscode.ThemeColor('statusBarItem.errorBackground');
        break;
      case 'refused':
        text = `$(error)${count}`;
        detail = StatusStrings.refused(s.message);
        background = new vscode.ThemeColor('statusBarItem.errorBackground');
        break;
      case 'unconfigured':
        text = `$(bell-slash)`;
        detail = s.reason === 'noServer' ? StatusStrings.noServer : StatusStrings.noKey;
        break;
    }
    this.item.text = text;
    if (this.view) {
      // Welcome views are static text; the reason goes next to the view's title.
      this.view.description = background ? detail : undefined;
    }
    if (!background && n > 0 && this.clock && hasWaitedLong(this.inbox.open(), this.clock.timers.now())) {
      background = new vscode.ThemeColor('statusBarItem.warningBackground');
      detail = `${detail}; ${StatusStrings.waitingLong}`;
    }
    this.item.backgroundColor = background;
    this.item.accessibilityInformation = { label: `${StatusStrings.name}: ${detail}. ${StatusStrings.waiting(n)}` };
    const md = new vscode.MarkdownString(undefined, true);
    // Only our own, fixed command links are enabled; the server-provided reason is escaped text.
    md.isTrusted = {
      enabledCommands: ['fountain.reconnect', 'fountain.showLogs', 'fountain.signIn', 'fountain.pending.focus'],
    };
    md.appendText(`${StatusStrings.name}: ${detail}\n\n${StatusStrings.waiting(n)}\n\n`);
    md.appendMarkdown(
      `[${StatusStrings.show}](command:fountain.pending.focus) · [${StatusStrings.reconnect}](command:fountain.reconnect) · [${StatusStrings.showLogs}](command:fountain.showLogs)`,
    );
    if (s.kind === 'authFailed' || (s.kind === 'unconfigured' && s.reason === 'noKey')) {
      md.appendMarkdown(` · [${StatusStrings.signIn}](command:fountain.signIn)`);
    }
    this.item.tooltip = md;
  }
}
