/**
 * The problems of `fountain.local.allowHosts`, said once per distinct set while a local session runs: an entry that
 * does not parse is left out (it never widens what is allowed), and the warning names it and why.
 */
import * as vscode from 'vscode';
import { compileHostPatterns } from '../../policy/networkHosts';
import { readAllowHosts } from '../../platform/localGateSettings';
import { Disposable } from '../../util/lifecycle';
import { inertLine } from '../display';
import type { LocalSessionManager } from './manager';

export class AllowHostsWatch extends Disposable {
  private shown = '';

  constructor(
    private readonly manager: LocalSessionManager,
    private readonly log: vscode.LogOutputChannel,
  ) {
    super();
    this._register(manager.onDidChangeSessions(() => this.check()));
    this._register(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('fountain.local.allowHosts')) {
          this.check();
        }
      }),
    );
    this.check();
  }

  private check(): void {
    if (this.manager.sessions.length === 0) {
      return;
    }
    const problems = compileHostPatterns(readAllowHosts()).problems.join('; ');
    if (problems === this.shown) {
      return;
    }
    this.shown = problems;
    if (!problems) {
      return;
    }
    this.log.warn(`fountain.local.allowHosts: ${inertLine(problems)}`);
    const open = vscode.l10n.t('Open Settings');
    void vscode.window
      .showWarningMessage(
        vscode.l10n.t(
          'Some fountain.local.allowHosts entries cannot be used and are left out (connections to those hosts ask): {0}',
          inertLine(problems),
        ),
        open,
      )
      .then((pick) =>
        pick === open
          ? vscode.commands.executeCommand('workbench.action.openSettings', 'fountain.local.allowHosts')
          : undefined,
      );
  }
}
