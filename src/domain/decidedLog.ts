/**
 * "Decided without you" (issue 29): every decision a local session's gate made by itself (allowed or refused, not
 * asked), with the rule that made it and where that rule is set, kept per machine like the approval history (two
 * rotating segments, ./history.ts) and bounded at the last {@link DECIDED_KEPT}. Pure: the platform layer writes the
 * files, the UI layer renders the entries inert. It is a record for the user, never a permission authority.
 *
 * Which rules made a decision is asked of the gate itself: each allow entry, bundle and grant that could have
 * contributed is taken away in turn and the request decided again; the ones without which the gate would no longer
 * allow it made the decision. "Make This Ask" ({@link RuleEdit}) is checked the same way: the request (and every
 * recorded one, the dry run) decided again with the rule removed or narrowed.
 */
import * as z from 'zod/mini';
import {
  BUNDLE_READ_ONLY,
  compileGateConfig,
  decide,
  verdictOf,
  type GateDecision,
  type GateInput,
  type GateMode,
  type GateRequest,
  type Grant,
} from '../policy';
import { dryRun, type DryRun } from './dryRun';
import { requestOfSubject } from './dryRunMatch';
import type { HistoryEntry } from './history';
import { SegmentLog, type HistoryBackend, type HistoryLogOptions } from './history';

/** How many decisions are shown and kept (the log holds up to twice this on disk, in two segments). */
export const DECIDED_KEPT = 1000;

/** A rule that decided a call without asking, and where it is set. */
export type DecidingRule =
  /** The built-in denylist (nothing makes it ask). */
  | { readonly type: 'denylist' }
  /** An entry of the user setting `fountain.local.allow` or `fountain.local.deny`. */
  | { readonly type: 'setting'; readonly setting: 'allow' | 'deny'; readonly entry: string }
  /** A built-in bundle (`fountain.local.builtinAllow` for read_only, `builtinAllowExtras` for the others). */
  | { readonly type: 'bundle'; readonly bundle: string }
  /** A grant of the session. */
  | { readonly type: 'grant'; readonly grant: Grant }
  /** A key of the agent's policy (its `fountain.localAgents` entry). */
  | { readonly type: 'policy'; readonly key: string; readonly verdict: 'auto_allow' | 'auto_deny' }
  /** The session's mode (plan refuses, allow refuses the rest, acceptEdits and yolo allow). */
  | { readonly type: 'mode'; readonly mode: GateMode }
  /** `fountain.local.requirePlan`: no call with effects before a plan. */
  | { readonly type: 'requirePlan' }
  /** Reads inside the workspace folders and allowed paths (built into the gate). */
  | { readonly type: 'scope' };

export interface DecidedEntry {
  /** Epoch ms. */
  readonly at: number;
  /** The session, unique across windows and restarts (the tree's count and "open the group" use it). */
  readonly session: string;
  /** The session's id in the window that recorded it (`local-3`): its grants and mode are reached through it. */
  readonly sessionId: string;
  readonly agentName: string;
  /** The session's folder (absolute). */
  readonly folder: string;
  readonly verdict: 'allow' | 'deny';
  /** The ACP tool kind (untrusted). */
  readonly kind?: string;
  /** The command (untrusted; kept only with the labels, `fountain.history.keepLabels`). */
  readonly command?: string;
  readonly paths?: readonly string[];
  readonly url?: string;
  readonly title?: string;
  readonly mode: string;
  /** The gate's rule id (denylist, allow-pattern, grant, policy, mode, …). */
  readonly rule: string;
  /** The gate's reason, one or two sentences (quotes request text: untrusted). */
  readonly reason: string;
  readonly pattern?: string;
  /** The option id sent, or `cancelled`. */
  readonly sent: string;
  /** The rules that decided it (see the file comment), with where each is set. */
  readonly by: readonly DecidingRule[];
}

const optStr = z.optional(z.string());
const GrantSchema = z.union([
  z.object({ scope: z.literal('exact'), kind: z.string(), key: z.string() }),
  z.object({ scope: z.literal('verb'), verb: z.string() }),
  z.object({ scope: z.literal('tool'), kind: z.string() }),
]);
const RuleSchema = z.union([
  z.object({ type: z.literal('denylist') }),
  z.object({ type: z.literal('setting'), setting: z.union([z.literal('allow'), z.literal('deny')]), entry: z.string() }),
  z.object({ type: z.literal('bundle'), bundle: z.string() }),
  z.object({ type: z.literal('grant'), grant: GrantSchema }),
  z.object({
    type: z.literal('policy'),
    key: z.string(),
    verdict: z.union([z.literal('auto_allow'), z.literal('auto_deny')]),
  }),
  z.object({
    type: z.literal('mode'),
    mode: z.union([z.literal('ask'), z.literal('acceptEdits'), z.literal('plan'), z.literal('allow'), z.literal('yolo')]),
  }),
  z.object({ type: z.literal('requirePlan') }),
  z.object({ type: z.literal('scope') }),
]);

/** One stored line; lines that do not parse are skipped. */
export const DecidedEntrySchema = z.object({
  at: z.number(),
  session: z.string(),
  sessionId: z.string(),
  agentName: z.string(),
  folder: z.string(),
  verdict: z.union([z.literal('allow'), z.literal('deny')]),
  kind: optStr,
  command: optStr,
  paths: z.optional(z.array(z.string())),
  url: optStr,
  title: optStr,
  mode: z.string(),
  rule: z.string(),
  reason: z.string(),
  pattern: optStr,
  sent: z.string(),
  by: z.array(RuleSchema),
});

/** The decisions made without you, newest first; bounded at {@link DECIDED_KEPT} shown. */
export class DecidedLog extends SegmentLog<DecidedEntry> {
  constructor(backend: HistoryBackend, opts: Omit<HistoryLogOptions, 'segmentSize'> = {}) {
    super(backend, DecidedEntrySchema, { ...opts, segmentSize: DECIDED_KEPT });
  }

  /** The last {@link DECIDED_KEPT}, newest first. */
  latest(): DecidedEntry[] {
    return this.entries().slice(0, DECIDED_KEPT);
  }

  /** How many of the last {@link DECIDED_KEPT} were decided in `session`. */
  countOf(session: string): number {
    return this.latest().filter((e) => e.session === session).length;
  }
}

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
      return decision.verdict === 'allow' ? [{ type: 'scope' }] : [{ type: 'mode', mode: snap.mode }];
    case 'allow-pattern':
    case 'grant':
      return allowContributors(request, snap);
    default:
      // unreadable, network, protected: asked, and refused only because allow mode refuses what it cannot allow.
      return decision.verdict === 'deny' ? [{ type: 'mode', mode: snap.mode }] : [];
  }
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
