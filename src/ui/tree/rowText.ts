/**
 * The state text of a request row in the Pending Approvals tree ("4:59 left", "answered elsewhere: Reject · 12
 * seconds ago", "4:12 left · Allow not taken: the account is out of credits · Retry after 10:31:07"), from the
 * row's state as data (src/domain/rowStatus.ts). Agent text (option names) goes in inert.
 */
import * as vscode from 'vscode';
import type { InboxItem } from '../../domain/inbox';
import { AGENT_EXITED } from '../../domain/model';
import { rowStatus } from '../../domain/rowStatus';
import { inertLine } from '../display';
import { Strings, TreeStrings } from '../strings';
import { Time } from '../time';

export const RowStrings = {
  answeredElsewhere: (option: string, ago: string) => vscode.l10n.t('answered elsewhere: {0} · {1}', option, ago),
  answeredElsewhereNoOption: (ago: string) => vscode.l10n.t('answered elsewhere · {0}', ago),
  notTaken: (option: string, why: string) => vscode.l10n.t('{0} not taken: {1}', option, why),
  retryAfter: (time: string) => vscode.l10n.t('Retry after {0}', time),
  retryNow: vscode.l10n.t('Retry sends it again'),
};

/**
 * "4:59 left" by the whole seconds left (all the countdown shows: src/domain/inertText.ts formatCountdown), made once
 * each: a tree of 10,000 rows shows a few hundred different ones.
 */
const leftTexts = new Map<number, string>();

function leftText(leftMs: number): string {
  const seconds = leftMs <= 0 ? 0 : Math.ceil(leftMs / 1000);
  let text = leftTexts.get(seconds);
  if (text === undefined) {
    if (leftTexts.size >= 4096) {
      leftTexts.clear();
    }
    text = TreeStrings.left(Time.left(seconds * 1000));
    leftTexts.set(seconds, text);
  }
  return text;
}

/** The row's state text at `now` (epoch ms). */
export function rowStateText(item: InboxItem, now: number): string {
  if (item.state.kind === 'open') {
    return item.deadline !== undefined ? leftText(item.deadline - now) : ''; // most rows: no status object made
  }
  const s = rowStatus(item, now);
  const left = 'leftMs' in s && s.leftMs !== undefined ? leftText(s.leftMs) : '';
  switch (s.kind) {
    case 'open':
      return left;
    case 'answering':
      return TreeStrings.answering;
    case 'leftOpen': {
      const retry =
        s.retryAt && s.retryAt > now ? RowStrings.retryAfter(Time.timeOfDay(s.retryAt)) : RowStrings.retryNow;
      const why = RowStrings.notTaken(inertLine(s.option, 60), Strings.leftOpenReason(s.reason));
      return [left, why, retry].filter(Boolean).join(' · ');
    }
    case 'answeredByYou':
      return TreeStrings.answeredByYou(inertLine(s.option, 60));
    case 'resolvedElsewhere':
      return s.option !== undefined
        ? RowStrings.answeredElsewhere(inertLine(s.option, 60), Time.ago(s.agoMs))
        : RowStrings.answeredElsewhereNoOption(Time.ago(s.agoMs));
    case 'expired':
      return TreeStrings.expired;
    case 'turnEnded':
      return TreeStrings.turnEnded;
    case 'conversationEnded':
      return s.reason === AGENT_EXITED ? TreeStrings.agentExited : TreeStrings.conversationEnded;
    case 'noLongerWaiting':
      return s.cause === 'withdrawn' ? TreeStrings.withdrawn : TreeStrings.noLongerWaiting;
  }
}
