/**
 * How a request reads at a glance: its one-line tool label and its severity. Agent text: render through inertText.
 */
import type { RequestDetails } from './model';

export type Severity = 'high' | 'low';

const LOW_KINDS = new Set(['read', 'search', 'think', 'other']);

/** execute, delete, fetch, edit, move, switch_mode are high; read, search, think, other low; unknown or missing high. */
export function severityOf(kind: string | undefined): Severity {
  if (kind !== undefined && LOW_KINDS.has(kind)) {
    return 'low';
  }
  return 'high';
}

/** Quotes one argv element for display the way a POSIX shell would read it back. */
function shellQuote(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

/**
 * The tool label: title, else `rawInput.command` (a string, or an argv array shown shell-quoted), else the summary,
 * else the kind, else the name, else "tool". Untrusted: render through inertText.
 */
export function labelOf(r: RequestDetails): string {
  return r.title || commandOf(r) || r.summary || r.kind || r.name || 'tool';
}

/** `rawInput.command`: a string, or an argv array shell-quoted; undefined when absent or empty. Untrusted. */
export function commandOf(r: RequestDetails): string | undefined {
  const raw = r.rawInput;
  if (raw !== null && typeof raw === 'object' && !Array.isArray(raw)) {
    const command = (raw as Record<string, unknown>).command;
    if (typeof command === 'string' && command) {
      return command;
    }
    if (Array.isArray(command) && command.length && command.every((a) => typeof a === 'string')) {
      return command.map(shellQuote).join(' ');
    }
  }
  return undefined;
}

/**
 * The whole plan of a plan approval (claude's ExitPlanMode: kind `switch_mode`, the plan in `rawInput.plan`), or
 * undefined for any other request. Untrusted text: render inert.
 */
export function planOf(r: Pick<RequestDetails, 'kind' | 'rawInput'>): string | undefined {
  if (r.kind !== 'switch_mode') {
    return undefined;
  }
  const raw = r.rawInput;
  const plan =
    raw !== null && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>).plan : undefined;
  return typeof plan === 'string' && plan.trim() !== '' ? plan : undefined;
}
