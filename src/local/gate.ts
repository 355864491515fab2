/**
 * The local gate of one session (issue 12): the pure `decide` of src/policy fed with this session's state, as the
 * {@link SessionGate} its permission broker consults before the inbox.
 * - deny → the first `reject_*` option offered, else `cancelled`; allow → `allow_once` (never `allow_always` on the
 *   gate's own account; with no `allow_once` offered the request is asked instead); ask → the inbox, with the ask
 *   timeout answering a reject option.
 * - State: the mode (never yolo by default, yolo refused while untrusted), the session grants, whether a plan was
 *   recorded (an ACP `plan` update with entries, or a `switch_mode` request answered with an allow option).
 * - Every decision fires {@link LocalGate.onDidDecide} with its rule, reason and pattern (the log and the "why").
 * - Paths: the session's cwd, the user's home and symlinks (fs.realpathSync, with a walk up to the nearest existing
 *   parent for a file that does not exist yet) are given to `decide`, so every path is placed as the OS would.
 * Settings that cannot be honoured disable only the entry at fault (src/policy gateConfig.ts), never the denylist,
 * deny patterns or auto_deny; each decision's reason names what was ignored.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import {
  GATE_MODES,
  decide,
  gateConfigProblems,
  gateOutcome,
  gateRequestFrom,
  grantIdentity,
  isGrant,
  type AllowPath,
  type GateConfig,
  type GateDecision,
  type GateInput,
  type GateMode,
  type GateRequest,
  type Grant,
} from '../policy';
import { Emitter, type Event } from '../domain/events';
import type { GateAnswer, LocalOutcome, LocalPermissionRequest, PermissionDecision, SessionGate } from './permissions';

/** The `fountain.local.*` settings the gate reads, as plain data (the VS Code layer reads and passes them). */
export interface LocalGateSettings {
  readonly allowPaths?: readonly AllowPath[];
  readonly allow?: readonly string[];
  readonly deny?: readonly string[];
  readonly builtinAllow?: boolean;
  readonly builtinAllowExtras?: readonly string[];
  readonly requirePlan?: boolean;
}

export interface LocalGateOptions {
  /** The session's working directory (relative paths in requests are read against it). */
  readonly cwd: string;
  /** Workspace folders (absolute): read + write. */
  readonly roots: readonly string[];
  /** The agent's seed-000 policy (its `fountain.localAgents` entry). */
  readonly policy: Readonly<Record<string, unknown>>;
  readonly settings?: LocalGateSettings;
  /** The first mode; default from {@link gateModeFor}(agentDefaultMode). Yolo is never a first mode. */
  readonly mode?: GateMode;
  /** The agent entry's `defaultMode` (an agent mode id such as `acceptEdits` or `plan`). */
  readonly agentDefaultMode?: string;
  /** Whether the workspace is trusted; default false (yolo refused). */
  readonly trusted?: boolean;
  /** Default true; false: nobody can be asked, every ask is a deny. */
  readonly interactive?: boolean;
  /** The user's home directory; default os.homedir(). */
  readonly home?: string;
  /** Resolves symlinks; default {@link resolveRealPath}. */
  readonly realpath?: (path: string) => string | undefined;
}

/**
 * The real path of an absolute path: fs.realpathSync of it, or, for a path that does not exist yet, of its nearest
 * existing parent with the rest appended (a missing segment cannot be a link). Undefined when resolving fails for
 * another reason (a loop, no permission): the gate then asks.
 */
export function resolveRealPath(path: string): string | undefined {
  if (!nodePath.isAbsolute(path)) {
    return undefined;
  }
  let dir = path;
  const rest: string[] = [];
  for (let guard = 0; guard < 4096; guard++) {
    try {
      const real = fs.realpathSync.native(dir);
      return rest.length > 0 ? nodePath.join(real, ...rest.reverse()) : real;
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') {
        return undefined;
      }
      const parent = nodePath.dirname(dir);
      if (parent === dir) {
        return undefined;
      }
      const base = nodePath.basename(dir);
      if (base === '..') {
        // `missing/..`: resolve lexically from here on (the missing part holds no link).
        const up = resolveRealPath(nodePath.resolve(dir));
        return up === undefined || rest.length === 0 ? up : nodePath.join(up, ...rest.reverse());
      }
      rest.push(base);
      dir = parent;
    }
  }
  return undefined;
}

/** One decision of the gate, as it is made (before any answer of the user). */
export interface GateDecisionEvent {
  readonly request: LocalPermissionRequest;
  /** What the gate read from the request. */
  readonly gateRequest: GateRequest;
  readonly mode: GateMode;
  readonly decision: GateDecision;
  /** What was sent by the gate itself; absent when the request went to the inbox. */
  readonly sent?: LocalOutcome;
}

export type SetModeResult = { readonly ok: true } | { readonly ok: false; readonly reason: string };

/** Agent mode ids (claude, gemini) read as a gate mode. Yolo-like modes are never a default: they read as ask. */
const AGENT_MODE_TO_GATE: Readonly<Record<string, GateMode>> = {
  default: 'ask',
  ask: 'ask',
  acceptEdits: 'acceptEdits',
  autoEdit: 'acceptEdits',
  auto_edit: 'acceptEdits',
  plan: 'plan',
  allow: 'allow',
  dontAsk: 'allow',
};

/** The gate mode a session starts in for an agent entry's `defaultMode`: never yolo. */
export function gateModeFor(agentDefaultMode: string | undefined): Exclude<GateMode, 'yolo'> {
  const m = agentDefaultMode !== undefined ? AGENT_MODE_TO_GATE[agentDefaultMode] : undefined;
  return m === undefined || m === 'yolo' ? 'ask' : m;
}

/** Whether two grants are the same grant. */
export function sameGrant(a: Grant, b: Grant): boolean {
  return grantIdentity(a) === grantIdentity(b);
}

/** The input the gate decides with, minus the request (what "what would happen" needs). */
export type GateSnapshot = Omit<GateInput, 'request'>;

/**
 * `decide`, for callers that want one entry point (kept from when settings could make `decide` throw: it no longer
 * does; a gate that still throws asks).
 */
export function decideSafely(input: GateInput): GateDecision {
  try {
    return decide(input);
  } catch (e) {
    return {
      verdict: input.interactive === false ? 'deny' : 'ask',
      rule: 'mode',
      reason: `The gate could not decide (${e instanceof Error ? e.message : String(e)}), so nothing is allowed automatically.`,
    };
  }
}

export class LocalGate implements SessionGate {
  private _mode: GateMode;
  private _grants: Grant[] = [];
  private _planRecorded = false;
  private _trusted: boolean;
  private config: GateConfig;
  private roots: readonly string[];
  private settings: LocalGateSettings;
  private readonly _onDidChangeMode = new Emitter<GateMode>();
  readonly onDidChangeMode: Event<GateMode> = this._onDidChangeMode.event;
  private readonly _onDidChangeGrants = new Emitter<readonly Grant[]>();
  readonly onDidChangeGrants: Event<readonly Grant[]> = this._onDidChangeGrants.event;
  private readonly _onDidDecide = new Emitter<GateDecisionEvent>();
  /** Every decision, with its rule, reason and pattern. */
  readonly onDidDecide: Event<GateDecisionEvent> = this._onDidDecide.event;

  constructor(private readonly opts: LocalGateOptions) {
    this._trusted = opts.trusted === true;
    const first = opts.mode !== undefined && GATE_MODES.includes(opts.mode) ? opts.mode : undefined;
    this._mode = first === undefined || first === 'yolo' ? gateModeFor(opts.agentDefaultMode) : first;
    this.roots = [...opts.roots];
    this.settings = opts.settings ?? {};
    this.config = this.buildConfig();
  }

  get cwd(): string {
    return this.opts.cwd;
  }
  get mode(): GateMode {
    return this._mode;
  }
  get trusted(): boolean {
    return this._trusted;
  }
  get grants(): readonly Grant[] {
    return [...this._grants];
  }
  get planRecorded(): boolean {
    return this._planRecorded;
  }

  private buildConfig(): GateConfig {
    const s = this.settings;
    // A fresh object per change: decide caches its compiled form per object.
    return {
      roots: [...this.roots],
      ...(s.allowPaths !== undefined ? { allowPaths: s.allowPaths.map((p) => ({ ...p })) } : {}),
      ...(s.allow !== undefined ? { allow: [...s.allow] } : {}),
      ...(s.deny !== undefined ? { deny: [...s.deny] } : {}),
      ...(s.builtinAllow !== undefined ? { builtinAllow: s.builtinAllow } : {}),
      ...(s.builtinAllowExtras !== undefined ? { builtinAllowExtras: [...s.builtinAllowExtras] } : {}),
      ...(s.requirePlan !== undefined ? { requirePlan: s.requirePlan } : {}),
      policy: { ...this.opts.policy } as Record<string, string>,
    };
  }

  /** The settings changed (pass the new values). */
  setSettings(settings: LocalGateSettings): void {
    this.settings = settings;
    this.config = this.buildConfig();
  }

  /** The workspace folders changed. */
  setRoots(roots: readonly string[]): void {
    this.roots = [...roots];
    this.config = this.buildConfig();
  }

  /** Problems with the current settings, as sentences (empty when the gate can use them all). */
  configProblems(): string[] {
    return gateConfigProblems(this.config);
  }

  /** Switches the mode. Yolo is refused while the workspace is untrusted. */
  setMode(mode: GateMode): SetModeResult {
    if (!GATE_MODES.includes(mode)) {
      return { ok: false, reason: `There is no mode ${JSON.stringify(mode)}.` };
    }
    if (mode === 'yolo' && !this._trusted) {
      return { ok: false, reason: 'Yolo mode is refused in an untrusted workspace.' };
    }
    if (mode !== this._mode) {
      this._mode = mode;
      this._onDidChangeMode.fire(mode);
    }
    return { ok: true };
  }

  /** Workspace trust changed; losing it leaves yolo for ask. */
  setTrusted(trusted: boolean): void {
    this._trusted = trusted;
    if (!trusted && this._mode === 'yolo') {
      this._mode = 'ask';
      this._onDidChangeMode.fire('ask');
    }
  }

  /** Adds a session grant; false when it is malformed or already there. */
  addGrant(grant: Grant): boolean {
    if (!isGrant(grant) || this._grants.some((g) => sameGrant(g, grant))) {
      return false;
    }
    this._grants.push({ ...grant });
    this._onDidChangeGrants.fire(this.grants);
    return true;
  }

  /** Revokes a session grant; false when it was not there. */
  revokeGrant(grant: Grant): boolean {
    const i = isGrant(grant) ? this._grants.findIndex((g) => sameGrant(g, grant)) : -1;
    if (i < 0) {
      return false;
    }
    this._grants.splice(i, 1);
    this._onDidChangeGrants.fire(this.grants);
    return true;
  }

  /** Records that the agent has a plan (plan-first lets calls with effects through from then on). */
  private recordPlan(): void {
    this._planRecorded = true;
  }

  /** The gate's current input, without a request (for "what would happen" and grant choices). */
  snapshot(): GateSnapshot {
    return {
      mode: this._mode,
      config: this.config,
      session: { grants: [...this._grants], planRecorded: this._planRecorded },
      ...(this.opts.interactive === false ? { interactive: false } : {}),
      home: this.opts.home ?? os.homedir(),
      realpath: this.opts.realpath ?? resolveRealPath,
    };
  }

  /** What the gate reads from a request's tool call. */
  gateRequestOf(request: LocalPermissionRequest): GateRequest {
    return gateRequestFrom(request.toolCall, this.opts.cwd);
  }

  decide(request: LocalPermissionRequest): GateAnswer {
    const gateRequest = this.gateRequestOf(request);
    const mode = this._mode;
    let decision = decideSafely({ ...this.snapshot(), request: gateRequest });
    const sent = decision.verdict === 'ask' ? undefined : gateOutcome(decision, request.options);
    if (!sent) {
      if (decision.verdict === 'allow') {
        decision = {
          ...decision,
          verdict: 'ask',
          reason: `${decision.reason} The agent offered no one-time allow, so you are asked.`,
        };
      }
    }
    this._onDidDecide.fire({ request, gateRequest, mode, decision, ...(sent ? { sent } : {}) });
    return { decision, ...(sent ? { sent } : {}) };
  }

  sessionUpdate(update: unknown): void {
    const u = typeof update === 'object' && update !== null ? (update as Record<string, unknown>) : {};
    if (u.sessionUpdate === 'plan' && Array.isArray(u.entries) && u.entries.length > 0) {
      this.recordPlan();
    }
  }

  decided(d: PermissionDecision): void {
    if (d.request.toolCall.kind !== 'switch_mode' || !('sent' in d.close)) {
      return;
    }
    const sent = d.close.sent;
    const option =
      sent.outcome === 'selected' ? d.request.options.find((o) => o.optionId === sent.optionId) : undefined;
    if (option && (option.kind === 'allow_once' || option.kind === 'allow_always')) {
      this.recordPlan();
    }
  }

  dispose(): void {
    this._onDidChangeMode.dispose();
    this._onDidChangeGrants.dispose();
    this._onDidDecide.dispose();
  }
}
