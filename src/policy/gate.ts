/**
 * The local permission gate: what a local agent's permission request gets before (or instead of) a human.
 * Pure: no vscode, no file system, no clock. The order, first match deciding:
 * 1. the built-in denylist (execute) → deny, in every mode, whatever anything else says;
 * 2. plan mode (only read, search, think) and plan-first (no call with effects before a plan) → deny;
 * 3. deny patterns → deny;
 * 4. path scope: an access the scope does not grant → ask (acceptEdits lets writes through, yolo everything);
 * 5. allow patterns and bundles, session grants, reads inside the scope → allow;
 * 6. the policy (title → kind → default): auto_allow → allow, auto_deny → deny, ask → the mode;
 * 7. the mode: ask → ask; acceptEdits → edits allow, the rest ask; allow → deny; yolo → allow.
 * With `interactive: false` every ask becomes a deny with the same rule.
 *
 * Throws {@link GateConfigError} for a configuration that cannot be honoured (see gateConfig.ts); the product
 * checks settings with `gateConfigProblems` when they change and shows the problems.
 * Reasons quote paths, patterns and kinds from the request and the settings: render them as inert text.
 */
import { denylistMatch, stripWrappers } from './denylist';
import { compileGateConfig, type AllowRule, type CompiledConfig, type GateConfig } from './gateConfig';
import { grantCoversPart, grantCoversRequest, isGrant, requestKey, type Grant } from './grants';
import { MAX_PATH_LENGTH, appliesTo, commandMatches, pathMatches, textGlobMatches, type GatePattern } from './patterns';
import { commandAllowProblem, grantLabel, redirectProblem } from './gateCommand';
import { accessFor, grants, normalisePath } from './scope';
import { allParts, parseCommand, type ParsedCommand } from './shell';
import { verdictOf } from './verdicts';

export type { GateConfig } from './gateConfig';
export type { Grant } from './grants';

export type GateMode = 'ask' | 'acceptEdits' | 'plan' | 'allow' | 'yolo';
export const GATE_MODES: readonly GateMode[] = Object.freeze(['ask', 'acceptEdits', 'plan', 'allow', 'yolo'] as const);

export interface GateRequest {
  kind?: string;
  title?: string;
  /** rawInput.command, else the title, for execute. */
  command?: string;
  /** Absolute, from ACP locations / rawInput / diffs. */
  paths?: { path: string; access: 'read' | 'write' }[];
  /** For fetch. */
  url?: string;
}

export interface GateInput {
  request: GateRequest;
  mode: GateMode;
  config: GateConfig;
  session?: { grants?: Grant[]; planRecorded?: boolean };
  /** Default true; false: every ask becomes deny. */
  interactive?: boolean;
}

export type GateVerdict = 'allow' | 'deny' | 'ask';
export type GateRule =
  'denylist' | 'plan' | 'plan-first' | 'path-scope' | 'deny-pattern' | 'allow-pattern' | 'grant' | 'policy' | 'mode';

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
}

/** Kinds plan mode lets through to the later rules. */
export const PLAN_MODE_KINDS: readonly string[] = Object.freeze(['read', 'search', 'think']);
/** Kinds without effects, which plan-first lets through (switch_mode is how claude records its plan). */
export const NO_EFFECT_KINDS: readonly string[] = Object.freeze(['read', 'search', 'think', 'switch_mode']);
/** File writes that acceptEdits allows. */
export const EDIT_KINDS: readonly string[] = Object.freeze(['edit', 'delete', 'move']);

interface Ctx {
  readonly req: GateRequest;
  readonly kind: string | undefined;
  readonly mode: GateMode;
  readonly cfg: CompiledConfig;
  readonly grants: readonly Grant[];
  readonly planRecorded: boolean;
  /** The command line when the request runs one. */
  readonly command: string | undefined;
  readonly parsed: ParsedCommand | undefined;
  readonly paths: readonly { path: string; access: 'read' | 'write' }[];
}

function context(input: GateInput): Ctx {
  const req: GateRequest = typeof input?.request === 'object' && input.request !== null ? input.request : {};
  const kind = typeof req.kind === 'string' && req.kind !== '' ? req.kind : undefined;
  const mode = GATE_MODES.includes(input?.mode) ? input.mode : 'ask';
  const cfg = compileGateConfig(input?.config);
  const runs = kind === 'execute' || (kind === undefined && typeof req.command === 'string');
  const raw = typeof req.command === 'string' && req.command !== '' ? req.command : req.title;
  const command = runs && typeof raw === 'string' ? raw : undefined;
  const paths = (Array.isArray(req.paths) ? req.paths : []).filter(
    (p) => typeof p?.path === 'string' && (p.access === 'read' || p.access === 'write'),
  );
  return {
    req,
    kind,
    mode,
    cfg,
    grants: (Array.isArray(input.session?.grants) ? input.session.grants : []).filter(isGrant),
    planRecorded: input.session?.planRecorded === true,
    command,
    parsed: command === undefined ? undefined : parseCommand(command),
    paths,
  };
}

const kindName = (ctx: Ctx): string => (ctx.kind ? `"${ctx.kind}"` : 'untyped');

/** Whether a pattern's glob matches the request (any key: deny uses this, so one match is enough). */
function denyMatches(ctx: Ctx, p: GatePattern): boolean {
  if (!appliesTo(p, ctx.kind)) {
    return false;
  }
  if (ctx.command !== undefined && ctx.parsed) {
    // The whole line, each simple command (also inside substitutions), and each with `sudo`/`env`/… stripped.
    return (
      commandMatches(p.glob, ctx.command) ||
      allParts(ctx.parsed).some(
        (part) => commandMatches(p.glob, part.text) || commandMatches(p.glob, stripWrappers(part.words).join(' ')),
      )
    );
  }
  if (ctx.paths.length > 0) {
    // A path too long to be real matches every deny pattern of its kind: fail closed.
    return ctx.paths.some((x) => x.path.length > MAX_PATH_LENGTH || pathMatches(p.glob, x.path, ctx.cfg.roots));
  }
  return textGlobMatches(p.glob, requestKey(ctx.req));
}

/** Whether an allow pattern covers a non-execute request (every key must match). */
function allowMatches(ctx: Ctx, p: GatePattern): boolean {
  if (!appliesTo(p, ctx.kind)) {
    return false;
  }
  if (ctx.paths.length > 0) {
    return ctx.paths.every((x) => pathMatches(p.glob, x.path, ctx.cfg.roots));
  }
  const key = ctx.req.url ?? ctx.req.title;
  return typeof key === 'string' ? textGlobMatches(p.glob, key) : /^\*+$/.test(p.glob.trim());
}

function decideDenylist(ctx: Ctx): GateDecision | undefined {
  // Any request that carries a command is checked, whatever its kind says.
  const text = ctx.command ?? (typeof ctx.req.command === 'string' ? ctx.req.command : undefined);
  const hit = text !== undefined ? denylistMatch(text, text === ctx.command ? ctx.parsed : undefined) : undefined;
  return hit
    ? {
        verdict: 'deny',
        rule: 'denylist',
        reason: `This command ${hit.reason}, which the built-in denylist refuses in every mode, whatever any pattern, grant or policy says.`,
      }
    : undefined;
}

function decidePlan(ctx: Ctx): GateDecision | undefined {
  if (ctx.mode === 'plan' && !(ctx.kind !== undefined && PLAN_MODE_KINDS.includes(ctx.kind))) {
    return {
      verdict: 'deny',
      rule: 'plan',
      reason: `Plan mode allows only reading, searching and thinking, so this ${kindName(ctx)} call is refused.`,
    };
  }
  if (ctx.cfg.requirePlan && !ctx.planRecorded && !(ctx.kind !== undefined && NO_EFFECT_KINDS.includes(ctx.kind))) {
    return {
      verdict: 'deny',
      rule: 'plan-first',
      reason: `This session requires a plan before any call with effects, and the agent has not recorded one yet, so this ${kindName(ctx)} call is refused.`,
    };
  }
  return undefined;
}

function decideDenyPattern(ctx: Ctx): GateDecision | undefined {
  const p = ctx.cfg.deny.find((d) => denyMatches(ctx, d));
  return p
    ? {
        verdict: 'deny',
        rule: 'deny-pattern',
        reason: `The deny pattern "${p.source}" matches this request.`,
        pattern: p.source,
      }
    : undefined;
}

function decideScope(ctx: Ctx): GateDecision | undefined {
  if (ctx.mode === 'yolo') {
    return undefined;
  }
  for (const { path, access } of ctx.paths) {
    const norm = normalisePath(path);
    if (norm === undefined) {
      return {
        verdict: 'ask',
        rule: 'path-scope',
        reason: `The path "${path}" is not absolute, so it cannot be placed inside or outside the workspace.`,
        path,
        access,
      };
    }
    const got = accessFor(norm, ctx.cfg.roots, ctx.cfg.allowPaths);
    if (grants(got.access, access) || (access === 'write' && ctx.mode === 'acceptEdits')) {
      continue;
    }
    const what = access === 'read' ? 'read' : 'write';
    const why = got.access
      ? `the allowed path "${got.by ?? ''}" grants only ${got.access === 'r' ? 'read' : 'write'} access`
      : 'it is outside the workspace folders and no allowed path covers it';
    return {
      verdict: 'ask',
      rule: 'path-scope',
      reason: `This call would ${what} ${norm}, but ${why}.`,
      path: norm,
      access,
    };
  }
  return undefined;
}

function allowByRule(rule: AllowRule): GateDecision {
  const from = rule.bundle ? ` from the built-in ${rule.bundle} bundle` : '';
  return {
    verdict: 'allow',
    rule: 'allow-pattern',
    reason: `Allowed by the pattern "${rule.source}"${from}.`,
    pattern: rule.source,
  };
}

/** Step 5 for a shell command: every simple command covered, nothing hidden. Returns the decision or a note. */
function allowCommand(ctx: Ctx): GateDecision | string {
  const parsed = ctx.parsed!;
  const blocked = commandAllowProblem(parsed);
  if (blocked) {
    return blocked;
  }
  const whole = ctx.grants.find((g) => g.scope === 'exact' && g.kind === 'execute' && g.key === requestKey(ctx.req));
  if (whole) {
    return { verdict: 'allow', rule: 'grant', reason: `Allowed by a session grant for exactly this command.` };
  }
  const used: string[] = [];
  let byGrant = false;
  for (const part of parsed.parts) {
    const redirect = redirectProblem(part);
    if (redirect) {
      return redirect;
    }
    const rule = ctx.cfg.allow.find(
      (r) =>
        appliesTo(r, 'execute') &&
        commandMatches(r.glob, part.text) &&
        commandAllowProblem(parsed, part, r.bundle) === undefined,
    );
    if (rule) {
      if (!used.includes(rule.source)) {
        used.push(rule.source);
      }
      continue;
    }
    const grant = ctx.grants.find((g) => grantCoversPart(g, part));
    if (grant) {
      byGrant = true;
      const label = grantLabel(grant);
      if (!used.includes(label)) {
        used.push(label);
      }
      continue;
    }
    const hazard = ctx.cfg.allow
      .filter((r) => r.bundle !== undefined && commandMatches(r.glob, part.text))
      .map((r) => commandAllowProblem(parsed, part, r.bundle))
      .find((x) => x !== undefined);
    if (hazard) {
      return hazard;
    }
    return parsed.parts.length > 1 ? `No pattern or grant covers "${part.text}" in this command line.` : '';
  }
  if (parsed.parts.length === 1) {
    return byGrant
      ? { verdict: 'allow', rule: 'grant', reason: `Allowed by a session grant for ${used[0]}.` }
      : allowByRule(ctx.cfg.allow.find((r) => r.source === used[0])!);
  }
  const list = used.map((u) => `"${u}"`).join(', ');
  return {
    verdict: 'allow',
    rule: byGrant ? 'grant' : 'allow-pattern',
    reason: byGrant
      ? `Allowed: every command in the line is covered by a session grant or pattern (${list}).`
      : `Allowed: every command in the line is covered by a pattern (${list}).`,
    ...(byGrant ? {} : { pattern: used.join(', ') }),
  };
}

function decideAllow(ctx: Ctx): GateDecision | string {
  if (ctx.command !== undefined) {
    return allowCommand(ctx);
  }
  const rule = ctx.cfg.allow.find((r) => allowMatches(ctx, r));
  if (rule) {
    return allowByRule(rule);
  }
  const grant = ctx.grants.find((g) => grantCoversRequest(g, ctx.req));
  if (grant) {
    return { verdict: 'allow', rule: 'grant', reason: `Allowed by a session grant for ${grantLabel(grant)}.` };
  }
  const reads = ctx.kind === 'read' || ctx.kind === 'search';
  if (reads && ctx.paths.length > 0 && ctx.paths.every((p) => p.access === 'read')) {
    const inScope = ctx.paths.every((p) => grants(accessFor(p.path, ctx.cfg.roots, ctx.cfg.allowPaths).access, 'read'));
    if (inScope) {
      return {
        verdict: 'allow',
        rule: 'path-scope',
        reason: 'Reads inside the workspace folders and allowed paths are allowed.',
      };
    }
  }
  return '';
}

function decidePolicy(ctx: Ctx): GateDecision | undefined {
  const { verdict, key } = verdictOf(ctx.cfg.policy, { title: ctx.req.title, kind: ctx.kind });
  if (verdict === 'ask') {
    return undefined;
  }
  const by = key === null ? 'no key' : key === 'default' ? 'its default' : `"${key}"`;
  return {
    verdict: verdict === 'auto_allow' ? 'allow' : 'deny',
    rule: 'policy',
    reason: `The policy gives ${by} ${verdict}.`,
  };
}

function decideMode(ctx: Ctx, note: string): GateDecision {
  const tail = note ? ` ${note}` : '';
  switch (ctx.mode) {
    case 'yolo':
      return { verdict: 'allow', rule: 'mode', reason: 'Yolo mode allows what no earlier rule refused.' };
    case 'allow':
      return {
        verdict: 'deny',
        rule: 'mode',
        reason: `Allow mode refuses what no allow rule covers, and none covers this call.${tail}`,
      };
    case 'acceptEdits':
      if (ctx.kind !== undefined && EDIT_KINDS.includes(ctx.kind)) {
        return { verdict: 'allow', rule: 'mode', reason: 'Accept-edits mode allows file edits without asking.' };
      }
      return {
        verdict: 'ask',
        rule: 'mode',
        reason: `Accept-edits mode allows only file edits without asking.${tail}`,
      };
    default:
      return { verdict: 'ask', rule: 'mode', reason: `No rule allows or refuses this call.${tail}` };
  }
}

/** The gate's decision for one permission request. See the file comment for the order. */
export function decide(input: GateInput): GateDecision {
  const ctx = context(input);
  let d = decideDenylist(ctx) ?? decidePlan(ctx) ?? decideDenyPattern(ctx) ?? decideScope(ctx);
  let note = '';
  if (!d) {
    const allowed = decideAllow(ctx);
    if (typeof allowed === 'string') {
      note = allowed;
    } else {
      d = allowed;
    }
  }
  d ??= decidePolicy(ctx) ?? decideMode(ctx, note);
  if (d.verdict === 'ask') {
    return input.interactive === false
      ? { ...d, verdict: 'deny', reason: `${d.reason} Nobody can be asked in this session, so it is refused.` }
      : { ...d, reason: `${d.reason} You are asked.` };
  }
  return d;
}
