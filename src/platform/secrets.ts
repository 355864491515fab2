import * as vscode from 'vscode';
import { normalizeServerUrl } from '../protocol/serverUrl';

const KEY_PREFIX = 'fountain.apiKey:';

/** The SDKs' base URL when FOUNTAIN_BASE_URL is unset: the server a bare FOUNTAIN_API_KEY belongs to. */
export const HOSTED_BASE_URL = 'https://managoat.com';

/** Where the API key came from; `FOUNTAIN_TOKEN` is a sandbox token and is never read. */
export type KeySource = 'secretStorage' | 'environment';

/**
 * The API key for a server: VS Code SecretStorage first (per server URL), else FOUNTAIN_API_KEY, but only for the
 * server that key belongs to: the one FOUNTAIN_BASE_URL names (or the SDKs' hosted default when it is unset),
 * compared as normalised URLs. Another server is never sent the environment's key; it gets no key (sign in).
 * The key is never written to settings or logs.
 */
export class ApiKeyStore implements vscode.Disposable {
  private readonly _onDidChange = new vscode.EventEmitter<void>();
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
    const target = normalizeServerUrl(serverUrl);
    return fromEnv && target !== undefined && target === this.environmentKeyServer()
      ? { key: fromEnv, source: 'environment' }
      : undefined;
  }

  /** The normalised server FOUNTAIN_API_KEY belongs to, when that variable is set. */
  environmentKeyServer(): string | undefined {
    if (!(this.env.FOUNTAIN_API_KEY ?? '').trim()) {
      return undefined;
    }
    return normalizeServerUrl((this.env.FOUNTAIN_BASE_URL ?? '').trim() || HOSTED_BASE_URL);
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
