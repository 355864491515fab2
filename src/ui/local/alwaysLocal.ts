/**
 * The honest "always" for a local allow pattern (`fountain.local.allow`) or a folder (`fountain.local.allowPaths`,
 * the entry's JSON text as the rule): what it covers is the local gate's own
 * decision (src/domain/dryRunMatch.ts), for past local requests and for the waiting ones of every local session, and
 * the user setting it is written to. Used by an "always" grant choice (./grantPicks.ts) and by Recommend Local Allow
 * Patterns… (./gateCommands.ts). Nothing here writes before the caller's confirmation.
 */
import * as vscode from 'vscode';
import {
  allowPathAllows,
  checkRule,
  entryAllowed,
  parseAllowPathRule,
  patternAllows,
  waitingAllowed,
  type RuleAllows,
  type RuleGate,
} from '../../domain/dryRunMatch';
import { isLocalSource, localSessionIdOf } from '../../session/localKey';
import type { AllowPath, GateRequest } from '../../policy';
import type { AlwaysRequest, RuleMatcher } from '../always/alwaysModal';
import type { ManagedSession } from './manager';

export const LOCAL_ALLOW_KEY = 'allow';
export const LOCAL_ALLOW_PATHS_KEY = 'allowPaths';

/** A session's gate as the dry run reads it. */
export function ruleGateOf(s: ManagedSession): RuleGate {
  return { snapshot: s.gate.snapshot(), cwd: s.gate.cwd };
}

/** The gate of the session a local source id (`local:<id>`) names, from `manager`'s sessions. */
export function sessionGates(manager: {
  get(id: string): ManagedSession | undefined;
}): (server: string) => RuleGate | undefined {
  return (server) => {
    const id = localSessionIdOf(server);
    const m = id === undefined ? undefined : manager.get(id);
    return m && ruleGateOf(m);
  };
}

/**
 * The matcher of a local pattern: a past local request through `fallback`'s gate (the session that asked may be
 * gone), a waiting one through its own session's gate (each session has its own folder, mode and grants); a waiting
 * request whose session `gateOf` does not know is not covered.
 */
export function localMatcher(
  fallback: RuleGate,
  gateOf: (server: string) => RuleGate | undefined,
  allows: RuleAllows = patternAllows,
): (rule: string) => RuleMatcher {
  return (rule) => ({
    entry: (e) => (isLocalSource(e.server) ? entryAllowed(rule, e, fallback, allows) : false),
    waiting: (w) => {
      if (!isLocalSource(w.server)) {
        return false;
      }
      return waitingAllowed(rule, w, gateOf, allows);
    },
  });
}

/** An edited rule read: a pattern (checkRule) or an allowPaths entry's JSON text, each with its problem. */
function readRule(
  kind: 'pattern' | 'allowPath',
  rule: string,
): { readonly problem: string } | { readonly warnings: readonly string[] } {
  if (kind === 'allowPath') {
    const p = parseAllowPathRule(rule);
    return 'problem' in p ? { problem: p.problem } : { warnings: [] };
  }
  const c = checkRule(rule);
  return c.ok ? { warnings: c.warnings } : { problem: c.problem };
}

/** The parts of an {@link AlwaysRequest} for a local pattern; `answering`: the request it must still cover. */
export function localAlways(
  o: {
    readonly rule: string;
    readonly setting: string;
    readonly gate: RuleGate;
    /** Each waiting local request's own session's gate (server `local:<id>`). */
    readonly gateOf: (server: string) => RuleGate | undefined;
    readonly requestId?: string;
    readonly optionName?: string;
    /** `allowPath`: the rule is an allowPaths entry's JSON text (default: an allow pattern). */
    readonly kind?: 'pattern' | 'allowPath';
    /** Notes shown whatever the rule (the sandbox sees the folder only after a restart). */
    readonly notes?: readonly string[];
  },
  answering?: GateRequest,
): AlwaysRequest {
  const kind = o.kind ?? 'pattern';
  const allows = kind === 'allowPath' ? allowPathAllows : patternAllows;
  return {
    rule: o.rule,
    setting: o.setting,
    ...(o.requestId !== undefined ? { requestId: o.requestId } : {}),
    ...(o.optionName !== undefined ? { optionName: o.optionName } : {}),
    check: (rule) => {
      const c = readRule(kind, rule);
      if ('problem' in c) {
        return c;
      }
      if (answering && !allows(rule, answering, o.gate)) {
        return { problem: vscode.l10n.t('This rule does not cover the request you are answering.') };
      }
      return { warnings: [...c.warnings, ...(o.notes ?? [])] };
    },
    matcher: localMatcher(o.gate, o.gateOf, allows),
    scope: { source: (e) => isLocalSource(e.server) },
  };
}

/** The user (global) value of fountain.local.allow. */
export function userAllowList(): string[] {
  const current = vscode.workspace.getConfiguration('fountain.local').inspect<unknown>(LOCAL_ALLOW_KEY)?.globalValue;
  return Array.isArray(current) ? current.filter((p): p is string => typeof p === 'string') : [];
}

/** Appends `pattern` to the user (global) value of fountain.local.allow, unless it is there already. */
export async function appendAllowPattern(pattern: string): Promise<void> {
  const list = userAllowList();
  if (!list.includes(pattern)) {
    await vscode.workspace
      .getConfiguration('fountain.local')
      .update(LOCAL_ALLOW_KEY, [...list, pattern], vscode.ConfigurationTarget.Global);
  }
}

/** Appends `entry` to the user (global) value of fountain.local.allowPaths, unless the same entry is there already. */
export async function appendAllowPath(entry: AllowPath): Promise<void> {
  const current = vscode.workspace
    .getConfiguration('fountain.local')
    .inspect<unknown>(LOCAL_ALLOW_PATHS_KEY)?.globalValue;
  const list: unknown[] = Array.isArray(current) ? (current as unknown[]) : [];
  const same = (v: unknown) =>
    typeof v === 'object' &&
    v !== null &&
    (v as AllowPath).pattern === entry.pattern &&
    (v as AllowPath).access === entry.access;
  if (!list.some(same)) {
    await vscode.workspace
      .getConfiguration('fountain.local')
      .update(
        LOCAL_ALLOW_PATHS_KEY,
        [...list, { pattern: entry.pattern, access: entry.access }],
        vscode.ConfigurationTarget.Global,
      );
  }
}
