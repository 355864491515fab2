/**
 * The rules behind a decision made without you (./decidedLog.ts), asked of the gate itself: each allow entry, bundle
 * and grant that could have contributed is taken away in turn and the request decided again; the ones without which
 * the gate would no longer allow it made the decision. Make This Ask is checked the same way: the request (and every
 * recorded one, the dry run over src/domain/dryRun.ts) decided again with the rule removed or narrowed.
 */
import {
  BUNDLE_READ_ONLY,
  compileGateConfig,
  decide,
  verdictOf,
  type GateDecision,
  type GateInput,
  type GateRequest,
} from '../policy';
import type { DecidedEntry, DecidingRule } from './decidedLog';
import { dryRun, type DryRun } from './dryRun';
import { requestOfSubject } from './dryRunMatch';
import type { HistoryEntry } from './history';

/** The gate's input minus the request (LocalGate.snapshot()). */
export type GateSnapshot = Omit<GateInput, 'request'>;

const allows = (d: GateDecision) => d.verdict === 'allow';

function safeDecide(input: GateInput): GateDecision | undefined {
  try {
    return decide(input);
  } catch {
    return undefined;
  }
}

/** The same snapshot with one rule removed or narrowed (what Make This Ask would change). */
export function withoutRule(snap: GateSnapshot, rule: DecidingRule): GateSnapshot {
  const c = snap.config;
  switch (rule.type) {
    case 'setting':
      return {
        ...snap,
        config: {
          ...c,
          [rule.setting]: (c[rule.setting] ?? []).filter((p) => p !== rule.entry),
        },
      };
    case 'bundle':
      return {
        ...snap,
        config:
          rule.bundle === BUNDLE_READ_ONLY
            ? { ...c, builtinAllow: false }
            : { ...c, builtinAllowExtras: (c.builtinAllowExtras ?? []).filter((b) => b !== rule.bundle) },
      };
    case 'grant': {
      const same = JSON.stringify(rule.grant);
      const grants = (snap.session?.grants ?? []).filter((g) => JSON.stringify(g) !== same);
      return { ...snap, session: { ...snap.session, grants } };
    }
    case 'policy':
      return { ...snap, config: { ...c, policy: { ...(c.policy ?? {}), [rule.key]: 'ask' } } };
    case 'mode':
      return { ...snap, mode: 'ask' };
    case 'requirePlan':
      return { ...snap, config: { ...c, requirePlan: false } };
    default:
      return snap;
  }
}

/** The bundles in effect for a configuration (read_only unless turned off, then the extras). */
function bundlesOf(snap: GateSnapshot): string[] {
  const c = snap.config;
  if (c.builtinAllow === false) {
    return [];
  }
  return [BUNDLE_READ_ONLY, ...(c.builtinAllowExtras ?? []).filter((b) => typeof b === 'string')];
}

/**
 * The rules that decided `decision` for `request` (see the file comment). An allow by patterns, bundles or grants
 * names each one without which the gate would not allow it; when several cover it alike, every one that changes
 * the decision when taken away.
 */
export function decidingRules(decision: GateDecision, request: GateRequest, snap: GateSnapshot): DecidingRule[] {
  switch (decision.rule) {
    case 'denylist':
      return [{ type: 'denylist' }];
    case 'plan':
      return [{ type: 'mode', mode: 'plan' }];
    case 'plan-first':
      return [{ type: 'requirePlan' }];
    case 'deny-pattern':
      return decision.pattern !== undefined ? [{ type: 'setting', setting: 'deny', entry: decision.pattern }] : [];
    case 'policy': {
      const policy = compileGateConfig(snap.config).policy;
      const { verdict, key } = verdictOf(policy, { title: request.title, kind: request.kind });
      return key !== null && (verdict === 'auto_allow' || verdict === 'auto_deny')
        ? [{ type: 'policy', key, verdict }]
        : [];
    }
    case 'mode':
      return [{ type: 'mode', mode: snap.mode }];
    case 'path-scope':
      return decision.verdict === 'allow' ? scopeContributors(request, snap) : [{ type: 'mode', mode: snap.mode }];
    case 'allow-pattern':
    case 'grant':
      return allowContributors(request, snap);
    default:
      // unreadable, network, protected: asked, and refused only because allow mode refuses what it cannot allow.
      return decision.verdict === 'deny' ? [{ type: 'mode', mode: snap.mode }] : [];
  }
}

/** A read allowed inside the scope: the session's folder grants it needs, else the gate's own scope. */
function scopeContributors(request: GateRequest, snap: GateSnapshot): DecidingRule[] {
  const folders = (snap.session?.grants ?? [])
    .filter((grant) => grant.scope === 'path')
    .map((grant) => ({ type: 'grant' as const, grant }))
    .filter((r) => {
      const d = safeDecide({ ...withoutRule(snap, r), request });
      return d === undefined || !allows(d);
    });
  return folders.length > 0 ? folders : [{ type: 'scope' }];
}

function allowContributors(request: GateRequest, snap: GateSnapshot): DecidingRule[] {
  const candidates: DecidingRule[] = [
    ...(snap.config.allow ?? []).map((entry) => ({ type: 'setting' as const, setting: 'allow' as const, entry })),
    ...bundlesOf(snap).map((bundle) => ({ type: 'bundle' as const, bundle })),
    ...(snap.session?.grants ?? []).map((grant) => ({ type: 'grant' as const, grant })),
  ];
  const before = safeDecide({ ...snap, request });
  const after = candidates.map((r) => ({ r, d: safeDecide({ ...withoutRule(snap, r), request }) }));
  const needed = after.filter((a) => a.d === undefined || !allows(a.d)).map((a) => a.r);
  if (needed.length > 0 || before === undefined) {
    return needed;
  }
  return after
    .filter((a) => a.d!.rule !== before.rule || a.d!.pattern !== before.pattern || a.d!.reason !== before.reason)
    .map((a) => a.r);
}

/** A request read back from an entry, the way the gate reads a tool call. */
export function requestOfEntry(e: DecidedEntry): GateRequest | undefined {
  if (e.command === undefined && e.paths === undefined && e.url === undefined && e.title === undefined) {
    return undefined;
  }
  return requestOfSubject(
    {
      ...(e.kind !== undefined ? { kind: e.kind } : {}),
      ...(e.title !== undefined ? { title: e.title } : {}),
      ...(e.command !== undefined ? { command: e.command } : {}),
      ...(e.paths !== undefined ? { paths: e.paths } : {}),
      ...(e.url !== undefined ? { url: e.url } : {}),
    },
    e.folder,
  );
}

/** What the gate would do with `request` now, and with `rule` removed. */
export function replayWithout(
  request: GateRequest,
  snap: GateSnapshot,
  rule: DecidingRule,
): { readonly now?: GateDecision; readonly after?: GateDecision } {
  const now = safeDecide({ ...snap, request });
  const after = safeDecide({ ...withoutRule(snap, rule), request });
  return { ...(now ? { now } : {}), ...(after ? { after } : {}) };
}

/** Whether two deciding rules are the same rule. */
export function sameRule(a: DecidingRule, b: DecidingRule): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * The dry run of a Make This Ask: of the recorded decisions in scope (every one for a setting, the session's own for
 * a grant or mode), those the gate decides without you now and would ask about once `rule` is removed. Reads the
 * entries through src/domain/dryRun.ts: a hit's "rejected" is a refusal; an entry whose text was not kept is
 * unchecked. `gateOf` gives the snapshot an entry is replayed with (its own session's while it runs).
 */
export function dryRunRemoval(
  entries: readonly DecidedEntry[],
  rule: DecidingRule,
  gateOf: (e: DecidedEntry) => GateSnapshot | undefined,
  session?: string,
): DryRun {
  const source = new Map<HistoryEntry, DecidedEntry>();
  const rows: HistoryEntry[] = [];
  for (const e of entries) {
    if (session !== undefined && e.session !== session) {
      continue;
    }
    const label = e.command ?? e.paths?.join(' ') ?? e.url ?? e.title;
    const row: HistoryEntry = {
      at: e.at,
      server: `local:${e.sessionId}`,
      conversationId: e.session,
      ...(e.kind !== undefined ? { kind: e.kind } : {}),
      ...(label !== undefined ? { label } : {}),
      optionId: e.sent,
      optionKind: e.verdict === 'allow' ? 'allow_once' : 'reject_once',
      outcome: 'answered',
    };
    source.set(row, e);
    rows.push(row);
  }
  return dryRun(rows, (row) => {
    const e = source.get(row)!;
    const req = requestOfEntry(e);
    const snap = gateOf(e);
    if (req === undefined || snap === undefined) {
      return undefined;
    }
    const r = replayWithout(req, snap, rule);
    return r.now !== undefined && r.now.verdict !== 'ask' && r.after?.verdict === 'ask';
  });
}
