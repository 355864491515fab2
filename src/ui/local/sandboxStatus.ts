/**
 * A warning status bar item while any local agent runs without a sandbox: "$(warning) Unsandboxed: <agent>" on the
 * warning background; clicking it opens the fountain.local.sandbox setting.
 */
import * as vscode from 'vscode';
import { pickText } from '../display';
import { Disposable } from '../../util/lifecycle';
import type { LocalSessionManager } from './manager';
import { SandboxStrings } from './sandboxStrings';

export class SandboxStatus extends Disposable {
  private readonly item = this._register(vscode.window.createStatusBarItem(vscode.StatusBarAlignment.Left, 99));
  private shown = false;

  constructor(private readonly manager: LocalSessionManager) {
    super();
    this.item.name = 'Fountain: Unsandboxed Local Agent';
    this.item.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
    this.item.command = { command: 'workbench.action.openSettings', title: '', arguments: ['fountain.local.sandbox'] };
    this._register(manager.onDidChangeSessions(() => this.update()));
    this.update();
  }

  /** The item's text while shown, else undefined (tests read it). */
  get text(): string | undefined {
    return this.shown ? this.item.text : undefined;
  }

  private update(): void {
    const open = this.manager.sessions.filter((s) => s.isLive && !s.session.confinement.sandboxed);
    if (!open.length) {
      this.item.hide();
      this.shown = false;
      return;
    }
    const names = open.map((s) => pickText(s.agentName, 60));
    this.item.text = open.length === 1 ? SandboxStrings.statusOne(names[0]) : SandboxStrings.statusMany(open.length);
    this.item.tooltip = SandboxStrings.statusTooltip(names.join(', '));
    this.item.show();
    this.shown = true;
  }
}
