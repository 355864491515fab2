/**
 * The gate's vocabulary: its input, its decision and the context its steps read. Apart from gate.ts so that the
 * steps (gateSteps.ts, gateAllow.ts) and the gate that orders them import the same types without a circle.
 */
import type { CompiledConfig, GateConfig } from './gateConfig';
import type { Grant } from './grants';
import type { NormLine } from './normalise';
import type { PathEnv, PlacedPath } from './paths';

export type GateMode = 'ask' | 'acceptEdits' | 'plan' | 'allow' | 'yolo';
export const GATE_MODES: readonly GateMode[] = Object.freeze(['ask', 'acceptEdits', 'plan', 'allow', 'yolo'] as const);

export interface GateRequest {
  kind?: string;
  title?: string;
  /** rawInput.command (of any kind), else the title, for execute. */
  command?: string;
  /** Absolute, from ACP locations / rawInput / diffs. */
  paths?: { path: string; access: 'read' | 'write' }[];
  /** For fetch. */
  url?: string;
  /** The directory the request runs in (absolute): relative command operands are read against it. */
  cwd?: string;
}

export interface GateInput {
  request: GateRequest;
  mode: GateMode;
  config: GateConfig;
  session?: { grants?: Grant[]; planRecorded?: boolean };
  /** Default true; false: every ask becomes deny. */
  interactive?: boolean;
  /** The user's home directory (for `~` and `$HOME` in commands and `~/` in patterns). */
  home?: string;
  /**
   * Resolves symlinks of an absolute path (the real path; for a path that does not exist yet, its nearest existing
   * parent resolved); undefined when it cannot. Without it paths are read lexically.
   */
  realpath?: (path: string) => string | undefined;
}

export type GateVerdict = 'allow' | 'deny' | 'ask';
export type GateRule =
  | 'denylist'
  | 'plan'
  | 'plan-first'
  | 'path-scope'
  | 'deny-pattern'
  | 'allow-pattern'
  | 'grant'
  | 'policy'
  | 'mode'
  | 'unreadable'
  | 'network'
  | 'protected';

export interface GateDecision {
  verdict: GateVerdict;
  rule: GateRule;
  /** One plain English sentence (or two), for the log, the details view and "what would happen". */
  reason: string;
  /** The pattern that decided (a deny or allow pattern; several joined with ", " for a compound command). */
  pattern?: string;
  /** For path-scope asks: the path and the access the scope does not grant. */
  path?: string;
  access?: 'read' | 'write';
  /** For path-scope asks: the path was placed (links resolved) and lies outside the scope, so a grant can cover it. */
  outside?: true;
}

/** Kinds plan mode lets through to the later rules. */
export const PLAN_MODE_KINDS: readonly string[] = Object.freeze(['read', 'search', 'think']);
/** Kinds without effects, which plan-first lets through (switch_mode is how claude records its plan). */
export const NO_EFFECT_KINDS: readonly string[] = Object.freeze(['read', 'search', 'think', 'switch_mode']);
/** File writes that acceptEdits allows (inside the scope, never to a protected file). */
export const EDIT_KINDS: readonly string[] = Object.freeze(['edit', 'delete', 'move']);
/**
 * The longest command line the gate reads: longer ones are asked about (the denylist still reads their first
 * MAX_GATE_CHARS characters and refuses what it finds there), so no request holds the extension host for long.
 */
export const MAX_GATE_CHARS = 16_384;

/** One path the request uses, placed. `source`: a tool location, a command operand, or a redirection. */
export interface UsedPath {
  readonly given: string;
  readonly access: 'read' | 'write';
  readonly placed: PlacedPath | undefined;
  readonly source: 'tool' | 'command' | 'redirect';
  /** Why the gate cannot place it although it may know the working directory (a `cd` not proven, a list file). */
  readonly unplaced?: string;
}

export interface Ctx {
  readonly req: GateRequest;
  readonly kind: string | undefined;
  readonly mode: GateMode;
  readonly cfg: CompiledConfig;
  readonly grants: readonly Grant[];
  readonly planRecorded: boolean;
  /** The command line when the request carries one. */
  readonly command: string | undefined;
  /** The command normalised (its first MAX_GATE_CHARS characters when it is longer). */
  readonly line: NormLine | undefined;
  readonly tooLong: boolean;
  readonly paths: readonly { path: string; access: 'read' | 'write' }[];
  readonly env: PathEnv;
  /** Every path the request uses: tool locations, command operands, redirection targets. */
  readonly used: readonly UsedPath[];
}
