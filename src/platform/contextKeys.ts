import * as vscode from 'vscode';

/** Context keys that drive the welcome views and menus (house style §8.10). One place sets them all. */
export const enum ContextKey {
  Configured = 'fountain.configured',
  SignedIn = 'fountain.signedIn',
  Connected = 'fountain.connected',
  ConnectionProblem = 'fountain.connectionProblem',
  PendingCount = 'fountain.pendingCount',
  /** More than one row of the Pending Approvals tree is selected (Allow Selected… / Reject Selected…). */
  PendingMultiSelected = 'fountain.pending.multiSelected',
}

export function setContext(key: ContextKey, value: unknown): Thenable<unknown> {
  return vscode.commands.executeCommand('setContext', key, value);
}
