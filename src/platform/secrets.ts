import * as vscode from 'vscode';
import { Emitter } from '../domain/events';

const KEY_PREFIX = 'fountain.apiKey:';

/** Where the API key came from; `FOUNTAIN_TOKEN` is a sandbox token and is never read. */
export type KeySource = 'secretStorage' | 'environment';

/**
 * The API key for a server: VS Code SecretStorage first (per server URL), else FOUNTAIN_API_KEY.
 * The key is never written to settings or logs.
 */
export class ApiKeyStore implements vscode.Disposable {
  private readonly _onDidChange = new Emitter<void>();
  readonly onDidChange = this._onDidChange.event;
  private readonly _sub: vscode.Disposable;

  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {
    // Secrets are shared across windows: another window signing in or out must reach this one.
    this._sub = secrets.onDidChange((e) => {
      if (e.key.startsWith(KEY_PREFIX)) {
        this._onDidChange.fire();
      }
    });
  }

  async get(serverUrl: string): Promise<{ key: string; source: KeySource } | undefined> {
    const stored = await this.secrets.get(KEY_PREFIX + serverUrl);
    if (stored) {
      return { key: stored, source: 'secretStorage' };
    }
    const fromEnv = (this.env.FOUNTAIN_API_KEY ?? '').trim();
    return fromEnv ? { key: fromEnv, source: 'environment' } : undefined;
  }

  async store(serverUrl: string, key: string): Promise<void> {
    await this.secrets.store(KEY_PREFIX + serverUrl, key);
  }

  async delete(serverUrl: string): Promise<boolean> {
    const had = (await this.secrets.get(KEY_PREFIX + serverUrl)) !== undefined;
    await this.secrets.delete(KEY_PREFIX + serverUrl);
    return had;
  }

  dispose(): void {
    this._sub.dispose();
    this._onDidChange.dispose();
  }
}
