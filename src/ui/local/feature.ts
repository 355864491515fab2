/**
 * Local agents in the VS Code layer, built by the composition root in one call. The inbox hookup is the one
 * injected function `ask` (see LocalAskHandler in manager.ts); until it is wired, a local ask reaches nobody and the
 * session answers it with the reject option at the ask timeout (the safe default).
 */
import * as vscode from 'vscode';
import { Disposable } from '../../util/lifecycle';
import { lazyBundle } from '../lazyBundle';
import { LOCAL_COMMAND_IDS } from './commandIds';
import { loadLocalBundle, localBundleLoaded } from './loader';
import type { LocalSessionManager, ManagedSession } from './manager';
import type { ExtraAnswerChoice } from '../answer/answerChoices';
import type { PendingAsk } from '../../local';
import type { Inbox } from '../../domain/inbox';
import { localSessionIdOf } from '../../session/localKey';
import type { LocalSessionInfo, LocalSource } from '../../session/localSource';
import type { LocalAgentsOptions } from './managerDeps';
import type { FlowAnswer } from './grantPicks';
import type { LocalUi } from './ui';
import type { IssuedElement } from './gateCommands';
import type { LocalGroupExtras } from '../tree/sessionRows';

/**
 * The session manager, commands, pickers, prompt drafts and transcripts: dist/localui.js, loaded on the first local
 * command (no session exists before one).
 */
export type { LocalAgentsOptions } from './managerDeps';

const uiBundle = lazyBundle<typeof import('./ui')>('localui.js');

export class LocalAgents extends Disposable {
  private _manager: LocalSessionManager | undefined;
  private readonly log: vscode.LogOutputChannel;
  private _ui: LocalUi | undefined;
  private issued: IssuedElement = () => undefined;
  private readonly _onDidChangeSessions = this._register(new vscode.EventEmitter<void>());
  /** The list of sessions, or a status in it, changed (nothing can before the first local command). */
  readonly onDidChangeSessions = this._onDidChangeSessions.event;

  constructor(private readonly opts: LocalAgentsOptions) {
    super();
    this.log = opts.log;
  }

  /** The session manager; built (dist/localui.js loaded) on the first local command, or when a test asks. */
  get manager(): LocalSessionManager {
    if (!this._manager) {
      // Its deps, and the listeners that keep its gates current, are built in dist/localui.js (managerDeps.ts).
      const ui = uiBundle.load();
      const m = (this._manager = this._register(
        new ui.LocalSessionManager(ui.managerDeps(this.opts, loadLocalBundle)),
      ));
      ui.refreshGatesOnChange(m).forEach((d) => this._register(d));
      this._register(m.onDidChangeSessions(() => this._onDidChangeSessions.fire()));
    }
    return this._manager;
  }

  /** Every session that is running or crashed, oldest first (none before the manager exists). */
  get sessions(): readonly ManagedSession[] {
    return this._manager?.sessions ?? [];
  }

  /** A listed session, without building the manager. */
  session(id: string): ManagedSession | undefined {
    return this._manager?.get(id);
  }

  /** The commands and transcripts, loaded (dist/localui.js) on first use. */
  ui(): LocalUi {
    this._ui ??= this._register(
      uiBundle
        .load()
        .createLocalUi(this.manager, this.log, this.opts.waiting, this.opts.history, (a) => this.issued(a)),
    );
    return this._ui;
  }

  /** Registers every `fountain.local.*` command; the first call of any of them loads the UI bundle. */
  register(): vscode.Disposable[] {
    return LOCAL_COMMAND_IDS.map((id) =>
      vscode.commands.registerCommand(id, (...args: never[]) => {
        const handler = this.ui().handlers()[id];
        return handler(...args);
      }),
    );
  }

  /** The tree's elements: only those it issued are acted on (a session group, a grant row). */
  useTree(issued: IssuedElement): void {
    this.issued = issued;
  }

  /** A session's gate mode and grants for its tree group (server `local:<id>`). */
  treeExtras(server: string): LocalGroupExtras | undefined {
    // Sessions exist only after Start Local Agent loaded the UI bundle, so this loads nothing new.
    const id = localSessionIdOf(server);
    const s = id === undefined ? undefined : this.session(id);
    return s && this.ui().treeExtras(s);
  }

  /**
   * True when the session's gate would offer a grant for this open ask (the toast then shows More…). Asked of
   * src/local, which runs the session already; dist/localui.js is not loaded for it.
   */
  hasGrantChoices(sessionId: string, ask: PendingAsk): boolean {
    const session = this.session(sessionId);
    const local = this._manager?.loadedModule();
    if (!session || !local || !ask.isOpen || !local.grantAnswerOption(ask.request.options)) {
      return false;
    }
    if (ask.network) {
      return true; // Always… (src/ui/local/networkPicks.ts)
    }
    return local.grantChoices(session.gate, ask.request).length > 0;
  }

  /** The gate's grant choices for an open ask of a session, as Answer… items (built in dist/localui.js). */
  grantChoices(sessionId: string, ask: PendingAsk, answer: FlowAnswer): ExtraAnswerChoice[] {
    const session = this.session(sessionId);
    const local = this._manager?.loadedModule();
    if (!session || !local) {
      return [];
    }
    return ask.network ? this.ui().networkPicks(local, ask, answer) : this.ui().grantPicks(local, session, ask, answer);
  }

  /**
   * The inbox's local source (src/session/localSource.ts, in dist/localui.js), built when the first session is
   * listed. A request of a sandboxed session one of whose paths lies outside the sandbox gets src/local's sentence
   * (dist/local.js: a local ask exists only once a session does, so that bundle is loaded already).
   */
  createSource(inbox: Inbox): LocalSource {
    return uiBundle.load().createLocalSource(inbox, loadLocalBundle);
  }

  /** What the inbox's local source knows of a listed session (built in dist/localui.js, loaded once one exists). */
  sessionInfo(s: ManagedSession): LocalSessionInfo {
    return uiBundle.load().sessionInfo(s);
  }

  /** True once dist/localui.js was loaded (activation must not load it). */
  uiLoaded(): boolean {
    return uiBundle.loaded();
  }

  /** True once dist/local.js was loaded (asked here, in the main bundle, whose loader holds that state). */
  bundleLoaded(): boolean {
    return localBundleLoaded();
  }

  /** Deactivate: every agent's process group has ended when this resolves. */
  stopAll(): Promise<void> {
    return this._manager?.stopAll() ?? Promise.resolve();
  }
}
