/**
 * A warning status bar item while any local agent runs without a sandbox: "$(warning) Unsandboxed: <agent>" on the
 * warning background; clicking it opens the fountain.local.sandbox setting. A second one, the same way, while any
 * sandboxed agent runs on the host's network (`fountain.local.network` `open`): "$(warning) Open network: <agent>".
 */
import * as vscode from 'vscode';
import { pickText } from '../display';
import { Disposable } from '../../util/lifecycle';
import type { LocalSessionManager, ManagedSession } from './manager';
import { SandboxStrings } from './sandboxStrings';

interface WarningKind {
  readonly name: string;
  readonly setting: string;
  readonly priority: number;
  readonly applies: (s: ManagedSession) => boolean;
  readonly one: (agent: string) => string;
  readonly many: (n: number) => string;
  readonly tooltip: (agents: string) => string;
}

const UNSANDBOXED: WarningKind = {
  name: 'Fountain: Unsandboxed Local Agent',
  setting: 'fountain.local.sandbox',
  priority: 99,
  applies: (s) => !s.session.confinement.sandboxed,
  one: SandboxStrings.statusOne,
  many: SandboxStrings.statusMany,
  tooltip: SandboxStrings.statusTooltip,
};

const OPEN_NETWORK: WarningKind = {
  name: 'Fountain: Local Agent on the Open Network',
  setting: 'fountain.local.network',
  priority: 98,
  applies: (s) => s.session.confinement.sandboxed && s.session.confinement.network === 'open',
  one: SandboxStrings.openNetworkOne,
  many: SandboxStrings.openNetworkMany,
  tooltip: SandboxStrings.openNetworkTooltip,
};

class WarningItem extends Disposable {
  private readonly item: vscode.StatusBarItem;
  private shown = false;

  constructor(
    private readonly manager: LocalSessionManager,
    private readonly kind: WarningKind,
  ) {
    super();
    this.item = this._register(vscode.window.createStatusBarItem(vscode.StatusBarAlignment.Left, kind.priority));
    this.item.name = kind.name;
    this.item.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
    this.item.command = { command: 'workbench.action.openSettings', title: '', arguments: [kind.setting] };
    this._register(manager.onDidChangeSessions(() => this.update()));
    this.update();
  }

  /** The item's text while shown, else undefined (tests read it). */
  get text(): string | undefined {
    return this.shown ? this.item.text : undefined;
  }

  private update(): void {
    const open = this.manager.sessions.filter((s) => s.isLive && this.kind.applies(s));
    if (!open.length) {
      this.item.hide();
      this.shown = false;
      return;
    }
    const names = open.map((s) => pickText(s.agentName, 60));
    this.item.text = open.length === 1 ? this.kind.one(names[0]) : this.kind.many(open.length);
    this.item.tooltip = this.kind.tooltip(names.join(', '));
    this.item.show();
    this.shown = true;
  }
}

export class SandboxStatus extends Disposable {
  private readonly unsandboxed: WarningItem;
  private readonly network: WarningItem;

  constructor(manager: LocalSessionManager) {
    super();
    this.unsandboxed = this._register(new WarningItem(manager, UNSANDBOXED));
    this.network = this._register(new WarningItem(manager, OPEN_NETWORK));
  }

  /** The unsandboxed item's text while shown, else undefined (tests read it). */
  get text(): string | undefined {
    return this.unsandboxed.text;
  }

  /** The open-network item's text while shown, else undefined (tests read it). */
  get openNetworkText(): string | undefined {
    return this.network.text;
  }
}
