/**
 * The gate's allowing step (5 in gate.ts). A command line is allowed only when every command of it, normalised,
 * is covered: by an allow pattern read as a specification, by a bundle's program specification, or by a session
 * grant; a write redirection is covered by nothing. A request without a command: an allow pattern over its
 * paths (links resolved), URL or title, a grant, or a read inside the scope.
 */
import { bundleReading, ineligible, patternCovers, patternWords, verbCovers } from './commandRules';
import type { Ctx, GateDecision } from './gateTypes';
import { grantLabel } from './gateCommand';
import type { AllowRule } from './gateConfig';
import { grantCoversRequest, pathGrantCovers, requestKey, type Grant } from './grants';
import { wholeArgv, type NormCommand } from './normalise';
import { isHarmlessDevice } from './paths';
import { appliesTo, pathMatches, textGlobMatches, urlGlobMatches } from './patterns';
import { accessFor, grants } from './scope';

const WRITES = new Set(['>', '>>', '>|', '&>', '&>>', '<>']);

function allowByRule(rule: AllowRule): GateDecision {
  const from = rule.bundle ? ` from the built-in ${rule.bundle} bundle` : '';
  return {
    verdict: 'allow',
    rule: 'allow-pattern',
    reason: `Allowed by the pattern "${rule.source}"${from}.`,
    pattern: rule.source,
  };
}

const text = (c: NormCommand) => c.argv.join(' ');

function addOnce(list: string[], item: string): void {
  if (!list.includes(item)) {
    list.push(item);
  }
}

function writeRedirect(cmd: NormCommand): string | undefined {
  const r = cmd.redirects.find(
    (x) =>
      (WRITES.has(x.op) || (x.op === '>&' && !/^(?:\d+|-)$/.test(x.target ?? ''))) && !isHarmlessDevice(x.target ?? ''),
  );
  return r
    ? `"${text(cmd).slice(0, 80)}" redirects its output (${r.op}) into a file, which no pattern or grant can allow.`
    : undefined;
}

function grantCovers(g: Grant, cmd: NormCommand): boolean {
  switch (g.scope) {
    case 'path':
      return false;
    case 'verb':
      return verbCovers(g.verb, cmd);
    case 'tool':
      // "Every execute call" covers what a verb grant for each command's own program would.
      return g.kind === 'execute' && verbCovers(cmd.argv[0], cmd);
    case 'exact':
      return g.kind === 'execute' && g.key === wholeArgv(cmd).join(' ') && ineligible(cmd) === undefined;
  }
}

function allowCommand(ctx: Ctx): GateDecision | string {
  const line = ctx.line!;
  if (line.commands.length === 0) {
    return 'The command is empty.';
  }
  const key = requestKey(ctx.req).trim();
  if (ctx.grants.some((g) => g.scope === 'exact' && g.kind === (ctx.kind ?? 'execute') && g.key === key)) {
    return { verdict: 'allow', rule: 'grant', reason: 'Allowed by a session grant for exactly this command.' };
  }
  const userRules = ctx.cfg.allow.filter(
    (r) => r.bundle === undefined && (r.kind === undefined || r.kind === 'execute'),
  );
  const bundles = new Set(ctx.cfg.allow.map((r) => r.bundle).filter((b): b is string => b !== undefined));
  const used: string[] = [];
  let byGrant = false;
  let byBundle: string | undefined;
  for (const cmd of line.commands) {
    const redirect = writeRedirect(cmd);
    if (redirect) {
      return redirect;
    }
    const rule = userRules.find((r) => {
      const words = patternWords(r.glob);
      return words !== undefined && patternCovers(words, cmd);
    });
    if (rule) {
      addOnce(used, rule.source);
      continue;
    }
    const not = ineligible(cmd);
    const b = not === undefined ? bundleReading(cmd, bundles) : undefined;
    if (b?.ok) {
      byBundle ??= b.bundle;
      const label = `${cmd.argv[0]} (${b.bundle} bundle)`;
      addOnce(used, label);
      continue;
    }
    const grant = ctx.grants.find((g) => grantCovers(g, cmd));
    if (grant) {
      byGrant = true;
      const label = grantLabel(grant);
      addOnce(used, label);
      continue;
    }
    const where = line.commands.length > 1 ? ` in this command line` : '';
    if (not !== undefined) {
      return `No pattern, bundle or grant covers "${text(cmd).slice(0, 80)}"${where}: ${not}.`;
    }
    if (b !== undefined && !b.ok && b.bundle !== undefined) {
      return `"${cmd.argv[0]}" with ${b.why} is outside the built-in ${b.bundle} bundle.`;
    }
    return line.commands.length > 1
      ? `No pattern or grant covers "${text(cmd).slice(0, 80)}" in this command line.`
      : '';
  }
  const list = used.map((u) => `"${u}"`).join(', ');
  if (byGrant) {
    return {
      verdict: 'allow',
      rule: 'grant',
      reason: `Allowed: every command in the line is covered by a session grant or pattern (${list}).`,
    };
  }
  const pattern = used.join(', ');
  if (byBundle !== undefined && used.length === 1) {
    const prog = line.commands[0].argv[0];
    const entries = ctx.cfg.allow.filter(
      (r) => r.bundle === byBundle && (r.glob === prog || r.glob.startsWith(`${prog} `)),
    );
    const entry = entries.find((r) => (r.glob === prog) === (line.commands[0].argv.length === 1)) ?? entries[0];
    return {
      verdict: 'allow',
      rule: 'allow-pattern',
      reason: `Allowed by the built-in ${byBundle} bundle's specification of "${prog}" (only its listed options, paths inside the scope).`,
      pattern: entry?.source ?? used[0],
    };
  }
  if (used.length === 1 && byBundle === undefined) {
    return allowByRule(userRules.find((r) => r.source === used[0])!);
  }
  return {
    verdict: 'allow',
    rule: 'allow-pattern',
    reason: `Allowed: every command in the line is covered by a pattern or bundle (${list}).`,
    pattern,
  };
}

/** Whether an allow pattern covers a request without a command (every key must match, links resolved). */
function allowMatches(ctx: Ctx, p: AllowRule): boolean {
  if (!appliesTo(p, ctx.kind)) {
    return false;
  }
  if (ctx.used.length > 0) {
    return ctx.used.every(
      (u) =>
        u.placed !== undefined &&
        pathMatches(p.glob, u.placed.path, ctx.cfg.roots) &&
        pathMatches(p.glob, u.placed.lexical, ctx.cfg.roots),
    );
  }
  if (typeof ctx.req.url === 'string') {
    return urlGlobMatches(p.glob, ctx.req.url);
  }
  const key = ctx.req.title;
  return typeof key === 'string' ? textGlobMatches(p.glob, key) : /^\*+$/.test(p.glob.trim());
}

export function decideAllow(ctx: Ctx): GateDecision | string {
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
  if (reads && ctx.used.length > 0 && ctx.used.every((u) => u.access === 'read')) {
    const inScope = ctx.used.every(
      (u) =>
        u.placed !== undefined &&
        !u.placed.unresolved &&
        (grants(accessFor(u.placed.path, ctx.cfg.roots, ctx.cfg.allowPaths).access, 'read') ||
          ctx.grants.some((g) => pathGrantCovers(g, u.placed!.path, 'read'))),
    );
    if (inScope) {
      return {
        verdict: 'allow',
        rule: 'path-scope',
        reason: 'Reads inside the workspace folders, allowed paths and folders granted for the session are allowed.',
      };
    }
  }
  return '';
}
