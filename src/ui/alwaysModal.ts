/**
 * "Always", honest (issue 20): before a rule is kept, the exact rule in the form it will be stored (editable), a dry
 * run of it over the approval history, and the waiting requests it covers now, which the confirmation answers too,
 * each with its own allow-once option, through the inbox's guard (the answer flow). Nothing is kept and nothing is
 * sent before the confirmation; Cancel keeps nothing and sends nothing.
 *
 * It runs in dist/localui.js (from src/localui/grantPicks.ts), while the history and the inbox live in the main
 * bundle: it reaches them through two internal commands that src/ui/policyFeature.ts registers.
 */
import * as vscode from 'vscode';
import { coveredNow, dryRun, type DryRun } from '../domain/dryRun';
import { parseRule, ruleCovers, type MatchSubject } from '../domain/dryRunMatch';
import { ALWAYS_CONTEXT_COMMAND, ANSWER_WAITING_COMMAND, type AlwaysContext, type WaitingInfo } from './alwaysContext';
import { inertLine } from './display';

export interface AlwaysRequest {
  /** The rule proposed, as it would be stored. */
  readonly rule: string;
  readonly setting: string;
  /** The request id of the request being answered (not listed among the others). */
  readonly requestId: string;
  /** What this request is, to check that an edited rule still covers it. */
  readonly subject: MatchSubject;
  readonly roots: readonly string[];
  readonly optionName: string;
}

export type AlwaysDecision =
  | { readonly kind: 'cancel' }
  | { readonly kind: 'keep'; readonly rule: string; readonly alsoAnswer: readonly WaitingInfo[] };

const MAX_LISTED = 8;

const when = (ms: number) => new Date(ms).toLocaleString();

/** The modal's lines for a dry run: the sentence, then each past request it would have allowed. */
export function dryRunLines(r: DryRun): string[] {
  const out = [
    r.hits.length === 0
      ? vscode.l10n.t('Dry run: it would have allowed none of your past requests ({0} checked).', r.checked)
      : vscode.l10n.t(
          'Dry run: it would have allowed {0} past requests in {1} conversations; {2} of them you rejected.',
          r.hits.length,
          r.conversations,
          r.rejected,
        ),
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
    out.push(vscode.l10n.t('{0} past requests could not be checked: their text was not kept.', r.unchecked));
  }
  return out;
}

/** Asks for the rule (editable), then shows what it means and asks for the one confirmation. */
export async function confirmAlways(req: AlwaysRequest): Promise<AlwaysDecision> {
  const rule = await vscode.window.showInputBox({
    title: vscode.l10n.t('Always allow: the rule, as it will be stored in {0}', req.setting),
    value: req.rule,
    prompt: vscode.l10n.t('Edit it if it is broader or narrower than you mean; nothing is kept yet.'),
    ignoreFocusOut: true,
    validateInput: (v) => {
      const p = parseRule(v.trim());
      if (!p.ok) {
        return p.problem;
      }
      return ruleCovers(p.rule, req.subject, req.roots)
        ? undefined
        : vscode.l10n.t('This rule does not cover the request you are answering.');
    },
  });
  if (rule === undefined) {
    return { kind: 'cancel' };
  }
  const stored = rule.trim();
  const parsed = parseRule(stored);
  if (!parsed.ok) {
    return { kind: 'cancel' };
  }
  const ctx = (await vscode.commands.executeCommand<AlwaysContext | undefined>(ALWAYS_CONTEXT_COMMAND)) ?? {
    history: [],
    waiting: [],
  };
  const isLocal = (s: string) => s.startsWith('local:');
  const run = dryRun(parsed.rule, ctx.history, { roots: req.roots, source: isLocal });
  const others = ctx.waiting.filter(
    (w) => w.requestId !== req.requestId && isLocal(w.server) && w.allowOnce !== undefined,
  );
  const covered = coveredNow(
    parsed.rule,
    others.map((w) => ({ value: w, subject: w.subject })),
    req.roots,
  );
  const lines = [
    vscode.l10n.t('Stored in your user setting {0} as:', req.setting),
    `  ${inertLine(stored, 200)}`,
    vscode.l10n.t(
      'Every local agent session then runs matching requests without asking, until you remove it. This request is answered with the agent\'s option "{0}".',
      req.optionName,
    ),
    '',
    ...dryRunLines(run),
  ];
  if (covered.length > 0) {
    lines.push(
      '',
      vscode.l10n.t('{0} other waiting requests it covers now, answered too when you confirm:', covered.length),
    );
    for (const w of covered.slice(0, MAX_LISTED)) {
      lines.push(
        vscode.l10n.t('  • {0} → "{1}" (allow once)', inertLine(w.label, 80), inertLine(w.allowOnce?.name ?? '?', 40)),
      );
    }
  }
  const keep = vscode.l10n.t('Keep Rule and Allow');
  const keepAll = vscode.l10n.t('Keep Rule, Allow This and {0} Waiting', covered.length);
  const buttons = covered.length > 0 ? [keepAll, keep] : [keep];
  const pick = await vscode.window.showWarningMessage(
    vscode.l10n.t('Always allow "{0}"?', inertLine(stored, 120)),
    { modal: true, detail: lines.join('\n') },
    ...buttons,
  );
  if (pick === keepAll) {
    return { kind: 'keep', rule: stored, alsoAnswer: covered };
  }
  return pick === keep ? { kind: 'keep', rule: stored, alsoAnswer: [] } : { kind: 'cancel' };
}

/** Answers each covered request with its own allow-once option, through the inbox's guard; how many took. */
export async function answerCovered(list: readonly WaitingInfo[]): Promise<number> {
  let n = 0;
  for (const w of list) {
    if (w.allowOnce && (await vscode.commands.executeCommand(ANSWER_WAITING_COMMAND, w.id, w.allowOnce.optionId))) {
      n++;
    }
  }
  return n;
}
