/**
 * The main bundle's side of the honest "always" (src/ui/alwaysModal.ts also runs in dist/localui.js): two internal
 * commands, one handing over the approval history and the waiting requests (as plain data), one answering a waiting
 * request through the answer flow, so the inbox's guard decides ("only offered, one in flight, never twice").
 */
import * as vscode from 'vscode';
import type { HistoryEntry, HistoryLog } from '../domain/history';
import type { Inbox, InboxItem } from '../domain/inbox';
import type { ToolCallLike } from '../policy';
import type { AnswerFlow } from './answerFlow';

export const ALWAYS_CONTEXT_COMMAND = 'fountain.internal.alwaysContext';
export const ANSWER_WAITING_COMMAND = 'fountain.internal.answerWaiting';

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

export function registerAlwaysCommands(inbox: Inbox, history: HistoryLog, flow: AnswerFlow): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand(ALWAYS_CONTEXT_COMMAND, (): AlwaysContext => ({
      history: history.entries(),
      waiting: waitingNow(inbox),
    })),
    vscode.commands.registerCommand(ANSWER_WAITING_COMMAND, async (id: unknown, optionId: unknown) => {
      if (typeof id !== 'string' || typeof optionId !== 'string') {
        return false;
      }
      return (await flow.answer(id, optionId, 'details'))?.kind === 'answered';
    }),
  ];
}
