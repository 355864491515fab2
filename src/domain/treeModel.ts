/**
 * What the Pending Approvals tree shows: conversations (ordered by their most urgent waiting request) and their
 * requests (waiting ones by nearest deadline, src/domain/urgency.ts), with an index by conversation key. VS Code
 * asks for every conversation's children and tree item separately; grouping the whole inbox for each of those asks
 * made one render of 10,000 requests in 1,000 conversations take seconds. Here the grouping is kept between inbox
 * changes and a change regroups only the conversations it touched (then the conversations are put in order again,
 * a sort of the groups, not of the requests): the result is the same as grouping the whole inbox again.
 */
import type { IDisposable } from '../util/lifecycle';
import { byAge } from './inboxItem';
import type { ConversationGroup, Inbox, InboxItem } from './inbox';
import { conversationOfId, type ConversationInfo } from './model';
import { byUrgency, byUrgencyGroups } from './urgency';

/** The key of a conversation across servers (the tree's conversation element id). */
export function conversationKey(server: string, conversationId: string): string {
  return JSON.stringify([server, conversationId]);
}

/** One conversation's group in the tree's order, with what orders the conversations. */
interface Ordered {
  readonly group: ConversationGroup;
  /** Its most urgent waiting request. */
  readonly first: InboxItem | undefined;
  /** Its oldest request. */
  readonly oldest: InboxItem;
}

/**
 * The order of byUrgencyGroups over the inbox's grouping (groups in the order of their oldest request): by the most
 * urgent waiting request, those with nothing waiting after, in the order of their oldest request.
 */
function byGroupUrgency(a: Ordered, b: Ordered): number {
  if (a.first && b.first) {
    return byUrgency(a.first, b.first);
  }
  if (a.first || b.first) {
    return a.first ? -1 : 1;
  }
  return byAge(a.oldest, b.oldest);
}

function ordered(items: InboxItem[]): Ordered {
  items.sort(byAge);
  const [group] = byUrgencyGroups([
    {
      server: items[0].key.server,
      conversationId: items[0].key.conversationId,
      conversation: items[0].conversation,
      items,
    },
  ]);
  return { group, first: group.items[0].pending ? group.items[0] : undefined, oldest: items[0] };
}

export class TreeModel implements IDisposable {
  private _groups: readonly ConversationGroup[] | undefined;
  private _index: Map<string, ConversationGroup> | undefined;
  private readonly _subscription: IDisposable;
  private _listed: () => readonly ConversationInfo[] = () => [];
  /** Item ids by conversation key (an item's conversation is in its id: src/domain/model.ts keyId). */
  private readonly _members = new Map<string, Set<string>>();
  /** Each conversation's group, made when it last changed. */
  private readonly _ordered = new Map<string, Ordered>();
  /** Conversations to group again; `_whole` when the whole inbox must be read again. */
  private readonly _dirty = new Set<string>();
  private _whole = true;

  constructor(private readonly inbox: Pick<Inbox, 'all' | 'get' | 'onDidChangeItems'>) {
    this._subscription = inbox.onDidChangeItems((change) => this.changed(change.ids));
  }

  /** Forgets the grouping; the next ask groups the whole inbox again. */
  invalidate(): void {
    this._whole = true;
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
   * oldest first), then the listed ones with none. The same array until something changes; a group object that did
   * not change stays the same object.
   */
  groups(): readonly ConversationGroup[] {
    if (!this._groups) {
      this.regroup();
      this._groups = this.merge([...this._ordered.values()].sort(byGroupUrgency).map((o) => o.group));
    }
    return this._groups;
  }

  /** The items with these ids changed (opened, changed or gone): their conversations are grouped again. */
  private changed(ids: readonly string[]): void {
    this._groups = undefined;
    this._index = undefined;
    if (this._whole) {
      return;
    }
    for (const id of ids) {
      const c = conversationOfId(id);
      const k = conversationKey(c.server, c.conversationId);
      this._members.get(k)?.delete(id);
      this._dirty.add(k);
      const item = this.inbox.get(id);
      if (item) {
        this.add(item);
      }
    }
  }

  private add(item: InboxItem): void {
    const k = conversationKey(item.key.server, item.key.conversationId);
    let members = this._members.get(k);
    if (!members) {
      members = new Set();
      this._members.set(k, members);
    }
    members.add(item.id);
    this._dirty.add(k);
  }

  private regroup(): void {
    if (this._whole) {
      this._whole = false;
      this._members.clear();
      this._ordered.clear();
      this._dirty.clear();
      for (const item of this.inbox.all()) {
        this.add(item);
      }
    }
    for (const k of this._dirty) {
      const items = [...(this._members.get(k) ?? [])].flatMap((id) => this.inbox.get(id) ?? []);
      if (items.length) {
        this._ordered.set(k, ordered(items));
      } else {
        this._ordered.delete(k);
        this._members.delete(k);
      }
    }
    this._dirty.clear();
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
