/**
 * One local agent session: the process, the ACP client (@agentclientprotocol/sdk), the permission broker (its
 * requests come in through sessionPermissions.ts; the agent's modes are tracked in agentModes.ts) and the
 * transcript. Client capabilities are declared honestly: no `fs/*` and no `terminal/*` (the agent uses its own
 * tools, and asks through `session/request_permission`).
 */
import * as acp from '@agentclientprotocol/sdk';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Emitter, type Event } from '../domain/events';
import type { GateMode } from '../policy';
import { AgentModeTracker, modeOption, type AgentModeInfo } from './agentModes';
import { AgentProcess, type AgentExit } from './agentProcess';
import type { LocalAgentSpec } from './config';
import { buildAgentEnv, presetEnv, resolveAgentCommand, type SourceEnv } from './launch';
import type { ConnectionRecord, HostDecider } from './network/contract';
import { editorForwarder, forwarderPort, proxiedEnv, type ForwarderRuntime } from './network/forwarderLine';
import { startHostProxy, type HostProxy } from './network/proxy';
import { confine, removeBlockers, type Confinement, type SandboxRequest } from './sandbox/confine';
import { NewRepoWatch } from './sandbox/newRepos';
import {
  PermissionBroker,
  type AskInbox,
  type PendingAsk,
  type PermissionDecision,
  type SessionGate,
} from './permissions';
import { PermissionRequests, decisionNote } from './sessionPermissions';
import { exitFailure, firstLine, type StartFailure } from './startFailure';
import { Transcript } from './transcript';
import { tapStreams, type TappedStreams, type WireListener } from './wire';

export type LocalSessionStatus = 'starting' | 'idle' | 'running' | 'waiting' | 'exited' | 'stopped';

export interface LocalSessionOptions {
  readonly spec: LocalAgentSpec;
  /** The workspace folder the agent works in (absolute). */
  readonly cwd: string;
  /** The inbox: receives every request the policy says to ask about. */
  readonly ask: AskInbox;
  /** Where the agent's variables come from. Default `process.env`. */
  readonly sourceEnv?: SourceEnv;
  /** Every stderr line of the agent, and our own diagnostics (prefixed). */
  readonly log?: (line: string) => void;
  /** Every JSON-RPC line in each direction (trace logging, tests). */
  readonly onWire?: WireListener;
  /** The local gate (src/local/gate.ts): decides before the inbox, which gets what it asks about. */
  readonly gate?: SessionGate;
  /** The gate's mode: the agent is kept in the mode of its own that fits it (see agentModes.ts). Default ask. */
  readonly gateMode?: () => GateMode;
  /** Overrides the policy's ask timeout, in seconds. */
  readonly askTimeoutSec?: number;
  /** How long initialize + session/new may take. Default 60 s. */
  readonly startTimeoutMs?: number;
  readonly clientInfo?: { readonly name: string; readonly version: string };
  /** The OS sandbox of each start (read again on Restart); none: the agent runs unconfined (src/local/sandbox). */
  readonly sandbox?: () => SandboxRequest;
  /**
   * Decides each connection of a sandboxed agent under `fountain.local.network` `ask` (the proxy asks it); none:
   * every connection is refused.
   */
  readonly decideHost?: HostDecider;
  /** Each connection of the agent through the proxy, once it ended (the log gets a line too; the transcript's is the decider's). */
  readonly onConnection?: (r: ConnectionRecord) => void;
  /** The Node and forwarder bundle run inside the sandbox; default the editor's own (dist/forwarder.js). */
  readonly forwarder?: ForwarderRuntime;
}

/** Without a decider every connection is refused: nothing is allowed by default. */
const refuseAll: HostDecider = () =>
  Promise.resolve({ allow: false, rule: 'no decider', reason: 'this session has no network decider' });

/** One log line per connection (host and rule are the agent's words). */
export function connectionNote(r: ConnectionRecord): string {
  const where = `${r.attempt.host}:${r.attempt.port}`;
  return r.verdict.allow
    ? `network: allowed ${where} (${r.verdict.rule}), ${r.bytesOut} bytes out, ${r.bytesIn} in`
    : `network: refused ${where} (${r.verdict.rule}): ${r.verdict.reason}`;
}

/**
 * The private folder of a session's proxy socket: under XDG_RUNTIME_DIR (hidden from every sandbox) when there is
 * one, else the temp folder (a sandbox has its own); mode 0700 (mkdtemp).
 */
function proxyFolder(): string {
  const runtime = process.env.XDG_RUNTIME_DIR;
  const base = runtime && path.isAbsolute(runtime) && fs.existsSync(runtime) ? runtime : os.tmpdir();
  return fs.mkdtempSync(path.join(base, 'fountain-net-'));
}

/** How a session ended when nobody asked it to: the exit and the last stderr lines (show them inert). */
export interface LocalSessionExit extends AgentExit {
  readonly message: string;
}

/**
 * Thrown by {@link LocalAgentSession.start} when the agent did not come up; carries its last stderr lines (for the
 * log) and why, as data (for the one sentence the user sees).
 */
export class AgentStartError extends Error {
  constructor(
    message: string,
    readonly stderrTail: readonly string[],
    readonly failure: StartFailure,
  ) {
    super(stderrTail.length ? `${message}\n${stderrTail.join('\n')}` : message);
    this.name = 'AgentStartError';
  }
}

function exitMessage(name: string, exit: AgentExit): string {
  const how = exit.signal ? `was killed by ${exit.signal}` : `exited with code ${String(exit.code)}`;
  return `${name} ${how}`;
}

class StartTimeout extends Error {}

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const t = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new StartTimeout(`${what} took longer than ${ms} ms`)), ms);
  });
  return Promise.race([p, t]).finally(() => clearTimeout(timer));
}

export class LocalAgentSession {
  private _status: LocalSessionStatus = 'starting';
  private readonly _onDidChangeStatus = new Emitter<LocalSessionStatus>();
  readonly onDidChangeStatus: Event<LocalSessionStatus> = this._onDidChangeStatus.event;
  private readonly _onDidChangeTranscript = new Emitter<void>();
  readonly onDidChangeTranscript: Event<void> = this._onDidChangeTranscript.event;
  private readonly _onDidExit = new Emitter<LocalSessionExit>();
  /** The agent ended without Stop (a crash, or killed from outside). Open asks are already closed "agent exited". */
  readonly onDidExit: Event<LocalSessionExit> = this._onDidExit.event;

  readonly transcript = new Transcript();
  readonly broker: PermissionBroker;
  /** Decisions as they are made (policy answers, user answers, timeouts, cancels, agent exits). */
  readonly onDidDecide: Event<PermissionDecision>;

  private connection: acp.ClientConnection | undefined;
  private proc: AgentProcess | undefined;
  private tapped: TappedStreams | undefined;
  private _sessionId = '';
  private prompting = false;
  private stopping: Promise<void> | undefined;
  private readonly requests: PermissionRequests;
  private readonly _onDidChangeAgentMode = new Emitter<void>();
  /** The agent reported (or accepted) another mode of its own. */
  readonly onDidChangeAgentMode: Event<void> = this._onDidChangeAgentMode.event;
  private readonly modes: AgentModeTracker;
  private _confinement: Confinement = { sandboxed: false, reason: 'not_requested' };
  private readonly _newRepos: string[] = [];
  private readonly _onDidFindRepository = new Emitter<string>();
  /**
   * A git repository appeared in a writable folder while the sandboxed agent ran (`git init`, a `.git` put in a
   * folder): its configuration may run code when git outside opens it. The folder's path.
   */
  readonly onDidFindRepository: Event<string> = this._onDidFindRepository.event;

  private constructor(readonly options: LocalSessionOptions) {
    this.broker = new PermissionBroker({
      agentName: options.spec.name,
      policy: options.spec.policy,
      ask: options.ask,
      ...(options.askTimeoutSec !== undefined ? { askTimeoutSec: options.askTimeoutSec } : {}),
      ...(options.gate ? { gate: options.gate } : {}),
    });
    this.onDidDecide = this.broker.onDidDecide;
    this.requests = new PermissionRequests(this.broker, this.transcript, (line) => this.log(line));
    this.modes = new AgentModeTracker(
      options.spec.name,
      async (modeId) => {
        await this.connection!.agent.request(acp.methods.agent.session.setMode, { sessionId: this._sessionId, modeId });
      },
      (line) => this.log(line),
      () => this._onDidChangeAgentMode.fire(),
    );
    this.broker.onDidChangeOpen(() => this.updateStatus());
    this.broker.onDidDecide((d) => {
      this.transcript.addNote(decisionNote(d));
      this._onDidChangeTranscript.fire();
    });
  }

  /** Resolves the command, spawns the agent, initializes ACP and opens a session in `cwd`. */
  static async start(options: LocalSessionOptions): Promise<LocalAgentSession> {
    const session = new LocalAgentSession(options);
    await session.launch();
    return session;
  }

  get status(): LocalSessionStatus {
    return this._status;
  }
  get sessionId(): string {
    return this._sessionId;
  }
  get agentName(): string {
    return this.options.spec.name;
  }
  get cwd(): string {
    return this.options.cwd;
  }
  /** The agent's process id, which is also its process group id. */
  get pid(): number | undefined {
    return this.proc?.pid;
  }
  /** How the agent is confined: its sandbox plan, or why it runs without one. */
  get confinement(): Confinement {
    return this._confinement;
  }
  /** The repositories created inside the sandbox during this session (see {@link onDidFindRepository}). */
  get newRepositories(): readonly string[] {
    return this._newRepos;
  }
  /** The mode ids the agent offered at session/new. */
  get availableModes(): readonly string[] {
    return this.modes.modeIds;
  }
  /** The mode the agent reports (session/new, `current_mode_update`, or the one it accepted); undefined: none. */
  get agentMode(): AgentModeInfo | undefined {
    return this.modes.info;
  }
  /** The gate's mode changed: the agent goes to its mode that fits (never one where it does not ask). */
  syncMode(mode: GateMode): Promise<void> {
    return this._sessionId && this.connection ? this.modes.sync(mode) : Promise.resolve();
  }
  get openAsks(): PendingAsk[] {
    return this.broker.openAsks;
  }
  /** A line of our own in the transcript (a network connection's verdict, src/local/network/decider.ts). */
  addNote(line: string): void {
    this.transcript.addNote(line);
    this._onDidChangeTranscript.fire();
  }
  /** The last stderr lines of the agent, oldest first. */
  stderrTail(): string[] {
    return this.proc?.stderrTail() ?? [];
  }

  private log(line: string): void {
    this.options.log?.(line);
  }

  private setStatus(s: LocalSessionStatus): void {
    if (this._status !== s) {
      this._status = s;
      this._onDidChangeStatus.fire(s);
    }
  }

  private updateStatus(): void {
    if (this._status === 'starting' || this._status === 'exited' || this._status === 'stopped') {
      return;
    }
    this.setStatus(this.broker.openAsks.length ? 'waiting' : this.prompting ? 'running' : 'idle');
  }

  /** The session's proxy on a socket in a private folder; closed (and the folder removed) by the returned function. */
  private async openProxy(): Promise<{ proxy: HostProxy; close: () => Promise<void> }> {
    const dir = proxyFolder();
    try {
      const proxy = await startHostProxy({
        socketPath: path.join(dir, 'proxy.sock'),
        decide: this.options.decideHost ?? refuseAll,
        onRecord: (r) => {
          this.log(`[fountain] ${connectionNote(r)}`);
          this.options.onConnection?.(r);
        },
      });
      let closing: Promise<void> | undefined;
      const close = () => (closing ??= proxy.close().finally(() => fs.rmSync(dir, { recursive: true, force: true })));
      return { proxy, close };
    } catch (e) {
      fs.rmSync(dir, { recursive: true, force: true });
      throw e;
    }
  }

  private async launch(): Promise<void> {
    const { spec, cwd } = this.options;
    const source = this.options.sourceEnv ?? process.env;
    let env = presetEnv(spec, buildAgentEnv(source, spec.env), source, (line) => this.log(line));
    const command = await resolveAgentCommand(spec, env);
    const request = this.options.sandbox?.();
    // Under network `ask` a sandboxed agent's only way out is this session's proxy.
    const opened =
      request && request.setting !== 'off' && request.network !== 'open' ? await this.openProxy() : undefined;
    const port = await forwarderPort();
    let confinement: Confinement;
    try {
      confinement = this._confinement = await confine(request, {
        ...spec,
        command,
        cwd,
        env,
        ...(opened
          ? {
              proxy: {
                socketPath: opened.proxy.socketPath,
                port,
                forwarder: this.options.forwarder ?? editorForwarder(),
              },
            }
          : {}),
      });
    } catch (e) {
      await opened?.close();
      throw e;
    }
    const proxied = confinement.sandboxed && confinement.network === 'proxy';
    if (opened && !proxied) {
      await opened.close(); // unsandboxed after all: the host network, as the warning says
    }
    if (proxied) {
      env = proxiedEnv(env, port);
    }
    // The empty files bubblewrap made to block missing protected paths go when everything inside has ended; the
    // proxy with them.
    const release = () => {
      if (confinement.sandboxed) {
        removeBlockers(confinement.plan);
      }
      if (proxied) {
        void opened?.close();
      }
    };
    const proc = await AgentProcess.spawn({
      ...(confinement.sandboxed ? { sandbox: confinement.wrap } : {}),
      command,
      args: spec.args,
      cwd,
      env,
      graceMs: spec.graceMs,
      termMs: spec.termMs,
      onStderrLine: (line) => this.log(line),
    }).catch((e: unknown) => {
      release();
      const code = (e as NodeJS.ErrnoException).code ?? 'error';
      const ran = confinement.sandboxed ? confinement.wrap.command : command;
      throw new AgentStartError(`${spec.name} did not start: ${firstLine(e)}`, [], {
        kind: 'cannotRun',
        command: ran,
        code,
      });
    });
    this.proc = proc;
    void proc.exited.then(release);
    if (confinement.sandboxed) {
      // A repository created inside cannot be stopped (see newRepos.ts): seen at once, and said.
      const writable = confinement.plan.layers.filter(
        (l) => l.type === 'mount' && l.access === 'rw' && (l.why === 'workspace' || l.why === 'allowPaths'),
      );
      const watch = new NewRepoWatch([...new Set(writable.map((l) => l.at))], (repo) => {
        this._newRepos.push(repo);
        this.log(`[fountain] a new git repository appeared inside the sandbox: ${repo}`);
        this._onDidFindRepository.fire(repo);
      });
      void proc.exited.then(() => watch.dispose());
    }
    const how = confinement.sandboxed
      ? `in a ${confinement.tool} sandbox (network: ${confinement.network})`
      : `unsandboxed (${confinement.reason})`;
    this.log(`[fountain] started ${spec.name} (${command}) ${how} as process group ${proc.pid} in ${cwd}`);
    // When the agent's stdout ends, it can no longer be answered: its open asks close "agent exited" before the
    // connection aborts their handlers (which would read as the agent withdrawing them).
    const tapped = tapStreams(proc.input, proc.output, this.options.onWire, () => this.agentGone());
    this.tapped = tapped;
    const app = acp
      .client({ name: 'fountain-approvals' })
      // The raw parser: an agent whose request is slightly off schema is still answered (see requestShape.ts).
      .onRequest(
        'session/request_permission',
        (raw: unknown) => raw,
        (ctx) => this.requests.answer(ctx.params, ctx.signal, ctx.requestId),
      )
      .onNotification(acp.methods.client.session.update, ({ params }) => {
        if (params.sessionId === this._sessionId || !this._sessionId) {
          this.transcript.apply(params.update);
          this.modes.noteUpdate(params.update);
          this.options.gate?.sessionUpdate?.(params.update);
          this._onDidChangeTranscript.fire();
        }
      });
    const connection = app.connect(acp.ndJsonStream(tapped.output, tapped.input));
    this.connection = connection;
    proc.onDidExit((exit) => this.onProcessExit(exit));

    const startMs = this.options.startTimeoutMs ?? 60_000;
    try {
      const exitedEarly = proc.exited.then((exit) => {
        throw new Error(exitMessage(spec.name, exit));
      });
      const ready = (async () => {
        await connection.agent.request(acp.methods.agent.initialize, {
          protocolVersion: acp.PROTOCOL_VERSION,
          clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
          clientInfo: this.options.clientInfo ?? { name: 'fountain-approvals', version: '0.1.0' },
        });
        return connection.agent.request(acp.methods.agent.session.new, { cwd, mcpServers: [] });
      })();
      const created = await withTimeout(Promise.race([ready, exitedEarly]), startMs, `starting ${spec.name}`);
      this._sessionId = created.sessionId;
      this.modes.started(created.modes, modeOption(created.configOptions));
      await this.modes.noteDefaultMode(spec.defaultMode);
      await this.modes.sync(this.options.gateMode?.() ?? 'ask');
    } catch (e) {
      // A closed connection usually means the process is exiting: its exit says more than the connection.
      const exit = await Promise.race([proc.exited, new Promise<undefined>((r) => setTimeout(r, 1000))]);
      const why = exit ? exitMessage(spec.name, exit) : e instanceof Error ? e.message : String(e);
      const tail = exit?.stderrTail ?? proc.stderrTail();
      await this.stop();
      const failure: StartFailure = exit
        ? exitFailure(exit, tail, confinement.sandboxed)
        : e instanceof StartTimeout
          ? { kind: 'timeout', seconds: Math.round(startMs / 1000) }
          : { kind: 'other', line: firstLine(e) };
      throw new AgentStartError(`${spec.name} did not start: ${why}`, tail, failure);
    }
    this.setStatus('idle');
  }

  /** Nothing may be sent to an agent that is gone: the way out closes first, then its asks. */
  private agentGone(): void {
    this.tapped?.closeOutput();
    this.broker.agentExited();
  }

  private onProcessExit(exit: AgentExit): void {
    if (this.stopping) {
      return;
    }
    this.agentGone();
    this.connection?.close();
    const message = exitMessage(this.agentName, exit);
    this.transcript.addNote(message);
    this._onDidChangeTranscript.fire();
    this.setStatus('exited');
    this._onDidExit.fire({ ...exit, message });
    // Whatever it left in its group goes too.
    void this.proc?.stop();
  }

  /** Sends one prompt; resolves with the stop reason when the turn ends. One turn at a time. */
  async prompt(text: string): Promise<acp.StopReason> {
    if (this._status === 'starting' || this._status === 'exited' || this._status === 'stopped') {
      throw new Error(`${this.agentName} is ${this._status}`);
    }
    if (this.prompting) {
      throw new Error(`${this.agentName} is still working on the previous prompt`);
    }
    this.prompting = true;
    this.transcript.addUserPrompt(text);
    this._onDidChangeTranscript.fire();
    this.updateStatus();
    try {
      const result = await this.connection!.agent.request(acp.methods.agent.session.prompt, {
        sessionId: this._sessionId,
        prompt: [{ type: 'text', text }],
      });
      this.transcript.addNote(`turn ended: ${result.stopReason}`);
      this._onDidChangeTranscript.fire();
      return result.stopReason;
    } finally {
      this.prompting = false;
      this.updateStatus();
    }
  }

  /** Cancel Turn: every open request is answered `cancelled` (ACP requires it), then `session/cancel` is sent. */
  async cancelTurn(): Promise<void> {
    if (!this.connection || this._status === 'exited' || this._status === 'stopped' || !this._sessionId) {
      return;
    }
    const ids = this.requests.openIds();
    // Registered before the answers go out, so none is missed.
    const written = this.tapped!.responsesWritten(ids, 2000);
    this.broker.cancelAll();
    await written;
    await this.connection.agent.notify(acp.methods.agent.session.cancel, { sessionId: this._sessionId });
  }

  /** Stop: Cancel Turn when a turn is running, then the process group ends (grace, SIGTERM, SIGKILL). */
  stop(): Promise<void> {
    this.stopping ??= (async () => {
      if (this.prompting || this.broker.openAsks.length) {
        await this.cancelTurn().catch(() => undefined);
      }
      await this.proc?.stop();
      this.agentGone();
      this.connection?.close();
      if (this._status !== 'exited') {
        this.setStatus('stopped');
      }
      this.log(`[fountain] stopped ${this.agentName}`);
    })();
    return this.stopping;
  }

  /** Stops this session and starts a new one with the same options (a fresh agent process and ACP session). */
  async restart(): Promise<LocalAgentSession> {
    await this.stop();
    return LocalAgentSession.start(this.options);
  }

  /** Stops the agent (without waiting); await {@link stop} where the host can wait, e.g. in deactivate. */
  dispose(): void {
    void this.stop().finally(() => {
      this.broker.dispose();
      this._onDidChangeStatus.dispose();
      this._onDidChangeTranscript.dispose();
      this._onDidExit.dispose();
      this._onDidChangeAgentMode.dispose();
      this._onDidFindRepository.dispose();
    });
  }
}
