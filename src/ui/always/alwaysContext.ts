/**
 * The main bundle's side of the honest "always" (src/ui/always/alwaysModal.ts also runs in dist/localui.js and
 * dist/policyEditor.js): the approval history and the waiting requests as plain data, and answering a waiting request
 * through the answer flow, so the inbox's guard decides ("only offered, one in flight, never twice"). The composition
 * root hands this object to the lazily loaded bundles as a parameter. It is never a command: any extension in the
 * host can run a command, and none may answer a request or read the history.
 */
import type { HistoryEntry, HistoryLog } from '../../domain/history';
import type { Inbox, InboxItem } from '../../domain/inbox';
import type { ToolCallLike } from '../../policy';
import type { AnswerFlow } from '../answer/answerFlow';

/** A waiting request as the main bundle hands it over. */
export interface WaitingInfo {
  readonly id: string;
  readonly server: string;
  readonly conversationId: string;
  readonly requestId: string;
  readonly agentId?: string;
  readonly label: string;
  readonly kind?: string;
  /** The tool call as the gate reads it (kind, title, rawInput, locations, diffs as content). */
  readonly toolCall: ToolCallLike;
  /** Marked dangerous (the denylist): never answered by an "always" confirmation. */
  readonly dangerous: boolean;
  /** The request's own allow-once option, when it offers one. */
  readonly allowOnce?: { readonly optionId: string; readonly name: string };
}

export interface AlwaysContext {
  readonly history: readonly HistoryEntry[];
  readonly waiting: readonly WaitingInfo[];
}

export function waitingInfo(item: InboxItem): WaitingInfo {
  const r = item.request;
  const allow = r.options.find((o) => o.kind === 'allow_once');
  const agentId = item.conversation.agentId;
  return {
    id: item.id,
    server: item.key.server,
    conversationId: item.key.conversationId,
    requestId: item.key.requestId,
    ...(agentId !== undefined ? { agentId } : {}),
    label: item.label,
    ...(r.kind !== undefined ? { kind: r.kind } : {}),
    toolCall: {
      kind: r.kind,
      title: r.title,
      rawInput: r.rawInput,
      locations: r.locations.map((l) => ({ path: l.path })),
      content: r.diffs.map((d) => ({ type: 'diff', path: d.path })),
    },
    dangerous: item.danger !== undefined,
    ...(allow ? { allowOnce: { optionId: allow.optionId, name: allow.name } } : {}),
  };
}

/** The answerable requests now, as plain data. */
export function waitingNow(inbox: Inbox): WaitingInfo[] {
  return inbox
    .open()
    .filter((i) => i.answerable)
    .map(waitingInfo);
}

/** What an "always" confirmation reads and answers, handed from the composition root to the bundles that ask. */
export interface WaitingRequests {
  /** The approval history and the answerable requests now. */
  context(): AlwaysContext;
  /** Answers waiting request `id` with `optionId` through the answer flow; true when the runtime got it. */
  answer(id: string, optionId: string): Promise<boolean>;
}

export function waitingRequests(inbox: Inbox, history: HistoryLog, flow: AnswerFlow): WaitingRequests {
  return {
    context: () => ({ history: history.entries(), waiting: waitingNow(inbox) }),
    answer: async (id, optionId) => (await flow.answer(id, optionId, 'details'))?.kind === 'answered',
  };
}
