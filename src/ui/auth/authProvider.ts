import * as vscode from 'vscode';
import type { Config } from '../../platform/config';
import type { Logger } from '../../platform/log';
import { accountName, type ApiKeyStore } from '../../platform/secrets';
import { Disposable } from '../../util/lifecycle';
import { signIn } from './authCommands';
import { inertLine } from '../display';
import { Strings } from '../strings';

export const AUTH_PROVIDER_ID = 'fountain';
export const AUTH_PROVIDER_LABEL = 'Fountain';

/**
 * The "Fountain" authentication provider: one account per server (the configured one), backed by the key in
 * SecretStorage, so the account shows in VS Code's Accounts menu with Sign Out there. Other extensions that ask for
 * the session get VS Code's consent prompt first (that is what `vscode.authentication.getSession` does).
 * The session id is the server URL as configured; the access token is the API key.
 */
export class FountainAuthProvider extends Disposable implements vscode.AuthenticationProvider {
  private readonly _onDidChangeSessions = this._register(
    new vscode.EventEmitter<vscode.AuthenticationProviderAuthenticationSessionsChangeEvent>(),
  );
  readonly onDidChangeSessions = this._onDidChangeSessions.event;
  private _last: vscode.AuthenticationSession | undefined;
  private _ready: Promise<void>;

  constructor(
    private readonly config: Config,
    private readonly keys: ApiKeyStore,
    private readonly log: Logger,
  ) {
    super();
    this._ready = this.current().then((s) => {
      this._last = s;
      void this.offerSignIn();
    });
    this._register(keys.onDidChange(() => void this.refresh()));
    this._register(
      config.onDidChange((e) => {
        if (e.affectsConfiguration('fountain.serverUrl')) {
          void this.refresh();
        }
      }),
    );
    this._register(
      vscode.authentication.registerAuthenticationProvider(AUTH_PROVIDER_ID, AUTH_PROVIDER_LABEL, this, {
        supportsMultipleAccounts: false,
      }),
    );
  }

  async getSessions(): Promise<vscode.AuthenticationSession[]> {
    const s = await this.current();
    return s ? [s] : [];
  }

  async createSession(): Promise<vscode.AuthenticationSession> {
    const done = await signIn(this.config, this.keys, this.log);
    const s = done && (await this.current());
    if (!s) {
      throw new Error(Strings.signInCancelled);
    }
    await this.refresh();
    return s;
  }

  /** Sign Out from the Accounts menu (VS Code has already asked the user). */
  async removeSession(sessionId: string): Promise<void> {
    const had = await this.keys.delete(sessionId);
    await this.refresh();
    if (had) {
      this.log.info(`signed out of ${sessionId} from the Accounts menu`);
      void vscode.window.showInformationMessage(Strings.signedOut(sessionId));
    }
  }

  private async current(): Promise<vscode.AuthenticationSession | undefined> {
    const server = this.config.serverUrl;
    const stored = server ? await this.keys.stored(server) : undefined;
    if (!server || !stored) {
      return undefined;
    }
    const who = inertLine(accountName(stored.account));
    return {
      id: server,
      accessToken: stored.key,
      account: { id: `${server}#${stored.account?.id ?? ''}`, label: Strings.accountLabel(who, server) },
      scopes: [],
    };
  }

  /** Tells VS Code what changed since the last look (added, removed, or another key/account on the same server). */
  private async refresh(): Promise<void> {
    await this._ready;
    const next = await this.current();
    const prev = this._last;
    this._last = next;
    if (this.isDisposed) {
      return;
    }
    const same = prev?.id === next?.id && prev?.accessToken === next?.accessToken;
    if (same) {
      return;
    }
    if (prev && next && prev.id === next.id) {
      this._onDidChangeSessions.fire({ added: [], removed: [], changed: [next] });
    } else {
      this._onDidChangeSessions.fire({ added: next ? [next] : [], removed: prev ? [prev] : [], changed: [] });
    }
    if (!next) {
      void this.offerSignIn();
    }
  }

  /**
   * While no key is stored or given in the environment for the configured server, asks VS Code for a session without
   * creating one: VS Code then lists "Sign in with Fountain to use Fountain Approvals" in the Accounts menu (with a
   * badge), and choosing it runs {@link createSession}. Nothing is shown in a modal and nothing is signed in by itself.
   */
  private async offerSignIn(): Promise<void> {
    const server = this.config.serverUrl;
    if (this.isDisposed || (server && (await this.keys.get(server)))) {
      return;
    }
    try {
      await vscode.authentication.getSession(AUTH_PROVIDER_ID, [], { createIfNone: false });
    } catch (err) {
      this.log.warn(`could not offer Sign In in the Accounts menu: ${(err as Error)?.message ?? String(err)}`);
    }
  }
}
