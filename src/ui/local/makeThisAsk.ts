/**
 * Make This Ask, on a decision made without you (the History view's "Decided without you"): removes or narrows the
 * rule that decided it, after the same kind of confirmation as every other rule edit: where the rule is set, the
 * setting's value before and after, what the gate would do with this call afterwards, and a dry run over the recorded
 * decisions (src/domain/decidedRules.ts dryRunRemoval, decided by the gate itself). Nothing changes before the
 * confirmation.
 * - an entry of fountain.local.allow / deny: removed from your user setting;
 * - a bundle: read_only turns fountain.local.builtinAllow off (every bundle), another leaves builtinAllowExtras;
 * - a session grant: revoked (while the session runs);
 * - a policy key: set to "ask" in the agent's fountain.localAgents entry (a preset has none: it is explained);
 * - a mode: the session goes back to ask (while it runs); plan first: fountain.local.requirePlan off.
 * The built-in denylist and the gate's own reads inside the workspace are never offered.
 */
import * as os from 'node:os';
import * as vscode from 'vscode';
import type { DecidedEntry, DecidingRule } from '../../domain/decidedLog';
import type { DryRun } from '../../domain/dryRun';
import { dryRunRemoval, replayWithout, requestOfEntry, type GateSnapshot } from '../../domain/decidedRules';
import { GATE_MODES } from '../../policy';
import { LOCAL_SECTION, readLocalGateSettings, workspaceRoots } from '../../platform/localGateSettings';
import { inertLine, pickText } from '../display';
import { decidedSubject, DecidedStrings } from '../history/decidedStrings';
import { Time } from '../time';
import type { DecidedRecorder } from './decidedRecorder';
import type { LocalSessionManager, ManagedSession } from './manager';
import { MakeAskStrings as S } from './makeThisAskStrings';

/** What a confirmed change does, and how it reads in the confirmation. */
interface Change {
  /** Where the rule is set and its value before → after (plain text, already inert). */
  readonly detail: string;
  readonly apply: () => Thenable<void> | void;
  /** Only this session's decisions are replayed (a grant, a mode), or this agent's (a policy key). */
  readonly scope?: { readonly session?: string; readonly agent?: string };
}

export type MakeAskResult =
  | { readonly kind: 'none'; readonly message: string }
  | { readonly kind: 'cancelled' }
  | { readonly kind: 'changed'; readonly rule: DecidingRule };

export interface MakeAskDeps {
  readonly manager: LocalSessionManager;
  readonly recorder: DecidedRecorder;
  readonly log: { info(m: string): void };
}

const MAX_LISTED = 8;
const show = (v: unknown) => inertLine(JSON.stringify(v), 4000);

function userList(key: string): string[] {
  const v = vscode.workspace.getConfiguration(LOCAL_SECTION).inspect<unknown>(key)?.globalValue;
  return Array.isArray(v) ? v.filter((p): p is string => typeof p === 'string') : [];
}

async function updateUser(key: string, value: unknown): Promise<void> {
  await vscode.workspace.getConfiguration(LOCAL_SECTION).update(key, value, vscode.ConfigurationTarget.Global);
}

/** The gate a recorded decision is replayed with: its own session's while it runs, else your settings now. */
function snapshotFor(deps: MakeAskDeps): (e: DecidedEntry) => GateSnapshot {
  const settings = readLocalGateSettings();
  return (e) => {
    const s = runningSession(deps, e);
    if (s) {
      return s.gate.snapshot();
    }
    const mode = GATE_MODES.find((m) => m === e.mode) ?? 'ask';
    return {
      mode,
      config: {
        roots: workspaceRoots(),
        ...(settings.allow ? { allow: [...settings.allow] } : {}),
        ...(settings.deny ? { deny: [...settings.deny] } : {}),
        ...(settings.allowPaths ? { allowPaths: settings.allowPaths.map((p) => ({ ...p })) } : {}),
        ...(settings.builtinAllow !== undefined ? { builtinAllow: settings.builtinAllow } : {}),
        ...(settings.builtinAllowExtras ? { builtinAllowExtras: [...settings.builtinAllowExtras] } : {}),
        ...(settings.requirePlan !== undefined ? { requirePlan: settings.requirePlan } : {}),
      },
      home: os.homedir(),
    };
  };
}

function runningSession(deps: MakeAskDeps, e: DecidedEntry): ManagedSession | undefined {
  return deps.manager.sessions.find((s) => s.id === e.sessionId && deps.recorder.keyOf(s) === e.session);
}

function settingChange(key: string, entry: string): Change | string {
  const before = userList(key);
  if (!before.includes(entry)) {
    return S.notInUserSetting(inertLine(entry, 200), `fountain.local.${key}`);
  }
  const after = before.filter((p) => p !== entry);
  return {
    detail: S.settingDetail(`fountain.local.${key}`, show(before), show(after)),
    apply: () => updateUser(key, after),
  };
}

function bundleChange(bundle: string): Change | string {
  if (bundle === 'read_only') {
    return {
      detail: S.bundleOffDetail,
      apply: () => updateUser('builtinAllow', false),
    };
  }
  const before = userList('builtinAllowExtras');
  if (!before.includes(bundle)) {
    return S.notInUserSetting(inertLine(bundle, 80), 'fountain.local.builtinAllowExtras');
  }
  const after = before.filter((b) => b !== bundle);
  return {
    detail: S.settingDetail('fountain.local.builtinAllowExtras', show(before), show(after)),
    apply: () => updateUser('builtinAllowExtras', after),
  };
}

function policyChange(e: DecidedEntry, key: string): Change | string {
  const config = vscode.workspace.getConfiguration('fountain');
  const raw = config.inspect<unknown>('localAgents')?.globalValue;
  const agents: unknown[] = Array.isArray(raw) ? (raw as unknown[]) : [];
  const i = agents.findIndex(
    (a) => typeof a === 'object' && a !== null && (a as { name?: unknown }).name === e.agentName,
  );
  if (i < 0) {
    return S.policyNotInEntry(inertLine(e.agentName, 200), inertLine(key, 200));
  }
  const agent = agents[i] as { policy?: unknown };
  const policy = typeof agent.policy === 'object' && agent.policy !== null ? agent.policy : {};
  const next: unknown[] = agents.map((a, j) => (j === i ? { ...agent, policy: { ...policy, [key]: 'ask' } } : a));
  return {
    detail: S.policyDetail(inertLine(e.agentName, 200), inertLine(key, 200), show(policy), show(next[i])),
    apply: () => config.update('localAgents', next, vscode.ConfigurationTarget.Global),
    scope: { agent: e.agentName },
  };
}

function sessionChange(
  deps: MakeAskDeps,
  e: DecidedEntry,
  rule: Extract<DecidingRule, { type: 'grant' } | { type: 'mode' }>,
): Change | string {
  const s = runningSession(deps, e);
  if (!s) {
    return rule.type === 'grant' ? S.grantEnded : S.modeEnded;
  }
  if (rule.type === 'mode') {
    if (s.gate.mode !== rule.mode) {
      return S.modeChangedSince(s.gate.mode);
    }
    return {
      detail: S.modeDetail(inertLine(s.agentName, 200), rule.mode),
      apply: () => {
        s.gate.setMode('ask');
      },
      scope: { session: e.session },
    };
  }
  const same = JSON.stringify(rule.grant);
  const grant = s.gate.grants.find((g) => JSON.stringify(g) === same);
  if (!grant) {
    return S.grantEnded;
  }
  return {
    detail: S.grantDetail(DecidedStrings.rule(rule), inertLine(s.agentName, 200)),
    apply: () => {
      s.gate.revokeGrant(grant);
    },
    scope: { session: e.session },
  };
}

function changeFor(deps: MakeAskDeps, e: DecidedEntry, rule: DecidingRule): Change | string {
  switch (rule.type) {
    case 'setting':
      return settingChange(rule.setting, rule.entry);
    case 'bundle':
      return bundleChange(rule.bundle);
    case 'policy':
      return policyChange(e, rule.key);
    case 'grant':
    case 'mode':
      return sessionChange(deps, e, rule);
    case 'requirePlan':
      return { detail: S.requirePlanDetail, apply: () => updateUser('requirePlan', false) };
    case 'denylist':
      return DecidedStrings.noAsk;
    case 'scope':
      return S.scopeExplained;
    case 'network':
      return DecidedStrings.networkNoAsk;
  }
}

/** The dry run's lines: how many recorded decisions would have been asked instead, each listed. */
export function removalLines(run: DryRun): string[] {
  const out = [
    run.hits.length === 0
      ? S.dryRunNone(run.checked)
      : S.dryRun(run.checked, run.hits.length, run.conversations, run.rejected),
  ];
  for (const h of run.hits.slice(0, MAX_LISTED)) {
    out.push(S.dryRunHit(Time.dateTime(h.entry.at), inertLine(h.entry.label ?? '?', 80)));
  }
  if (run.hits.length > MAX_LISTED) {
    out.push(S.more(run.hits.length - MAX_LISTED));
  }
  if (run.unchecked > 0) {
    out.push(S.unchecked(run.unchecked));
  }
  return out;
}

async function pickRule(rules: readonly DecidingRule[]): Promise<DecidingRule | undefined> {
  if (rules.length === 1) {
    return rules[0];
  }
  const picked = await vscode.window.showQuickPick(
    rules.map((rule) => ({ label: pickText(DecidedStrings.rule(rule), 300), rule })),
    { placeHolder: S.pickRule },
  );
  return picked?.rule;
}

/** The whole flow: the rule (picked when several made the decision), the confirmation, then the change. */
export async function makeThisAsk(deps: MakeAskDeps, e: DecidedEntry): Promise<MakeAskResult> {
  const offered = e.by.filter((r) => r.type !== 'denylist' && r.type !== 'scope' && r.type !== 'network');
  if (offered.length === 0) {
    const message = e.by.some((r) => r.type === 'denylist')
      ? DecidedStrings.noAsk
      : e.by.some((r) => r.type === 'network')
        ? DecidedStrings.networkNoAsk
        : S.scopeExplained;
    void vscode.window.showInformationMessage(message);
    return { kind: 'none', message };
  }
  const rule = await pickRule(offered);
  if (!rule) {
    return { kind: 'cancelled' };
  }
  const change = changeFor(deps, e, rule);
  if (typeof change === 'string') {
    void vscode.window.showInformationMessage(change);
    return { kind: 'none', message: change };
  }
  const snapOf = snapshotFor(deps);
  const req = requestOfEntry(e);
  const replay = req && replayWithout(req, snapOf(e), rule);
  const afterLine =
    replay?.after === undefined
      ? S.afterUnknown
      : replay.after.verdict === 'ask'
        ? S.afterAsks
        : S.afterStill(replay.after.verdict, inertLine(replay.after.reason, 500));
  const entries = deps.recorder.log
    .latest()
    .filter((x) => change.scope?.agent === undefined || x.agentName === change.scope.agent);
  const run = dryRunRemoval(entries, rule, snapOf, change.scope?.session);
  const subject = decidedSubject(e);
  const detail = [S.ruleLine(DecidedStrings.rule(rule)), change.detail, afterLine, removalLines(run).join('\n')].join(
    '\n\n',
  );
  const button = S.button;
  const pick = await vscode.window.showWarningMessage(
    S.title(subject !== undefined ? inertLine(subject, 120) : DecidedStrings.labelHidden),
    { modal: true, detail },
    button,
  );
  if (pick !== button) {
    return { kind: 'cancelled' };
  }
  await change.apply();
  deps.log.info(`Make This Ask: ${JSON.stringify(rule)} removed or narrowed`);
  void vscode.window.showInformationMessage(S.done(DecidedStrings.rule(rule)));
  return { kind: 'changed', rule };
}
