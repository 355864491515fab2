import * as vscode from 'vscode';
import type { NotificationMode } from '../domain/notificationPolicy';

export type { NotificationMode };

/** The settings section and keys this extension reads (house style §8.15). */
export const SECTION = 'fountain';
export const enum Setting {
  ServerUrl = 'serverUrl',
  AllowInsecureHttp = 'allowInsecureHttp',
  Notifications = 'notifications',
}

/** Live getters over the configuration; nothing is cached so a change is seen at once. */
export class Config {
  constructor(private readonly env: NodeJS.ProcessEnv = process.env) {}

  private get section(): vscode.WorkspaceConfiguration {
    return vscode.workspace.getConfiguration(SECTION);
  }

  /** The server URL setting, falling back to FOUNTAIN_BASE_URL; undefined when neither is set. */
  get serverUrl(): string | undefined {
    const fromSetting = this.section.get<string>(Setting.ServerUrl, '').trim();
    const fromEnv = (this.env.FOUNTAIN_BASE_URL ?? '').trim();
    return fromSetting || fromEnv || undefined;
  }

  get allowInsecureHttp(): boolean {
    return this.section.get<boolean>(Setting.AllowInsecureHttp, false);
  }

  get notifications(): NotificationMode {
    const v = this.section.get<string>(Setting.Notifications, 'all');
    return v === 'riskyOnly' || v === 'off' ? v : 'all';
  }

  /** Writes the notification mode as a user setting, so "Don't Show Again" is visible and reversible. */
  async setNotifications(mode: NotificationMode): Promise<void> {
    await this.section.update(Setting.Notifications, mode, vscode.ConfigurationTarget.Global);
  }

  /** Fires when any fountain.* setting changes. */
  onDidChange(listener: (e: vscode.ConfigurationChangeEvent) => void): vscode.Disposable {
    return vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(SECTION)) {
        listener(e);
      }
    });
  }
}
