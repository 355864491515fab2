import { Emitter } from '../../domain/events';
import type { Inbox, InboxItem } from '../../domain/inbox';
import { AgentPolicyCache, provenanceOf, type Provenance } from '../../domain/provenance';
import type { AgentApi } from '../../platform/agentApi';
import type { Logger } from '../../platform/log';
import type { LocalProvenance } from '../../session/localSource';
import { Disposable } from '../../util/lifecycle';
import { inertLine } from '../display';
import { PolicyStrings } from '../strings';

/**
 * Explains every request in the inbox: keeps the agent-policy cache fed (reads an agent's policy when one of its
 * requests or a new conversation of it appears) and turns the explanation into text for the toast, the tree tooltip
 * and the details document. The keys it shows may be agent-chosen titles: always rendered inert.
 */
export class ProvenanceService extends Disposable {
  private readonly _onDidChange = this._register(new Emitter<void>());
  /** Something a provenance text depends on changed (an agent policy was read or re-read). */
  readonly onDidChange = this._onDidChange.event;
  readonly cache: AgentPolicyCache;
  private _local: ((item: InboxItem) => LocalProvenance | undefined) | undefined;

  constructor(
    private readonly inbox: Inbox,
    api: AgentApi,
    log?: Pick<Logger, 'warn'>,
  ) {
    super();
    this.cache = new AgentPolicyCache((server, agentId, signal) =>
      api.getAgent(server, agentId, signal).catch((err: unknown) => {
        // The user reads "the agent's policy could not be read"; the why (an HTTP status, a route) is for the log.
        log?.warn(
          `the policy of agent ${JSON.stringify(agentId)} on ${server} could not be read: ${err instanceof Error ? err.message : String(err)}`,
        );
        throw err;
      }),
    );
    this._register(this.cache);
    this._register(this.cache.onDidChange(() => this._onDidChange.fire()));
    this._register(
      inbox.onDidChangeItems((change) => {
        for (const id of change.ids) {
          const item = inbox.get(id);
          if (item?.pending && item.conversation.agentId) {
            this.cache.noteConversation(item.conversation);
            this.cache.get(item.key.server, item.conversation.agentId);
          }
        }
        if (change.ids.length) {
          this._onDidChange.fire();
        }
      }),
    );
  }

  /** Explains local agents' requests from the local policy key that asked (src/session/localSource.ts). */
  useLocal(lookup: (item: InboxItem) => LocalProvenance | undefined): void {
    this._local = lookup;
    this._onDidChange.fire();
  }

  /** "asked by kind "execute" in the local policy of <agent>", for a local agent's request. */
  private localText(item: InboxItem): string | undefined {
    const p = this._local?.(item);
    if (!p) {
      return undefined;
    }
    if (p.gate && p.gate.rule !== 'mode') {
      return PolicyStrings.localGate(inertLine(p.gate.reason));
    }
    const keyType = p.matchedBy === 'none' ? null : p.matchedBy;
    const key = keyType === null ? null : keyText({ key: p.policyKey, keyType });
    const where = PolicyStrings.localPolicy(inertLine(p.agentName));
    return key === null ? PolicyStrings.localNoKey(where) : PolicyStrings.askedBy(key, where);
  }

  of(item: InboxItem): Provenance {
    const agentId = item.conversation.agentId;
    const state = agentId ? this.cache.get(item.key.server, agentId) : undefined;
    return provenanceOf(item.conversation, item.request, state);
  }

  /** The full sentence: "ask by kind "execute" (agent policy)", "unknown: the agent's policy could not be read", … */
  describe(item: InboxItem): string {
    return this.localText(item) ?? describeProvenance(this.of(item));
  }

  /** The toast's short form if it is known now (a toast never waits for it; the tree and details show it later). */
  cachedShort(item: InboxItem): string | undefined {
    return this.localText(item) ?? shortText(this.of(this.inbox.get(item.id) ?? item));
  }

  /** The toast's short form, once known (waits up to `ms` for the conversation and the agent policy). */
  async short(item: InboxItem, ms = 1500): Promise<string | undefined> {
    const local = this.localText(item);
    if (local !== undefined) {
      return local;
    }
    const end = Date.now() + ms;
    for (;;) {
      const current = this.inbox.get(item.id) ?? item;
      const text = shortText(this.of(current));
      if (text !== undefined) {
        return text;
      }
      if (Date.now() >= end) {
        return undefined;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

/** The short form of a known provenance; nothing while it is still pending. */
function shortText(p: Provenance): string | undefined {
  if (p.kind === 'pending') {
    return undefined;
  }
  return p.kind === 'explained' && p.key !== null
    ? PolicyStrings.askedBy(keyText(p), sourceText(p.source))
    : describeProvenance(p);
}

export function keyText(p: Pick<Extract<Provenance, { kind: 'explained' }>, 'key' | 'keyType'>): string {
  const key = inertLine(p.key ?? '');
  switch (p.keyType) {
    case 'title':
      return PolicyStrings.keyTitle(key);
    case 'default':
      return PolicyStrings.keyDefault;
    default:
      return PolicyStrings.keyKind(key);
  }
}

function sourceText(source: 'agent' | 'launch' | 'builtin'): string {
  return source === 'launch' ? PolicyStrings.launchPolicy : PolicyStrings.agentPolicy;
}

export function describeProvenance(p: Provenance): string {
  switch (p.kind) {
    case 'pending':
      return p.waitingFor === 'conversation' ? PolicyStrings.pendingConversation : PolicyStrings.pendingAgent;
    case 'unreadable':
      return PolicyStrings.unreadable; // the HTTP detail is in the log (see the constructor), not in the sentence
    case 'explained': {
      if (p.key === null || p.source === 'builtin') {
        return PolicyStrings.builtin;
      }
      const text = PolicyStrings.decidedBy(p.verdict, keyText(p), sourceText(p.source));
      return p.loosened ? `${text}; ${PolicyStrings.loosened}` : text;
    }
  }
}
