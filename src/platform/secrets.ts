import * as vscode from 'vscode';
import { normalizeServerUrl } from '../protocol/serverUrl';
import { Emitter } from '../domain/events';

const KEY_PREFIX = 'fountain.apiKey:';
/** Who the stored key belongs to (from `GET /api/auth/me` at sign-in), as JSON; not a secret, kept beside it. */
const ACCOUNT_PREFIX = 'fountain.account:';

/** The account a stored key was checked against. */
export interface StoredAccount {
  readonly id: string;
  readonly email?: string;
}

/** How a signed-in account is named: its e-mail, else the server's user id. */
export function accountName(account: StoredAccount | undefined): string {
  return account?.email || account?.id || '?';
}

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

  /** The stored key only (never the environment's): what the Accounts menu lists and Sign Out deletes. */
  async stored(serverUrl: string): Promise<{ key: string; account: StoredAccount | undefined } | undefined> {
    const key = await this.secrets.get(KEY_PREFIX + serverUrl);
    if (!key) {
      return undefined;
    }
    let account: StoredAccount | undefined;
    try {
      const raw = JSON.parse((await this.secrets.get(ACCOUNT_PREFIX + serverUrl)) ?? 'null') as Partial<StoredAccount>;
      account =
        typeof raw?.id === 'string'
          ? { id: raw.id, email: typeof raw.email === 'string' ? raw.email : undefined }
          : undefined;
    } catch {
      account = undefined;
    }
    return { key, account };
  }

  async store(serverUrl: string, key: string, account?: StoredAccount): Promise<void> {
    if (account) {
      await this.secrets.store(ACCOUNT_PREFIX + serverUrl, JSON.stringify({ id: account.id, email: account.email }));
    }
    await this.secrets.store(KEY_PREFIX + serverUrl, key);
  }

  async delete(serverUrl: string): Promise<boolean> {
    const had = (await this.secrets.get(KEY_PREFIX + serverUrl)) !== undefined;
    await this.secrets.delete(KEY_PREFIX + serverUrl);
    await this.secrets.delete(ACCOUNT_PREFIX + serverUrl);
    return had;
  }

  dispose(): void {
    this._sub.dispose();
    this._onDidChange.dispose();
  }
}
