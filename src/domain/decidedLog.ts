/**
 * "Decided without you" (issue 29): every decision a local session's gate made by itself (allowed or refused, not
 * asked), with the rule that made it and where that rule is set, kept per machine like the approval history (two
 * rotating segments, ./history.ts) and bounded at the last {@link DECIDED_KEPT}. Pure: the platform layer writes the
 * files, the UI layer renders the entries inert. It is a record for the user, never a permission authority.
 *
 * Which rules made a decision, and what Make This Ask would change, are asked of the gate itself (./decidedRules.ts,
 * apart so that the main bundle, which keeps this log, does not carry the gate).
 */
import * as z from 'zod/mini';
import type { GateMode, Grant } from '../policy';
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
  | { readonly type: 'scope' }
  /** A sandboxed agent's connection (src/local/network/decider.ts): its verdict's rule, e.g. `allowHosts: pypi.org`. */
  | { readonly type: 'network'; readonly rule: string };

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
  z.object({
    type: z.literal('setting'),
    setting: z.union([z.literal('allow'), z.literal('deny')]),
    entry: z.string(),
  }),
  z.object({ type: z.literal('bundle'), bundle: z.string() }),
  z.object({ type: z.literal('grant'), grant: GrantSchema }),
  z.object({
    type: z.literal('policy'),
    key: z.string(),
    verdict: z.union([z.literal('auto_allow'), z.literal('auto_deny')]),
  }),
  z.object({
    type: z.literal('mode'),
    mode: z.union([
      z.literal('ask'),
      z.literal('acceptEdits'),
      z.literal('plan'),
      z.literal('allow'),
      z.literal('yolo'),
    ]),
  }),
  z.object({ type: z.literal('requirePlan') }),
  z.object({ type: z.literal('scope') }),
  z.object({ type: z.literal('network'), rule: z.string() }),
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
