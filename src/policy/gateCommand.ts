/**
 * What keeps a shell command from being allowed by a pattern or grant, whatever the pattern says: a line the
 * lexer could not read with certainty, a substitution anywhere (`$(…)`, backticks, `<(…)`, `>(…)`), a redirection
 * that writes a file. (Kept for callers of the earlier API; the gate itself reads normalised commands, gateAllow.ts.)
 */
import type { Grant } from './grants';
import type { CommandPart, ParsedCommand } from './shell';

/** Output targets that write nothing anyone keeps. */
const HARMLESS_TARGETS = new Set(['/dev/null', '/dev/stdout', '/dev/stderr']);

/** Why a redirection of this part writes a file, or undefined. Input redirections and fd duplication are fine. */
export function redirectProblem(part: CommandPart): string | undefined {
  for (const r of part.redirects) {
    if (r.op === '<' || r.op === '<<<' || r.op === '<&') {
      continue;
    }
    if ((r.op === '>&' || r.op === '<&') && /^(?:\d+|-)$/.test(r.target)) {
      continue;
    }
    if (HARMLESS_TARGETS.has(r.target)) {
      continue;
    }
    return `"${part.text}" redirects its output (${r.op}) into a file, which no pattern or grant can allow.`;
  }
  return undefined;
}

/**
 * Why no pattern or grant may allow the line (no `part`), or this part of it under a rule from `bundle`; undefined
 * when nothing stands in the way.
 */
export function commandAllowProblem(parsed: ParsedCommand, part?: CommandPart): string | undefined {
  if (part === undefined) {
    if (parsed.substitutions.length > 0) {
      return 'The command contains a substitution ($(…), backticks or <(…)), which no pattern or grant can allow.';
    }
    if (parsed.problems.length > 0) {
      return `The command could not be read with certainty (${parsed.problems.join(', ')}), so no pattern or grant can allow it.`;
    }
    if (parsed.parts.length === 0) {
      return 'The command is empty.';
    }
    return undefined;
  }
  return redirectProblem(part);
}

/** A grant named for a sentence: `every "git" command`, `every execute call`, `exactly this request`. */
export function grantLabel(grant: Grant): string {
  switch (grant.scope) {
    case 'verb':
      return `every "${grant.verb}" command`;
    case 'tool':
      return `every ${grant.kind} call`;
    case 'exact':
      return 'exactly this request';
    case 'path':
      return `${grant.access === 'r' ? 'reading' : grant.access === 'w' ? 'writing' : 'reading and writing'} in ${grant.dir}`;
  }
}
