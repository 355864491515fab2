/**
 * Agents' display names for conversations. Fountain's conversation JSON carries `agent_id` and no name (wire notes
 * §2), so the name comes from `GET /api/agents/{id}`, read once per agent id for the life of one connection: every
 * conversation of that agent is then named by it (src/domain/conversationLabel.ts), never by the id. A failed read
 * is remembered as "no name" (logged), so a broken route is not asked again for each conversation.
 */
import { BoundedMap } from '../domain/boundedMap';
import type { ConversationInfo, FeedEvent } from '../domain/model';
import type { Logger } from '../protocol/env';

/** Reads one agent's display name (undefined: it has none). */
export type AgentNameLookup = (agentId: string) => Promise<string | undefined>;

const MAX_AGENTS = 2000;

export class AgentNames {
  /** A name, `null` (read, no name, or the read failed), or the read in flight. */
  private readonly known = new BoundedMap<string, string | null | Promise<void>>(MAX_AGENTS);

  constructor(
    private readonly lookup: AgentNameLookup,
    private readonly logger: Logger,
  ) {}

  /**
   * `e` with its agent's name when that is known; otherwise `e` as it is, and (the first time an agent id is seen)
   * the one lookup starts: once it answers with a name, `named` gets a conversation event that adds it.
   */
  name(e: FeedEvent, named: (e: FeedEvent) => void): FeedEvent {
    if (e.type !== 'conversation' || e.conversation.agentName || !e.conversation.agentId) {
      return e;
    }
    const c = e.conversation;
    const agentId = c.agentId as string;
    const k = this.known.get(agentId);
    if (typeof k === 'string') {
      return { type: 'conversation', conversation: { ...c, agentName: k } };
    }
    if (k === undefined) {
      this.known.set(agentId, this.read(agentId));
    }
    // Every conversation seen while the read is in flight gets the name when it comes.
    const pending = this.known.get(agentId);
    if (pending instanceof Promise) {
      void pending.then(() => {
        const name = this.known.get(agentId);
        if (typeof name === 'string') {
          named({ type: 'conversation', conversation: nameOnly(c, name) });
        }
      });
    }
    return e;
  }

  private async read(agentId: string): Promise<void> {
    let name: string | undefined;
    try {
      name = await this.lookup(agentId);
    } catch (err) {
      this.logger.warn(
        `the name of agent ${JSON.stringify(agentId)} could not be read (its conversations stay unnamed): ${err instanceof Error ? err.message : String(err)}`,
      );
    }
    this.known.set(agentId, name !== undefined && name.trim() !== '' ? name : null);
  }
}

/** A conversation event that adds only the name (the inbox merges it into what it knows). */
function nameOnly(c: ConversationInfo, agentName: string): ConversationInfo {
  return { server: c.server, id: c.id, agentId: c.agentId, agentName };
}
