/**
 * The main bundle's side of the honest "always" (src/ui/alwaysModal.ts runs in dist/localui.js): two internal
 * commands, one handing over the approval history and the waiting requests (as plain data), one answering a waiting
 * request through the answer flow, so the inbox's guard decides ("only offered, one in flight, never twice").
 */
import * as vscode from 'vscode';
import { commandOf } from '../domain/requestLabel';
import type { HistoryLog } from '../domain/history';
import type { Inbox, InboxItem } from '../domain/inbox';
import type { AnswerFlow } from './answerFlow';
import type { MatchSubject } from '../domain/dryRunMatch';
import type { HistoryEntry } from '../domain/history';

export const ALWAYS_CONTEXT_COMMAND = 'fountain.internal.alwaysContext';
export const ANSWER_WAITING_COMMAND = 'fountain.internal.answerWaiting';

/** A waiting request as the main bundle hands it over. */
export interface WaitingInfo {
  readonly id: string;
  readonly server: string;
  readonly requestId: string;
  readonly label: string;
  readonly subject: MatchSubject;
  /** The request's own allow-once option, when it offers one. */
  readonly allowOnce?: { readonly optionId: string; readonly name: string };
}

export interface AlwaysContext {
  readonly history: readonly HistoryEntry[];
  readonly waiting: readonly WaitingInfo[];
}

function waitingInfo(item: InboxItem): WaitingInfo {
  const r = item.request;
  const command = commandOf(r);
  const paths = [...new Set([...r.diffs.map((d) => d.path), ...r.locations.map((l) => l.path)])];
  const allow = r.options.find((o) => o.kind === 'allow_once');
  return {
    id: item.id,
    server: item.key.server,
    requestId: item.key.requestId,
    label: item.label,
    subject: {
      ...(r.kind !== undefined ? { kind: r.kind } : {}),
      ...(command !== undefined ? { command } : paths.length ? { paths } : { text: item.label }),
    },
    ...(allow ? { allowOnce: { optionId: allow.optionId, name: allow.name } } : {}),
  };
}

export function registerAlwaysCommands(inbox: Inbox, history: HistoryLog, flow: AnswerFlow): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand(ALWAYS_CONTEXT_COMMAND, (): AlwaysContext => ({
      history: history.entries(),
      waiting: inbox.open().map(waitingInfo),
    })),
    vscode.commands.registerCommand(ANSWER_WAITING_COMMAND, async (id: unknown, optionId: unknown) => {
      if (typeof id !== 'string' || typeof optionId !== 'string') {
        return false;
      }
      return (await flow.answer(id, optionId, 'details'))?.kind === 'answered';
    }),
  ];
}
