/**
 * The local permission gate: what a local agent's permission request gets before (or instead of) a human.
 * Pure: no vscode, no file system (links are resolved through the injected `realpath`), no clock. A positive
 * model: nothing is allowed on the gate's own account unless it is read completely and covered. The order, first
 * match deciding:
 * 1. the built-in denylist, on the normalised command of any request that carries one → deny, in every mode;
 * 2. plan mode (only read, search, think) and plan-first (no call with effects before a plan) → deny;
 * 3. deny patterns (on the command as written and normalised, and on every path, links resolved) → deny;
 * 4. a command the gate cannot read completely (an expansion it cannot do, a glob, a construct it does not know,
 *    longer than MAX_GATE_CHARS) → ask, in every mode, yolo included (allow mode: deny);
 * 5. a network device (`/dev/tcp/…`) → ask, in every mode; a write to a protected file (`.git/`, agent and
 *    editor settings, shell rc files, …) → ask, in every mode; a write of a file that a program allowed by an
 *    active grant or allow pattern runs (package.json under an `npm test` grant; plantedCode.ts) → ask, but in yolo;
 * 6. path scope: every path (tool locations, command operands, redirections; links resolved) → ask when the scope
 *    does not grant the access, in every mode but yolo;
 * 7. allow patterns and bundles (program specifications), session grants, reads inside the scope → allow;
 * 8. the policy (title → kind → default): auto_allow → allow, auto_deny → deny, ask → the mode;
 * 9. the mode: ask → ask; acceptEdits → edits (inside the scope) allow, the rest ask; allow → deny; yolo → allow.
 * With `interactive: false` every ask becomes a deny with the same rule.
 *
 * Settings that cannot be honoured disable only the entry at fault (see gateConfig.ts); the reason names them.
 * Reasons quote paths, patterns and kinds from the request and the settings: render them as inert text.
 */
import { commandPaths } from './commandRules';
import { decideAllow } from './gateAllow';
import { compileGateConfig } from './gateConfig';
import {
  decideDenyPattern,
  decideDenylist,
  decideNetwork,
  decidePlan,
  decideProtected,
  decideScope,
  decideUnreadable,
} from './gateSteps';
import { isGrant } from './grants';
import { decidePlanted } from './plantedCode';
import { normaliseLine, type NormCommand } from './normalise';
import { joinDir, placePath, type PathEnv } from './paths';
import { verdictOf } from './verdicts';
import { listFileWord, writtenPaths } from './writeSpecs';
import {
  GATE_MODES,
  EDIT_KINDS,
  MAX_GATE_CHARS,
  type GateRequest,
  type GateInput,
  type GateDecision,
  type UsedPath,
  type Ctx,
} from './gateTypes';

export type { GateConfig } from './gateConfig';
export type { Grant } from './grants';

export {
  GATE_MODES,
  PLAN_MODE_KINDS,
  NO_EFFECT_KINDS,
  EDIT_KINDS,
  MAX_GATE_CHARS,
  type GateMode,
  type GateRequest,
  type GateInput,
  type GateVerdict,
  type GateRule,
  type GateDecision,
  type UsedPath,
  type Ctx,
} from './gateTypes';

const WRITE_OPS = new Set(['>', '>>', '>|', '&>', '&>>', '<>']);

const LOST =
  'an earlier "cd" of the line may or may not have worked when this runs, so the gate cannot tell which directory';

/** What a command cannot have placed: what a list or standard input names, operands added at run time. */
function unplaceable(cmd: NormCommand): UsedPath[] {
  const list = cmd.literal ? listFileWord(cmd.argv) : undefined;
  const out: UsedPath[] = [];
  if (list !== undefined) {
    const why = `"${cmd.argv[0]}" names its files in a list (${list.slice(0, 60)}), which the gate cannot read`;
    out.push({ given: list, access: 'read', placed: undefined, source: 'command', unplaced: why });
  }
  if (cmd.more === true) {
    const why = `${cmd.via[cmd.via.length - 1] ?? 'xargs'} adds operands to "${cmd.argv[0]}" at run time, from its input`;
    out.push({ given: cmd.argv[0], access: 'read', placed: undefined, source: 'command', unplaced: why });
  }
  return out;
}

function commandUse(cmd: NormCommand, env: PathEnv): UsedPath[] {
  const cwd = cmd.cwdLost === true ? undefined : joinDir(env.cwd, cmd.cwd);
  const out: UsedPath[] = unplaceable(cmd);
  const place = (word: string): Pick<UsedPath, 'placed' | 'unplaced'> => {
    const placed = placePath(word, cwd, env);
    return placed === undefined && cmd.cwdLost === true ? { placed, unplaced: `${LOST} "${word}" is in` } : { placed };
  };
  const paths = cmd.literal ? [...commandPaths(cmd), ...writtenPaths(cmd.argv, env.home)] : [];
  for (const p of paths) {
    if (p.word === '.' && cwd === undefined && cmd.cwdLost !== true && p.access === 'read') {
      continue;
    }
    out.push({ given: p.word, access: p.access, ...place(p.word), source: 'command' });
  }
  for (const r of cmd.redirects) {
    if (
      r.target === undefined ||
      ((r.op === '>&' || r.op === '<&') && /^(?:\d+|-)$/.test(r.target)) ||
      r.op === '<<<' ||
      r.op === '<<'
    ) {
      continue;
    }
    const access = WRITE_OPS.has(r.op) || r.op === '>&' ? 'write' : 'read';
    out.push({ given: r.target, access, ...place(r.target), source: 'redirect' });
  }
  return out;
}

function context(input: GateInput): Ctx {
  const req: GateRequest = typeof input?.request === 'object' && input.request !== null ? input.request : {};
  const kind = typeof req.kind === 'string' && req.kind !== '' ? req.kind : undefined;
  const mode = GATE_MODES.includes(input?.mode) ? input.mode : 'ask';
  const cfg = compileGateConfig(input?.config);
  const own = typeof req.command === 'string' && req.command !== '' ? req.command : undefined;
  const title = kind === 'execute' || (kind === undefined && own !== undefined) ? req.title : undefined;
  const command = own ?? (typeof title === 'string' && title !== '' ? title : undefined);
  const paths = (Array.isArray(req.paths) ? req.paths : []).filter(
    (p) => typeof p?.path === 'string' && (p.access === 'read' || p.access === 'write'),
  );
  const cwd = typeof req.cwd === 'string' && req.cwd.startsWith('/') ? req.cwd : undefined;
  const env: PathEnv = {
    ...(cwd !== undefined ? { cwd } : {}),
    ...(typeof input?.home === 'string' && input.home.startsWith('/') ? { home: input.home } : {}),
    ...(typeof input?.realpath === 'function' ? { realpath: input.realpath } : {}),
  };
  const tooLong = command !== undefined && command.length > MAX_GATE_CHARS;
  const line =
    command === undefined ? undefined : normaliseLine(tooLong ? command.slice(0, MAX_GATE_CHARS) : command, env);
  const used: UsedPath[] = paths.map((p) => ({
    given: p.path,
    access: p.access,
    placed: p.path.startsWith('/') ? placePath(p.path, undefined, env) : undefined,
    source: 'tool' as const,
  }));
  if (line !== undefined && !tooLong) {
    for (const cmd of line.commands) {
      used.push(...commandUse(cmd, env));
    }
  }
  return {
    req,
    kind,
    mode,
    cfg,
    grants: (Array.isArray(input.session?.grants) ? input.session.grants : []).filter(isGrant),
    planRecorded: input.session?.planRecorded === true,
    command,
    line,
    tooLong,
    paths,
    env,
    used,
  };
}

function decidePolicy(ctx: Ctx): GateDecision | undefined {
  // A request that carries a command runs it: the policy reads it as the execute it is, whatever kind it names.
  const kind = ctx.command !== undefined ? 'execute' : ctx.kind;
  const { verdict, key } = verdictOf(ctx.cfg.policy, { title: ctx.req.title, kind });
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
      return {
        verdict: 'allow',
        rule: 'mode',
        reason: 'Yolo mode allows what no earlier rule refused or asked about.',
      };
    case 'allow':
      return {
        verdict: 'deny',
        rule: 'mode',
        reason: `Allow mode refuses what no allow rule covers, and none covers this call.${tail}`,
      };
    case 'acceptEdits':
      // Only an edit whose every path the gate placed inside the scope (the earlier steps asked about the rest).
      if (ctx.kind !== undefined && EDIT_KINDS.includes(ctx.kind) && ctx.command === undefined && ctx.used.length > 0) {
        return {
          verdict: 'allow',
          rule: 'mode',
          reason: 'Accept-edits mode allows file edits inside the workspace without asking.',
        };
      }
      return {
        verdict: 'ask',
        rule: 'mode',
        reason:
          ctx.kind !== undefined && EDIT_KINDS.includes(ctx.kind)
            ? `Accept-edits mode allows only edits whose paths the gate can read.${tail}`
            : `Accept-edits mode allows only file edits without asking.${tail}`,
      };
    default:
      return { verdict: 'ask', rule: 'mode', reason: `No rule allows or refuses this call.${tail}` };
  }
}

/** The gate's decision for one permission request. See the file comment for the order. */
export function decide(input: GateInput): GateDecision {
  const ctx = context(input);
  let d =
    decideDenylist(ctx) ??
    decidePlan(ctx) ??
    decideDenyPattern(ctx) ??
    decideUnreadable(ctx) ??
    decideNetwork(ctx) ??
    decideProtected(ctx) ??
    decidePlanted(ctx) ??
    decideScope(ctx);
  let note = '';
  if (!d) {
    const allowed = decideAllow(ctx);
    if (typeof allowed === 'string') {
      note = allowed;
    } else {
      d = allowed;
    }
  }
  // auto_deny always refuses; auto_allow never lifts what the gate cannot read (asked above) and never a write
  // outside the scope (asked above): it only stands in for the mode.
  d ??= decidePolicy(ctx) ?? decideMode(ctx, note);
  const problems = ctx.cfg.problems.length > 0 ? ` (Settings ignored: ${ctx.cfg.problems.join('; ')}.)` : '';
  if (d.verdict === 'ask') {
    return input.interactive === false
      ? {
          ...d,
          verdict: 'deny',
          reason: `${d.reason} Nobody can be asked in this session, so it is refused.${problems}`,
        }
      : { ...d, reason: `${d.reason} You are asked.${problems}` };
  }
  return problems ? { ...d, reason: `${d.reason}${problems}` } : d;
}
