/**
 * The Pending Approvals tree's render, as VS Code asks for it: the root's children, then every conversation's
 * children and tree item, then every request's tree item. Run through the pure part of the provider
 * (src/domain/treeModel.ts and the display helpers the tree items use); the baseline is the algorithm before
 * issue 9 item 12, which grouped the whole inbox again for every conversation ask, measured in the same run.
 */
import { performance } from 'node:perf_hooks';
import { Inbox } from '../../src/domain/inbox';
import { formatCountdown } from '../../src/domain/inertText';
import type { ConversationGroup } from '../../src/domain/inbox';
import { conversationKey, TreeModel } from '../../src/domain/treeModel';
import { inertBlockShort, inertLabel, inertLine } from '../../src/ui/display';

export const TREE_REQUESTS = 10_000;
export const TREE_CONVERSATIONS = 1_000;
const SERVER = 'https://f.example';
export const NOW = 1_800_000_000_000;

export function filledInbox(inbox: Inbox = new Inbox({ now: () => NOW })): Inbox {
  for (let c = 0; c < TREE_CONVERSATIONS; c++) {
    inbox.apply({
      type: 'conversation',
      conversation: { server: SERVER, id: `conv-${c}`, title: `Conversation ${c}`, agentName: 'Claude Code' },
    });
  }
  for (let i = 0; i < TREE_REQUESTS; i++) {
    const conversationId = `conv-${i % TREE_CONVERSATIONS}`;
    inbox.apply({
      type: 'requestOpened',
      source: 'live',
      request: {
        key: { server: SERVER, conversationId, requestId: `${i}.${i.toString(16).padStart(16, '0')}` },
        name: 'Bash',
        title: `touch file-${i}.txt && echo created`,
        kind: 'execute',
        textContent: [],
        diffs: [],
        locations: [],
        options: [
          { optionId: 'allow', name: 'Allow', kind: 'allow_once' },
          { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
        ],
        detached: false,
        askedAt: NOW - (TREE_REQUESTS - i) * 10,
      },
    });
  }
  return inbox;
}

/** The text work of one conversation row and one request row (what getTreeItem builds besides VS Code objects). */
function conversationItem(g: ConversationGroup | undefined): number {
  if (!g) {
    return 0;
  }
  const c = g.conversation;
  const label = inertLabel(c.title || c.id, 60).text;
  const waiting = g.items.filter((i) => i.pending).length;
  return (
    label.length + inertLine(c.agentName ?? '').length + waiting + inertBlockShort(c.title ?? '', 2000).text.length
  );
}

function requestItem(inbox: Inbox, id: string): number {
  const item = inbox.get(id);
  if (!item) {
    return 0;
  }
  const label = inertLabel(item.label, 80).text;
  const state = item.deadline !== undefined ? formatCountdown(item.deadline - NOW).text : '';
  const tooltip = inertBlockShort(item.label, 2000).text;
  return label.length + state.length + tooltip.length + inertLine(item.request.kind ?? '').length;
}

/** One full render with the grouping given; returns the number of rows drawn. */
function render(
  inbox: Inbox,
  roots: () => readonly ConversationGroup[],
  group: (key: string) => ConversationGroup | undefined,
): number {
  let rows = 0;
  let sink = 0;
  for (const root of roots()) {
    const key = conversationKey(root.server, root.conversationId);
    const children = group(key)?.items ?? []; // getChildren(conversation)
    sink += conversationItem(group(key)); // getTreeItem(conversation)
    rows++;
    for (const item of children) {
      sink += requestItem(inbox, item.id); // getTreeItem(request)
      rows++;
    }
  }
  if (sink === 0) {
    throw new Error('nothing rendered');
  }
  return rows;
}

export interface TreeBench {
  readonly rows: number;
  readonly oldMs: number;
  readonly newMs: number;
}

export function treeRenderBench(): TreeBench {
  const inbox = filledInbox();
  const model = new TreeModel(inbox);
  const byKey = (groups: readonly ConversationGroup[], key: string) =>
    groups.find((g) => conversationKey(g.server, g.conversationId) === key);
  const timed = (fn: () => number): { ms: number; rows: number } => {
    const t0 = performance.now();
    const rows = fn();
    return { ms: performance.now() - t0, rows };
  };
  // Before: every conversation ask grouped (and sorted) the whole inbox again, then searched it.
  const old = timed(() =>
    render(
      inbox,
      () => inbox.byConversation(),
      (key) => byKey(inbox.byConversation(), key),
    ),
  );
  // Now: one grouping per inbox change; each render after a change starts cold (invalidate), best of 5.
  let newMs = Infinity;
  let rows = 0;
  for (let i = 0; i < 5; i++) {
    model.invalidate();
    const r = timed(() =>
      render(
        inbox,
        () => model.groups(),
        (key) => model.group(key),
      ),
    );
    newMs = Math.min(newMs, r.ms);
    rows = r.rows;
  }
  if (rows !== old.rows || rows !== TREE_REQUESTS + TREE_CONVERSATIONS) {
    throw new Error(`tree bench drew ${rows} rows, the baseline ${old.rows}`);
  }
  model.dispose();
  return { rows, oldMs: old.ms, newMs };
}
