/**
 * The gate's refusing and asking steps, in order (see gate.ts): the denylist, plan mode, deny patterns, a command
 * it cannot read, network devices, writes to protected files, and the path scope.
 */
import { denylistLine, denylistMaybe } from './denylist';
import { denyForms } from './normalise';
import type { Ctx, GateDecision } from './gateTypes';
import { isHarmlessDevice, isNetworkDevice } from './paths';
import { protectedWrite } from './protectedPaths';
import { appliesTo, commandMatches, MAX_PATH_LENGTH, pathMatches, textGlobMatches, type GatePattern } from './patterns';
import { pathGrantCovers, requestKey } from './grants';
import { accessFor, grants } from './scope';
import { allParts } from './shell';

/** Plan mode lets these kinds through to the later rules. */
const PLAN_KINDS = ['read', 'search', 'think'];
const NO_EFFECT = ['read', 'search', 'think', 'switch_mode'];

const kindName = (ctx: Ctx): string => (ctx.kind ? `"${ctx.kind}"` : 'untyped');

/** An ask that allow mode (nobody asked about what no rule allows) turns into a refusal. */
export function askOrDeny(ctx: Ctx, d: Omit<GateDecision, 'verdict'>): GateDecision {
  return ctx.mode === 'allow'
    ? { ...d, verdict: 'deny', reason: `${d.reason} Allow mode refuses what it cannot allow.` }
    : { ...d, verdict: 'ask' };
}

export function decideDenylist(ctx: Ctx): GateDecision | undefined {
  if (ctx.line === undefined || ctx.command === undefined) {
    return undefined;
  }
  const raw = ctx.tooLong ? ctx.command.slice(0, 16_384) : ctx.command;
  const hit = denylistLine(ctx.line, raw, ctx.env);
  return hit
    ? {
        verdict: 'deny',
        rule: 'denylist',
        reason: `This command ${hit.reason}, which the built-in denylist refuses in every mode, whatever any pattern, grant or policy says.`,
      }
    : undefined;
}

export function decidePlan(ctx: Ctx): GateDecision | undefined {
  // A call that carries a command runs it, whatever kind it names: plan mode and plan-first read it as a command.
  const kind = ctx.command !== undefined ? 'execute' : ctx.kind;
  const what =
    ctx.command !== undefined && ctx.kind !== 'execute'
      ? `${kindName(ctx)} call, which carries a command,`
      : `${kindName(ctx)} call`;
  if (ctx.mode === 'plan' && !(kind !== undefined && PLAN_KINDS.includes(kind))) {
    return {
      verdict: 'deny',
      rule: 'plan',
      reason: `Plan mode allows only reading, searching and thinking, so this ${what} is refused.`,
    };
  }
  if (ctx.cfg.requirePlan && !ctx.planRecorded && !(kind !== undefined && NO_EFFECT.includes(kind))) {
    return {
      verdict: 'deny',
      rule: 'plan-first',
      reason: `This session requires a plan before any call with effects, and the agent has not recorded one yet, so this ${what} is refused.`,
    };
  }
  return undefined;
}

/** `~/x` in a path glob, with the home directory known. */
function homeGlob(glob: string, home: string | undefined): string {
  return home !== undefined && (glob === '~' || glob.startsWith('~/')) ? home + glob.slice(1) : glob;
}

const PATHISH_GLOB = /^(?:\/|~|\*\*|\.\/)/;
const READ_KINDS = ['read', 'search'];
const WRITE_KINDS = ['edit', 'delete', 'move'];

/** Whether a deny pattern matches the request (any key is enough). */
function denyMatches(ctx: Ctx, p: GatePattern): boolean {
  const glob = homeGlob(p.glob, ctx.env.home);
  const pathHit = (path: string | undefined) =>
    path !== undefined && (path.length > MAX_PATH_LENGTH || pathMatches(glob, path, ctx.cfg.roots));
  if (
    ctx.command !== undefined &&
    ctx.line !== undefined &&
    (p.kind === undefined || p.kind === 'execute' || p.kind === ctx.kind)
  ) {
    // The whole line, each simple command as written, and each normalised (runners unwrapped, program by basename).
    const text = ctx.tooLong ? ctx.command.slice(0, 16_384) : ctx.command;
    if (
      commandMatches(p.glob, text) ||
      allParts(ctx.line.parsed).some((part) => commandMatches(p.glob, part.text)) ||
      ctx.line.commands.some(
        (c) => commandMatches(p.glob, c.argv.join(' ')) || denyForms(c).some((t) => commandMatches(p.glob, t)),
      )
    ) {
      return true;
    }
  }
  // Paths: a tool's locations (for its kind), and the paths a command reads or writes (read and edit patterns, and
  // patterns for every kind that look like paths), both as given and with links resolved.
  return (
    ctx.used.some((u) => {
      const applies =
        u.source === 'tool'
          ? appliesTo(p, ctx.kind)
          : p.kind === undefined
            ? PATHISH_GLOB.test(p.glob)
            : (u.access === 'read' ? READ_KINDS : WRITE_KINDS).includes(p.kind);
      return (
        applies && (pathHit(u.placed?.path) || pathHit(u.placed?.lexical) || (u.source === 'tool' && pathHit(u.given)))
      );
    }) ||
    (ctx.command === undefined &&
      ctx.used.length === 0 &&
      appliesTo(p, ctx.kind) &&
      textGlobMatches(p.glob, requestKey(ctx.req)))
  );
}

export function decideDenyPattern(ctx: Ctx): GateDecision | undefined {
  const p = ctx.cfg.deny.find((d) => denyMatches(ctx, d));
  if (p) {
    return {
      verdict: 'deny',
      rule: 'deny-pattern',
      reason: `The deny pattern "${p.source}" matches this request.`,
      pattern: p.source,
    };
  }
  // A malformed deny entry might have been meant to refuse this: asked in every mode, yolo included.
  const broken = ctx.cfg.brokenDeny.find((d) => denyMatches(ctx, d));
  return broken
    ? askOrDeny(ctx, {
        rule: 'deny-pattern',
        reason: `The deny entry ${JSON.stringify(broken.source).slice(0, 120)} cannot be read, and it might have been meant to refuse this request, so it is never allowed automatically.`,
        pattern: broken.source,
      })
    : undefined;
}

/** A command the gate cannot read completely is never allowed on its own account, in any mode, yolo included. */
export function decideUnreadable(ctx: Ctx): GateDecision | undefined {
  if (ctx.command === undefined || ctx.line === undefined) {
    return undefined;
  }
  if (ctx.tooLong) {
    return askOrDeny(ctx, {
      rule: 'unreadable',
      reason: `The command is too long for the gate to check (${ctx.command.length} characters; it reads at most 16384).`,
    });
  }
  const maybe = denylistMaybe(ctx.line, ctx.env);
  if (ctx.line.unreadable.length > 0 || maybe) {
    const why = maybe ? `it ${maybe.reason}` : `of ${ctx.line.unreadable.slice(0, 3).join(', ')}`;
    return askOrDeny(ctx, {
      rule: 'unreadable',
      reason: `The gate cannot tell what this command runs, because ${why}, so it never allows it on its own.`,
    });
  }
  return undefined;
}

/** Redirections to /dev/tcp and /dev/udp open network connections: never automatic, in any mode. */
export function decideNetwork(ctx: Ctx): GateDecision | undefined {
  const u = ctx.used.find(
    (x) => isNetworkDevice(x.placed?.path ?? x.given) || isNetworkDevice(x.placed?.lexical ?? ''),
  );
  return u
    ? askOrDeny(ctx, {
        rule: 'network',
        reason: `This call opens a network connection through ${u.placed?.lexical ?? u.given}, which is never allowed automatically.`,
        path: u.placed?.lexical ?? u.given,
        access: u.access,
      })
    : undefined;
}

/** Writes to files that make later commands run code: never automatic, acceptEdits and yolo included. */
export function decideProtected(ctx: Ctx): GateDecision | undefined {
  for (const u of ctx.used) {
    if (u.access !== 'write') {
      continue;
    }
    if (u.placed === undefined) {
      // Unplaced: the word itself may name a protected file, and after a cd not proven it may be anywhere.
      const why = protectedWrite(u.given);
      if (why !== undefined || u.unplaced !== undefined) {
        return askOrDeny(ctx, {
          rule: 'protected',
          reason: `This call would write "${u.given}"${why !== undefined ? `, and ${why}` : ''}; the gate cannot place it${u.unplaced !== undefined ? ` (${u.unplaced})` : ''}, so it is never allowed automatically.`,
          path: u.given,
          access: 'write',
        });
      }
      continue;
    }
    const why = protectedWrite(u.placed.path) ?? protectedWrite(u.placed.lexical);
    if (why) {
      return askOrDeny(ctx, {
        rule: 'protected',
        reason: `This call would write ${u.placed.path}, and ${why}, so it is never allowed automatically.`,
        path: u.placed.path,
        access: 'write',
      });
    }
  }
  return undefined;
}

/** The path scope asks in every mode but yolo (allow mode included: the user may widen the scope). */
const asked = (d: Omit<GateDecision, 'verdict'>): GateDecision => ({ ...d, verdict: 'ask' });

export function decideScope(ctx: Ctx): GateDecision | undefined {
  if (ctx.mode === 'yolo') {
    return undefined;
  }
  for (const u of ctx.used) {
    if (u.placed !== undefined && isHarmlessDevice(u.placed.path)) {
      continue;
    }
    if (u.placed === undefined) {
      return asked({
        rule: 'path-scope',
        reason:
          u.unplaced !== undefined
            ? `The gate cannot place what this command uses: ${u.unplaced}.`
            : u.source === 'tool'
              ? `The path "${u.given}" is not absolute, so it cannot be placed inside or outside the workspace.`
              : `The path "${u.given}" is relative and the request names no working directory, so it cannot be placed inside or outside the workspace.`,
        path: u.given,
        access: u.access,
      });
    }
    if (u.placed.unresolved) {
      return asked({
        rule: 'path-scope',
        reason: `The path ${u.placed.lexical} could not be resolved (links followed), so it cannot be placed inside or outside the workspace.`,
        path: u.placed.lexical,
        access: u.access,
      });
    }
    const got = accessFor(u.placed.path, ctx.cfg.roots, ctx.cfg.allowPaths);
    if (grants(got.access, u.access) || ctx.grants.some((g) => pathGrantCovers(g, u.placed!.path, u.access))) {
      continue;
    }
    const why = got.access
      ? `the allowed path "${got.by ?? ''}" grants only ${got.access === 'r' ? 'read' : 'write'} access`
      : 'it is outside the workspace folders and no allowed path covers it';
    const via = u.placed.path !== u.placed.lexical ? ` (${u.placed.lexical} leads there)` : '';
    return asked({
      rule: 'path-scope',
      reason: `This call would ${u.access} ${u.placed.path}${via}, but ${why}.`,
      path: u.placed.path,
      access: u.access,
      outside: true,
    });
  }
  return undefined;
}
