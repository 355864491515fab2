/**
 * A warning status bar item while any local session is in yolo mode: "$(warning) Yolo: <agent>" on the warning
 * background, until every such session leaves yolo or ends. Yolo is reached only through Change Local Agent Mode…
 * (this bundle), so the item is made with it.
 */
import * as vscode from 'vscode';
import { Disposable } from '../../util/lifecycle';
import { pickText } from '../display';
import { GateStrings } from './gateStrings';
import type { LocalSessionManager } from './manager';

export class YoloWarning extends Disposable {
  private readonly item = this._register(vscode.window.createStatusBarItem(vscode.StatusBarAlignment.Left, 100));

  constructor(private readonly manager: LocalSessionManager) {
    super();
    this.item.name = 'Fountain: Local Agent Yolo Mode';
    this.item.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
    this._register(manager.onDidChangeSessions(() => this.update()));
    this.update();
  }

  /** The item's text while shown, else undefined (tests read it). */
  get text(): string | undefined {
    return this.shown ? this.item.text : undefined;
  }

  private shown = false;

  private update(): void {
    const yolo = this.manager.sessions.filter((s) => s.gate.mode === 'yolo');
    if (!yolo.length) {
      this.item.hide();
      this.shown = false;
      return;
    }
    this.item.text =
      yolo.length === 1
        ? GateStrings.yoloStatus(pickText(yolo[0].agentName, 60))
        : GateStrings.yoloStatusMany(yolo.length);
    this.item.tooltip = GateStrings.yoloTooltip(yolo.map((s) => pickText(s.agentName, 60)).join(', '));
    this.item.command =
      yolo.length === 1
        ? { command: 'fountain.local.changeMode', title: 'Change Local Agent Mode…', arguments: [yolo[0].id] }
        : 'fountain.local.changeMode';
    this.item.show();
    this.shown = true;
  }
}
