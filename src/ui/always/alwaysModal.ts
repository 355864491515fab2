/**
 * "Always", honest (issue 20): before a rule is kept, the exact rule in the form it will be stored (editable), a dry
 * run of it over the approval history, and the waiting requests it covers now, which the confirmation answers too,
 * each with its own allow-once option, through the inbox's guard (the answer flow). Nothing is kept and nothing is
 * sent before the confirmation; Cancel keeps nothing and sends nothing. Requests marked dangerous are never listed.
 *
 * It also runs in dist/localui.js (src/ui/local/grantPicks.ts, gateCommands.ts) and dist/policyEditor.js, while the
 * history and the inbox live in the main bundle: it reaches them through the {@link WaitingRequests} the composition
 * root hands those bundles (src/ui/always/alwaysContext.ts), never through a command another extension could run.
 */
import * as vscode from 'vscode';
import { Counted } from '../plainWords';
import { dryRun, type DryRun, type DryRunScope, type EntryCovers } from '../../domain/dryRun';
import type { AlwaysContext, WaitingInfo, WaitingRequests } from './alwaysContext';
import { inertLine } from '../display';

/** What a rule covers: past requests (the dry run) and waiting ones. */
export interface RuleMatcher {
  readonly entry: EntryCovers;
  readonly waiting: (w: WaitingInfo) => boolean;
}

export interface AlwaysRequest {
  /** The rule proposed, as it would be stored. */
  readonly rule: string;
  readonly setting: string;
  /** The request being answered (not listed among the others), when there is one. */
  readonly requestId?: string;
  /** The option that answers it. */
  readonly optionName?: string;
  /** A problem with an edited rule (it does not parse, or no longer covers the request), else its warnings. */
  readonly check: (rule: string) => { readonly problem: string } | { readonly warnings: readonly string[] };
  readonly matcher: (rule: string) => RuleMatcher;
  readonly scope: DryRunScope;
}

export type AlwaysDecision =
  | { readonly kind: 'cancel' }
  | { readonly kind: 'keep'; readonly rule: string; readonly alsoAnswer: readonly WaitingInfo[] };

export interface AlwaysReview {
  readonly run: DryRun;
  readonly covered: readonly WaitingInfo[];
  readonly warnings: readonly string[];
}

const MAX_LISTED = 8;

const when = (ms: number) => new Date(ms).toLocaleString();

/** The modal's lines for a dry run: the sentence, then each past request it would have allowed. */
export function dryRunLines(r: DryRun): string[] {
  const out = [
    r.hits.length === 0
      ? vscode.l10n.t('Dry run: it would have allowed none of your past requests ({0} checked).', r.checked)
      : dryRunSentence(r.hits.length, r.conversations, r.rejected),
  ];
  for (const h of r.hits.slice(0, MAX_LISTED)) {
    const what = inertLine(h.entry.label ?? '?', 80);
    out.push(
      h.rejected
        ? vscode.l10n.t('  • {0} — {1} (you rejected it)', when(h.entry.at), what)
        : vscode.l10n.t('  • {0} — {1} ({2})', when(h.entry.at), what, inertLine(h.entry.optionKind ?? '?', 20)),
    );
  }
  if (r.hits.length > MAX_LISTED) {
    out.push(vscode.l10n.t('  …and {0} more', r.hits.length - MAX_LISTED));
  }
  if (r.unchecked > 0) {
    out.push(
      r.unchecked === 1
        ? vscode.l10n.t('1 past request could not be checked: its text was not kept.')
        : vscode.l10n.t('{0} past requests could not be checked: their text was not kept.', r.unchecked),
    );
  }
  return out;
}

/** "it would have allowed 3 past requests in 2 conversations, …": each count in its own form. */
function dryRunSentence(hits: number, conversations: number, rejected: number): string {
  const requests = Counted.pastRequests(hits);
  const where = Counted.conversations(conversations);
  if (rejected === 0) {
    return vscode.l10n.t('Dry run: it would have allowed {0} in {1}, none of which you rejected.', requests, where);
  }
  if (hits === 1) {
    return vscode.l10n.t('Dry run: it would have allowed {0} in {1}, and you rejected it.', requests, where);
  }
  return vscode.l10n.t(
    'Dry run: it would have allowed {0} in {1}; you rejected {2} of them.',
    requests,
    where,
    rejected,
  );
}

/**
 * The lines naming the waiting requests the confirmation answers (none: no lines); `other`: besides the request
 * being answered.
 */
export function coveredLines(covered: readonly WaitingInfo[], other = true): string[] {
  if (covered.length === 0) {
    return [];
  }
  const out = [
    other
      ? vscode.l10n.t('It covers {0} now, answered when you confirm:', Counted.otherWaitingRequests(covered.length))
      : vscode.l10n.t('It would allow {0} now, answered when you confirm:', Counted.waitingRequests(covered.length)),
  ];
  for (const w of covered.slice(0, MAX_LISTED)) {
    out.push(
      vscode.l10n.t('  • {0} → "{1}" (allow once)', inertLine(w.label, 80), inertLine(w.allowOnce?.name ?? '?', 40)),
    );
  }
  if (covered.length > MAX_LISTED) {
    out.push(vscode.l10n.t('  …and {0} more', covered.length - MAX_LISTED));
  }
  return out;
}

/** The waiting requests a matcher covers: answerable with their own allow-once, not dangerous, not `except`. */
export function coveredWaiting(ctx: AlwaysContext, m: RuleMatcher, except?: string): WaitingInfo[] {
  return ctx.waiting.filter((w) => w.requestId !== except && w.allowOnce !== undefined && !w.dangerous && m.waiting(w));
}

/** The dry run and the covered waiting requests of `rule`. */
export function reviewRule(waiting: WaitingRequests, req: AlwaysRequest, rule: string): AlwaysReview {
  const ctx = waiting.context();
  const m = req.matcher(rule);
  const c = req.check(rule);
  return {
    run: dryRun(ctx.history, m.entry, req.scope),
    covered: coveredWaiting(ctx, m, req.requestId),
    warnings: 'warnings' in c ? c.warnings : [],
  };
}

/** The rule, editable, as it will be stored; undefined when cancelled. */
export async function editRule(req: AlwaysRequest): Promise<string | undefined> {
  const rule = await vscode.window.showInputBox({
    title: vscode.l10n.t('Always allow: the rule, as it will be stored in {0}', req.setting),
    value: req.rule,
    prompt: vscode.l10n.t('Edit it if it is broader or narrower than you mean; nothing is kept yet.'),
    ignoreFocusOut: true,
    validateInput: (v) => {
      const c = req.check(v.trim());
      return 'problem' in c ? inertLine(c.problem, 300) : undefined;
    },
  });
  const stored = rule?.trim();
  return stored === undefined || 'problem' in req.check(stored) ? undefined : stored;
}

/** The modal's detail: where it is stored, what it would have done, what the confirmation answers. */
export function reviewDetail(req: AlwaysRequest, rule: string, review: AlwaysReview): string {
  const lines = [vscode.l10n.t('Stored in your user setting {0} as:', req.setting), `  ${inertLine(rule, 200)}`];
  lines.push(
    req.optionName !== undefined
      ? vscode.l10n.t(
          'Every local agent session then runs matching requests without asking, until you remove it. This request is answered with the agent\'s option "{0}".',
          req.optionName,
        )
      : vscode.l10n.t('Every local agent session then runs matching requests without asking, until you remove it.'),
  );
  lines.push(...review.warnings.map((w) => vscode.l10n.t('Note: {0}', inertLine(w, 300))));
  lines.push('', ...dryRunLines(review.run));
  const covered = coveredLines(review.covered);
  if (covered.length > 0) {
    lines.push('', ...covered);
  }
  return lines.join('\n');
}

/** Asks for the rule (editable), then shows what it means and asks for the one confirmation. */
export async function confirmAlways(waiting: WaitingRequests, req: AlwaysRequest): Promise<AlwaysDecision> {
  const stored = await editRule(req);
  if (stored === undefined) {
    return { kind: 'cancel' };
  }
  const review = reviewRule(waiting, req, stored);
  const keep = vscode.l10n.t('Keep Rule and Allow');
  const keepAll = vscode.l10n.t('Keep Rule, Allow This and {0} Waiting', review.covered.length);
  const buttons = review.covered.length > 0 ? [keepAll, keep] : [keep];
  const pick = await vscode.window.showWarningMessage(
    vscode.l10n.t('Always allow "{0}"?', inertLine(stored, 120)),
    { modal: true, detail: reviewDetail(req, stored, review) },
    ...buttons,
  );
  if (pick === keepAll) {
    return { kind: 'keep', rule: stored, alsoAnswer: review.covered };
  }
  return pick === keep ? { kind: 'keep', rule: stored, alsoAnswer: [] } : { kind: 'cancel' };
}

/** Answers each covered request with its own allow-once option, through the inbox's guard; how many took. */
export async function answerCovered(waiting: WaitingRequests, list: readonly WaitingInfo[]): Promise<number> {
  let n = 0;
  for (const w of list) {
    if (w.allowOnce && (await waiting.answer(w.id, w.allowOnce.optionId))) {
      n++;
    }
  }
  return n;
}
