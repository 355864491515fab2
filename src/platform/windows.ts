import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import type { Inbox } from '../domain/inbox';
import { isLocalSource } from '../session/localSource';
import type { SharedCursorStore, WindowSync } from '../session/windowSync';
import { confirmHubDangerModal } from '../ui/danger/danger';
import { lazyBundle } from '../ui/lazyBundle';
import type { ConnectionManager } from './connection';
import type { CursorStore } from '../protocol/cursorStore';
import type { Logger } from './log';

/** dist/hub.js: the window hub and the stream sharing, kept out of dist/extension.js (its size budget). */
const hubBundle = lazyBundle<typeof import('../session/windowSync')>('hub.js');

/** The cursor store every window's stream writes through (the leader hands the last cursor on). */
export function sharedCursors(inner: CursorStore): SharedCursorStore {
  return new (hubBundle.load().SharedCursorStore)(inner);
}

/**
 * Joins the other windows of this VS Code (the extension hosts sharing the global storage folder): one of them holds
 * the Fountain stream, the others follow it (src/session/windowSync.ts). Undefined when the hub cannot start (its
 * folder is not private, say): this window then opens its own stream, as before.
 */
export async function joinWindows(o: {
  storageDir: string;
  inbox: Inbox;
  connection: ConnectionManager;
  cursors: SharedCursorStore;
  log: Logger;
  /** Gets the sync and its focus listener (context.subscriptions). */
  subscriptions: vscode.Disposable[];
}): Promise<WindowSync | undefined> {
  // No stream until the election says this window leads.
  o.connection.deferStream();
  try {
    const sync = new (hubBundle.load().WindowSync)({
      dir: o.storageDir,
      windowId: `${process.pid}-${randomUUID().slice(0, 8)}`,
      focused: !!vscode.window.state.focused,
      log: o.log,
      inbox: o.inbox,
      stream: o.connection,
      sender: o.connection.session,
      cursors: o.cursors,
      isLocal: isLocalSource,
      confirmDanger: confirmHubDangerModal,
    });
    o.subscriptions.push(
      sync,
      vscode.window.onDidChangeWindowState((s) => sync.setFocused(s.focused)),
    );
    return sync;
  } catch (e) {
    o.log.warn(`windows: could not join this VS Code's other windows (${String(e)}); this window opens its own stream`);
    await o.connection.holdStream(true);
    return undefined;
  }
}
