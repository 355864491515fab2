/**
 * Owns the running local agent sessions (src/local, loaded lazily): starts them in a workspace folder, keeps the list
 * the tree shows (agent, folder, status), restarts and stops them, and stops every one on deactivate. Nothing starts
 * in an untrusted workspace: the check comes before src/local is even loaded. Every request a session's policy says
 * to ask about goes to the injected {@link LocalAskHandler} (the inbox hookup).
 */
import * as vscode from 'vscode';
import type {
  AgentAsking,
  AgentModeInfo,
  LocalAgentSession,
  LocalAgentSpec,
  LocalGate,
  LocalGateSettings,
  LocalSessionExit,
  NetworkDecider,
  NetworkEvent,
  NetworkWords,
  PendingAsk,
} from '../../local';
import type { SourceEnv } from '../../local/launch';
import type { SandboxRequest } from '../../local/sandbox';
import type { WireDirection } from '../../local/wire';

/** One JSON-RPC line of a session (`sessionId` undefined before the session is listed: initialize, session/new). */
export type SessionWireListener = (sessionId: string | undefined, direction: WireDirection, line: string) => void;
import { Disposable, type IDisposable } from '../../util/lifecycle';
import { inertLine } from '../display';
import type { LocalModule } from './loader';
import { SandboxStrings } from './sandboxStrings';

/** The inbox hookup: receives each ask of `session`; must not answer by itself (only a user gesture may). */
export type LocalAskHandler = (session: ManagedSession, ask: PendingAsk) => void;

/** Where a session runs. */
export interface LocalFolder {
  readonly name: string;
  readonly fsPath: string;
}

/** Thrown by {@link LocalSessionManager.start} in an untrusted workspace (nothing was loaded or spawned). */
export class UntrustedWorkspaceError extends Error {
  constructor() {
    super('local agents are not started in an untrusted workspace');
    this.name = 'UntrustedWorkspaceError';
  }
}

export interface LocalLog {
  info(message: string): void;
  warn(message: string): void;
}

export interface LocalManagerDeps {
  readonly load: () => LocalModule;
  readonly isTrusted: () => boolean;
  readonly ask: LocalAskHandler;
  readonly log: LocalLog;
  /** Where agents' variables come from. Default: the extension host's environment. */
  readonly sourceEnv?: () => SourceEnv;
  /** Every JSON-RPC line of the agents started while it returns a listener, in each direction. Default: none. */
  readonly wireTap?: () => SessionWireListener | undefined;
  /** The `fountain.local.*` settings each session's gate decides with. Default: none (the gate's own defaults). */
  readonly gateSettings?: () => LocalGateSettings;
  /** The workspace folders (absolute): read + write for the gate. Default: the session's own folder. */
  readonly roots?: () => readonly string[];
  /** The OS sandbox of each agent start (src/ui/local/sandboxSettings.ts). Default: none. */
  readonly sandbox?: () => SandboxRequest;
  /** `fountain.local.allowHosts` now, for each session's network decider. Default: none. */
  readonly allowHosts?: () => unknown;
  /** The words of a network ask (localised). Default: English. */
  readonly networkWords?: NetworkWords;
}

let nextId = 1;

/** One row of the tree: a session that survives Restart (the agent process and ACP session inside are replaced). */
export class ManagedSession {
  readonly id = `local-${nextId++}`;
  private subs: IDisposable[] = [];

  constructor(
    private current: LocalAgentSession,
    readonly spec: LocalAgentSpec,
    readonly folder: LocalFolder,
    /** The session's local gate (mode, grants, plan): it outlives Restart, like the row. */
    readonly gate: LocalGate,
    /** Decides each connection of the sandboxed agent (its host grants outlive Restart, like the gate's). */
    readonly network: NetworkDecider,
    private readonly changed: () => void,
    private readonly crashed: (s: ManagedSession, exit: LocalSessionExit) => void,
  ) {
    this.bind();
  }

  get session(): LocalAgentSession {
    return this.current;
  }
  get agentName(): string {
    return this.spec.name;
  }
  get status(): LocalAgentSession['status'] {
    return this.current.status;
  }
  get pid(): number | undefined {
    return this.current.pid;
  }
  get isLive(): boolean {
    return this.status !== 'exited' && this.status !== 'stopped';
  }
  /** The mode the agent itself reports (not the gate's); undefined when it reports none. */
  get agentMode(): AgentModeInfo | undefined {
    return this.current.agentMode;
  }
  /** How much this agent asks (undefined: nobody checked). */
  get asking(): AgentAsking | undefined {
    return this.spec.asks;
  }

  /** Switches to the session a restart returned. */
  replace(next: LocalAgentSession): void {
    this.unbind();
    this.current = next;
    this.bind();
    this.changed();
  }

  private bind(): void {
    const s = this.current;
    this.subs = [
      s.onDidChangeStatus(() => this.changed()),
      s.onDidChangeAgentMode(() => this.changed()),
      // The agent follows the gate into plan and out of it, and never into a mode where it does not ask.
      this.gate.onDidChangeMode((mode) => void s.syncMode(mode)),
      s.onDidExit((exit) => {
        this.changed();
        this.crashed(this, exit);
      }),
      s.onDidFindRepository((repo) => {
        this.changed();
        void vscode.window.showWarningMessage(
          SandboxStrings.newRepoWarning(inertLine(s.agentName, 80), inertLine(repo, 300)),
        );
      }),
    ];
  }

  unbind(): void {
    for (const d of this.subs.splice(0)) {
      d.dispose();
    }
  }
}

export class LocalSessionManager extends Disposable {
  private readonly list: ManagedSession[] = [];
  private readonly _onDidChange = this._register(new vscode.EventEmitter<void>());
  /** The list, or a status in it, changed. */
  readonly onDidChangeSessions = this._onDidChange.event;
  private readonly _onDidCrash = this._register(
    new vscode.EventEmitter<{ session: ManagedSession; exit: LocalSessionExit }>(),
  );
  /** A session's agent ended without Stop or Restart. */
  readonly onDidCrash = this._onDidCrash.event;
  private readonly _onDidAsk = this._register(new vscode.EventEmitter<{ session: ManagedSession; ask: PendingAsk }>());
  /** Each ask of a listed session, as it goes to the inbox (the approval log of src/ui/local/gateWatch.ts). */
  readonly onDidAsk = this._onDidAsk.event;
  private readonly _onDidNetwork = this._register(
    new vscode.EventEmitter<{ session: ManagedSession; event: NetworkEvent }>(),
  );
  /** Each network verdict and ended connection of a listed session (History: src/ui/local/networkRecorder.ts). */
  readonly onDidNetwork = this._onDidNetwork.event;

  constructor(private readonly deps: LocalManagerDeps) {
    super();
  }

  /** Every session that is running or crashed (stopped ones leave the list), oldest first. */
  get sessions(): readonly ManagedSession[] {
    return [...this.list];
  }

  get(id: string): ManagedSession | undefined {
    return this.list.find((s) => s.id === id);
  }

  private loads = 0;

  get isTrusted(): boolean {
    return this.deps.isTrusted();
  }

  /** How often src/local was asked for past the trust check (every start goes through {@link module}). */
  get loadCount(): number {
    return this.loads;
  }

  /** src/local; only after the trust check (loading it is what costs, and nothing spawns without it). */
  module(): LocalModule {
    if (!this.isTrusted) {
      throw new UntrustedWorkspaceError();
    }
    this.loads++;
    return this.deps.load();
  }

  /**
   * src/local for acting on sessions that already run (their gates' grant choices): no trust check and not counted
   * in {@link loadCount}, since nothing starts; without a session it is never needed, so never loaded by this.
   */
  loadedModule(): LocalModule | undefined {
    return this.list.length > 0 ? this.deps.load() : undefined;
  }

  get sourceEnv(): SourceEnv {
    return this.deps.sourceEnv?.() ?? process.env;
  }

  /** Starts `spec` in `folder`. Throws UntrustedWorkspaceError, AgentNotFoundError or AgentStartError. */
  async start(spec: LocalAgentSpec, folder: LocalFolder): Promise<ManagedSession> {
    const local = this.module();
    // Restart reuses these options, so the asks of the restarted session reach the same row.
    let owner: ManagedSession | undefined;
    const gate = new local.LocalGate({
      cwd: folder.fsPath,
      roots: this.deps.roots?.() ?? [folder.fsPath],
      policy: spec.policy,
      settings: this.deps.gateSettings?.() ?? {},
      ...(spec.defaultMode !== undefined ? { agentDefaultMode: spec.defaultMode } : {}),
      trusted: this.isTrusted,
    });
    const toInbox = (ask: PendingAsk) => {
      if (owner) {
        if (!ask.network) {
          // The approval log reads tool calls; a network ask is none (its own record is onDidNetwork).
          this._onDidAsk.fire({ session: owner, ask });
        }
        this.deps.ask(owner, ask);
      } else {
        this.deps.log.warn(`an ask from ${spec.name} before its session was listed is answered at its timeout`);
      }
    };
    const network = this.networkDecider(local, spec, folder, gate, toInbox, () => owner);
    const tapped = this.deps.wireTap?.() !== undefined;
    let session: LocalAgentSession;
    try {
      session = await local.LocalAgentSession.start({
        spec,
        cwd: folder.fsPath,
        gate,
        gateMode: () => gate.mode,
        ask: toInbox,
        sourceEnv: this.sourceEnv,
        ...(this.deps.sandbox ? { sandbox: this.deps.sandbox } : {}),
        decideHost: network.decide,
        onConnection: (r) => network.connectionEnded(r),
        ...(tapped ? { onWire: (d: WireDirection, line: string) => this.deps.wireTap?.()?.(owner?.id, d, line) } : {}),
        log: (line) => this.deps.log.info(`[${spec.name}] ${line}`),
      });
    } catch (e) {
      network.dispose();
      gate.dispose();
      throw e;
    }
    if (this.isDisposed) {
      await session.stop();
      throw new Error('the extension is shutting down');
    }
    const managed = (owner = new ManagedSession(
      session,
      spec,
      folder,
      gate,
      network,
      () => this._onDidChange.fire(),
      (s, exit) => this.onCrash(s, exit),
    ));
    this.list.push(managed);
    this._onDidChange.fire();
    return managed;
  }

  /**
   * The session's network decider: the gate's mode and ask timeout, `fountain.local.allowHosts` at each attempt, the
   * preset's model hosts from the environment the agent is given; its asks go to the inbox like the gate's, its
   * verdicts to the transcript and to {@link onDidNetwork}.
   */
  private networkDecider(
    local: LocalModule,
    spec: LocalAgentSpec,
    folder: LocalFolder,
    gate: LocalGate,
    ask: (ask: PendingAsk) => void,
    owner: () => ManagedSession | undefined,
  ): NetworkDecider {
    const source = this.sourceEnv;
    const env = local.presetEnv(spec, local.buildAgentEnv(source, spec.env), source, () => undefined);
    return local.createNetworkDecider({
      agentName: spec.name,
      folderName: folder.name,
      ...(spec.runtime !== undefined ? { runtime: spec.runtime } : {}),
      env,
      mode: () => gate.mode,
      allowHosts: () => this.deps.allowHosts?.(),
      askTimeoutSec: () => local.localAskTimeoutSec(spec.policy),
      ask,
      record: (event) => {
        const s = owner();
        if (s) {
          s.session.addNote(networkNote(event));
          this._onDidNetwork.fire({ session: s, event });
        }
      },
      ...(this.deps.networkWords ? { words: this.deps.networkWords } : {}),
    });
  }

  /** A fresh agent process and ACP session with the same spec and folder; the row stays. */
  async restart(managed: ManagedSession): Promise<void> {
    if (!this.isTrusted) {
      throw new UntrustedWorkspaceError();
    }
    managed.replace(await managed.session.restart());
  }

  /** Stop: open requests answered `cancelled`, session/cancel, then the process group ends. The row goes. */
  async stop(managed: ManagedSession): Promise<void> {
    await managed.session.stop();
    managed.unbind();
    managed.network.dispose();
    managed.gate.dispose();
    const i = this.list.indexOf(managed);
    if (i >= 0) {
      this.list.splice(i, 1);
      this._onDidChange.fire();
    }
  }

  /** Deactivate: stops every session and waits for each process group to end. */
  async stopAll(): Promise<void> {
    await Promise.all([...this.list].map((m) => this.stop(m).catch(() => undefined)));
  }

  /** Something a session shows changed (its gate's mode or grants): the tree redraws. */
  changed(): void {
    this._onDidChange.fire();
  }

  /** The settings, the workspace folders or trust changed: every session's gate decides with the new values. */
  refreshGates(): void {
    const settings = this.deps.gateSettings?.() ?? {};
    const trusted = this.isTrusted;
    for (const m of this.list) {
      m.gate.setSettings(settings);
      m.gate.setRoots(this.deps.roots?.() ?? [m.folder.fsPath]);
      m.gate.setTrusted(trusted);
    }
    this._onDidChange.fire();
  }

  private onCrash(managed: ManagedSession, exit: LocalSessionExit): void {
    for (const line of exit.stderrTail) {
      this.deps.log.warn(`[${managed.agentName}] ${line}`);
    }
    this.deps.log.warn(`[${managed.agentName}] ${exit.message}`);
    this._onDidCrash.fire({ session: managed, exit });
  }

  override dispose(): void {
    void this.stopAll();
    super.dispose();
  }
}

/** The transcript's line for a network verdict or an ended connection (English, like the transcript's own notes). */
export function networkNote(e: NetworkEvent): string {
  if (e.type === 'ended') {
    const r = e.record;
    const v = r.verdict;
    const what = v.allow ? `allowed by ${v.rule}` : `refused by ${v.rule}`;
    return `network: ${r.attempt.host}:${r.attempt.port} ${what}, ${r.bytesOut} bytes out, ${r.bytesIn} bytes in`;
  }
  const v = e.verdict;
  const by = e.asked ? 'asked: ' : '';
  return v.allow
    ? `network: ${e.attempt.host}:${e.attempt.port} allowed (${by}${v.rule})`
    : `network: ${e.attempt.host}:${e.attempt.port} refused (${by}${v.rule}): ${v.reason}`;
}
