/**
 * The agents the policy editor offers: the server's list (`GET /api/agents`: name, runtime, sandbox, how many
 * conversations) merged with the agents this window has seen (conversations in the inbox, answers in the history),
 * most recently active first. Every field but the id may be missing; the UI words a missing name.
 */

/** One agent of `GET /api/agents`, as far as the picker goes. */
export interface ListedAgent {
  readonly id: string;
  readonly name?: string;
  readonly runtime?: string;
  /** `sandbox_provider` and `sandbox_mode`, when the server names them. */
  readonly sandboxProvider?: string;
  readonly sandboxMode?: string;
  readonly conversationCount?: number;
}

/** An agent this window saw: in a conversation of the inbox, or in an answer of the history. */
export interface SeenAgent {
  readonly id: string;
  readonly name?: string;
  readonly runtime?: string;
  /** Epoch ms of the latest request or answer seen for it. */
  readonly lastActive?: number;
}

export interface AgentChoice {
  readonly id: string;
  readonly name?: string;
  readonly runtime?: string;
  readonly sandboxProvider?: string;
  readonly sandboxMode?: string;
  readonly conversationCount?: number;
  readonly lastActive?: number;
  /** False for an agent this window saw that the server's list did not name (or the list could not be read). */
  readonly listed: boolean;
}

const nonEmpty = (v: string | undefined) => (v !== undefined && v.trim() !== '' ? v : undefined);

/**
 * The choices: every listed agent and every seen one, once each. The server's name and runtime win over what the
 * window remembers. Order: most recently active first, then by name (unnamed last), then by id.
 */
export function agentChoices(listed: readonly ListedAgent[] | undefined, seen: readonly SeenAgent[]): AgentChoice[] {
  const byId = new Map<string, AgentChoice>();
  for (const a of listed ?? []) {
    if (!byId.has(a.id)) {
      byId.set(a.id, { ...a, listed: true });
    }
  }
  for (const s of seen) {
    const known = byId.get(s.id);
    const name = nonEmpty(known?.name) ?? nonEmpty(s.name);
    const runtime = nonEmpty(known?.runtime) ?? nonEmpty(s.runtime);
    const lastActive = Math.max(known?.lastActive ?? -Infinity, s.lastActive ?? -Infinity);
    byId.set(s.id, {
      ...(known ?? { id: s.id, listed: false }),
      ...(name !== undefined ? { name } : {}),
      ...(runtime !== undefined ? { runtime } : {}),
      ...(Number.isFinite(lastActive) ? { lastActive } : {}),
    });
  }
  return [...byId.values()].sort(
    (a, b) =>
      (b.lastActive ?? -Infinity) - (a.lastActive ?? -Infinity) ||
      compareNames(nonEmpty(a.name), nonEmpty(b.name)) ||
      (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
}

function compareNames(a: string | undefined, b: string | undefined): number {
  if (a === undefined || b === undefined) {
    return a === b ? 0 : a === undefined ? 1 : -1;
  }
  return a.localeCompare(b);
}
