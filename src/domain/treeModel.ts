/**
 * What the Pending Approvals tree shows, grouped once per inbox change: conversations (ordered by their most urgent
 * waiting request) and their requests (waiting ones by nearest deadline, src/domain/urgency.ts), with an index by
 * conversation key. VS Code asks for every conversation's
 * children and tree item separately; grouping the whole inbox for each of those asks made one render of 10,000
 * requests in 1,000 conversations take seconds. Here a render groups once and every later ask is a map look-up.
 */
import type { IDisposable } from '../util/lifecycle';
import type { ConversationGroup, Inbox } from './inbox';
import type { ConversationInfo } from './model';
import { byUrgencyGroups } from './urgency';

/** The key of a conversation across servers (the tree's conversation element id). */
export function conversationKey(server: string, conversationId: string): string {
  return JSON.stringify([server, conversationId]);
}

export class TreeModel implements IDisposable {
  private _groups: readonly ConversationGroup[] | undefined;
  private _index: Map<string, ConversationGroup> | undefined;
  private readonly _subscription: IDisposable;
  private _listed: () => readonly ConversationInfo[] = () => [];

  constructor(private readonly inbox: Pick<Inbox, 'byConversation' | 'onDidChangeItems'>) {
    this._subscription = inbox.onDidChangeItems(() => this.invalidate());
  }

  /** Forgets the grouping; the next ask groups the inbox again. Called on every inbox change. */
  invalidate(): void {
    this._groups = undefined;
    this._index = undefined;
  }

  /**
   * Conversations shown even with nothing visible (a local agent session), with their current info; call
   * `invalidate` when that list changes.
   */
  listConversations(listed: () => readonly ConversationInfo[]): void {
    this._listed = listed;
    this.invalidate();
  }

  /**
   * Conversations with visible items, ordered by their most urgent waiting request (then those with nothing waiting,
   * oldest first), then the listed ones with none.
   */
  groups(): readonly ConversationGroup[] {
    this._groups ??= this.merge(byUrgencyGroups(this.inbox.byConversation()));
    return this._groups;
  }

  private merge(groups: ConversationGroup[]): ConversationGroup[] {
    const listed = this._listed();
    if (!listed.length) {
      return groups;
    }
    // A listed conversation's own info is the current one (e.g. a local session's status).
    const fresh = new Map(listed.map((c) => [conversationKey(c.server, c.id), c]));
    const merged = groups.map((g) => {
      const k = conversationKey(g.server, g.conversationId);
      const c = fresh.get(k);
      fresh.delete(k);
      return c ? { ...g, conversation: c } : g;
    });
    for (const c of fresh.values()) {
      merged.push({ server: c.server, conversationId: c.id, conversation: c, items: [] });
    }
    return merged;
  }

  /** One conversation's group by `conversationKey`, or undefined when nothing of it is visible. */
  group(key: string): ConversationGroup | undefined {
    if (!this._index) {
      this._index = new Map(this.groups().map((g) => [conversationKey(g.server, g.conversationId), g]));
    }
    return this._index.get(key);
  }

  dispose(): void {
    this._subscription.dispose();
    this.invalidate();
  }
}
