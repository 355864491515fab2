/**
 * What the Pending Approvals tree shows, grouped once per inbox change: conversations (ordered by their oldest item)
 * and their requests (oldest first), with an index by conversation key. VS Code asks for every conversation's
 * children and tree item separately; grouping the whole inbox for each of those asks made one render of 10,000
 * requests in 1,000 conversations take seconds. Here a render groups once and every later ask is a map look-up.
 */
import type { IDisposable } from '../util/lifecycle';
import type { ConversationGroup, Inbox } from './inbox';

/** The key of a conversation across servers (the tree's conversation element id). */
export function conversationKey(server: string, conversationId: string): string {
  return JSON.stringify([server, conversationId]);
}

export class TreeModel implements IDisposable {
  private _groups: readonly ConversationGroup[] | undefined;
  private _index: Map<string, ConversationGroup> | undefined;
  private readonly _subscription: IDisposable;

  constructor(private readonly inbox: Pick<Inbox, 'byConversation' | 'onDidChangeItems'>) {
    this._subscription = inbox.onDidChangeItems(() => this.invalidate());
  }

  /** Forgets the grouping; the next ask groups the inbox again. Called on every inbox change. */
  invalidate(): void {
    this._groups = undefined;
    this._index = undefined;
  }

  /** Conversations with visible items, ordered by their oldest item. */
  groups(): readonly ConversationGroup[] {
    this._groups ??= this.inbox.byConversation();
    return this._groups;
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
