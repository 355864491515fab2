/**
 * The pure pieces behind an "always allow" choice whose rule the user sees and may edit before it is kept:
 * - {@link allowPatternFor}: the `fountain.local.allow` pattern that covers exactly one request (a command as its
 *   normalised words, quoted; a path; a URL), or why none can be written;
 * - {@link checkAllowPattern}: an edited pattern read the way the gate will read it (a problem, or what it covers
 *   and warnings: a `*` that stands for nothing because the program runs what its arguments say, a pattern on the
 *   denylist, a pattern for a path-qualified program);
 * - {@link dryRunPattern}: what the gate would decide for a past request with the pattern added, and whether the
 *   pattern is what allowed it.
 */
import { EXACT_ONLY, patternWords } from './commandRules';
import { denylistMatch } from './denylist';
import { decide, type GateDecision, type GateInput, type GateRequest } from './gate';
import { shellQuote } from './gateRequest';
import { normaliseLine, wholeArgv } from './normalise';
import { parsePattern } from './patterns';
import type { AllowPath } from './scope';

export type AllowPatternSpec = { readonly pattern: string } | { readonly problem: string };

const GLOB_CHARS = /[*?[\]{}]/;

/** The pattern that covers exactly `req` (see the file comment). `home`: for `~` in its command. */
export function allowPatternFor(req: GateRequest, home?: string): AllowPatternSpec {
  const kind = req.kind;
  if (kind === undefined) {
    return { problem: 'the request names no kind' };
  }
  if (typeof req.command === 'string' && req.command !== '') {
    const line = normaliseLine(req.command, {
      ...(home !== undefined ? { home } : {}),
      ...(req.cwd ? { cwd: req.cwd } : {}),
    });
    if (line.unreadable.length > 0) {
      return { problem: `the gate cannot read the command (${line.unreadable[0]})` };
    }
    if (line.commands.length !== 1 || line.parsed.parts.length !== 1) {
      return { problem: 'the command line has more than one command' };
    }
    const c = line.commands[0];
    if (c.via.length > 0 || c.assigns.length > 0 || c.redirects.length > 0) {
      return { problem: 'the command runs through a runner, sets variables or redirects its output' };
    }
    if (wholeArgv(c).some((w) => w.includes('*'))) {
      return { problem: 'the command has a "*" in it, which a pattern would read as a wildcard' };
    }
    return { pattern: `${kind}:${wholeArgv(c).map(shellQuote).join(' ')}` };
  }
  if (req.paths !== undefined && req.paths.length > 0) {
    return req.paths.length === 1 && !GLOB_CHARS.test(req.paths[0].path)
      ? { pattern: `${kind}:${req.paths[0].path}` }
      : { problem: 'the request has several paths, or glob characters in its path' };
  }
  if (typeof req.url === 'string' && req.url !== '') {
    return req.url.includes('*') ? { problem: 'the URL has a "*" in it' } : { pattern: `${kind}:${req.url}` };
  }
  return { problem: 'the request has no command, path or URL to name' };
}

export type PatternCheck =
  | { readonly ok: true; readonly kind?: string; readonly glob: string; readonly warnings: readonly string[] }
  | { readonly ok: false; readonly problem: string };

/** An edited pattern, read the way the gate reads it (see the file comment). */
export function checkAllowPattern(pattern: string): PatternCheck {
  const p = parsePattern(pattern);
  if ('problem' in p) {
    return { ok: false, problem: p.problem };
  }
  const warnings: string[] = [];
  if (p.kind === 'execute' || p.kind === undefined) {
    const words = patternWords(p.glob);
    if (words === undefined || words.length === 0) {
      return p.kind === 'execute'
        ? { ok: false, problem: `"${p.glob}" is not one simple command (no ;, &&, |, redirections or substitutions)` }
        : { ok: true, glob: p.glob, warnings };
    }
    if (denylistMatch(p.glob.replace(/\*/g, 'x'))) {
      return { ok: false, problem: `"${p.glob}" is on the built-in denylist, which no pattern lifts` };
    }
    const prog = words[0].split('/').pop() ?? '';
    if (p.glob.includes('*') && EXACT_ONLY.has(prog)) {
      warnings.push(
        `"${prog}" runs what its arguments say: a "*" pattern for it covers nothing; only its exact command counts`,
      );
    }
    if (words[0].includes('/')) {
      warnings.push('a path-qualified program is never allowed by a pattern; name it by its basename');
    }
    if (p.glob.includes('*')) {
      warnings.push(
        '"*" covers words, never an option that runs a program, names a hook or writes a file, nor paths outside the scope',
      );
    }
  }
  return { ok: true, ...(p.kind !== undefined ? { kind: p.kind } : {}), glob: p.glob, warnings };
}

/** What the gate decides for `request` with `config` in place of the input's, and whether that change allowed it. */
function dryRunConfig(
  config: GateInput['config'],
  request: GateRequest,
  input: Omit<GateInput, 'request'>,
): { readonly decision: GateDecision; readonly coveredByPattern: boolean } {
  const without = decide({ ...input, request });
  const decision = decide({ ...input, config, request });
  return { decision, coveredByPattern: decision.verdict === 'allow' && without.verdict !== 'allow' };
}

/** What the gate decides for `request` with `pattern` added to the allow list, and whether the pattern decided. */
export function dryRunPattern(
  pattern: string,
  request: GateRequest,
  input: Omit<GateInput, 'request'>,
): { readonly decision: GateDecision; readonly coveredByPattern: boolean } {
  return dryRunConfig({ ...input.config, allow: [...(input.config.allow ?? []), pattern] }, request, input);
}

/** The same for an `allowPaths` entry added: what the gate would decide, and whether the entry is what allowed it. */
export function dryRunAllowPath(
  entry: AllowPath,
  request: GateRequest,
  input: Omit<GateInput, 'request'>,
): { readonly decision: GateDecision; readonly coveredByPattern: boolean } {
  return dryRunConfig({ ...input.config, allowPaths: [...(input.config.allowPaths ?? []), entry] }, request, input);
}
