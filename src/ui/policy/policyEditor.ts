/**
 * The agent-policy editor, built as its own bundle (dist/policyEditor.js, esbuild.mjs) and loaded on its first use by
 * policyEditorCommands.ts, which registers its commands and serves its diff documents.
 */
import * as vscode from 'vscode';
import type { HistoryLog } from '../../domain/history';
import type { Inbox } from '../../domain/inbox';
import { agentChoices, type SeenAgent } from '../../domain/agentChoices';
import type { AgentRecord } from '../../domain/provenance';
import { RISKY_KINDS, type Recommendation } from '../../domain/recommendations';
import type { AgentApi } from '../../platform/agentApi';
import type { Logger } from '../../platform/log';
import {
  ASK_TIMEOUT_KEY,
  DEFAULT_KEY,
  TOOL_KINDS,
  isVerdict,
  validatePolicy,
  verdictOf,
  type Verdict,
} from '../../policy';
import type { FountainHttpError } from '../../protocol/apiClient';
import { inertLine } from '../display';
import { errorDetail, errorWords } from '../plainWords';
import type { WaitingRequests } from '../always/alwaysContext';
import { answerCovered } from '../always/alwaysModal';
import { reviewPolicyChange } from '../always/policyDryRun';
import { PolicyEditorStrings } from './policyEditorStrings';
import type { AgentPick, EditView, KeyAction, KeyRow, PolicyPrompts } from './policyPrompts';
import type { ProvenanceService } from './provenanceService';

export {
  vscodePolicyPrompts,
  type AgentPick,
  type EditView,
  type KeyAction,
  type KeyRow,
  type PolicyPrompts,
} from './policyPrompts';

export type EditResult =
  | { readonly kind: 'patched'; readonly policy: Record<string, unknown> }
  | { readonly kind: 'refusedLocally'; readonly errors: readonly string[] }
  | { readonly kind: 'refusedByServer'; readonly errors: readonly string[] }
  | { readonly kind: 'failed'; readonly message: string }
  | { readonly kind: 'cancelled'; readonly stage: string };

export interface EditRequest {
  readonly server?: string;
  readonly agentId?: string;
  /** Open the verdict picker for this kind first (the request's context action). */
  readonly kind?: string;
  /** Pre-applied changes (a recommendation): straight to review. */
  readonly preset?: Readonly<Record<string, Verdict>>;
}

/**
 * "Edit Agent Permission Policy": read the agent's policy fresh, let the user change verdicts (kinds, `default`,
 * existing title keys) and `ask_timeout`, validate locally with the server's own rules and messages (an invalid
 * policy is refused here and nothing is sent), show a before/after diff, confirm in a modal, then PATCH. The
 * server's 422 messages are shown verbatim. The extension never grants anything itself: the server's policy is the
 * only authority.
 */
export class PolicyEditor {
  constructor(
    private readonly api: AgentApi,
    private readonly provenance: ProvenanceService,
    private readonly inbox: Inbox,
    private readonly history: HistoryLog,
    /** Answers the waiting requests a confirmed change covers (the composition root's, never a command). */
    private readonly waiting: WaitingRequests,
    private readonly log: Logger,
    /** The class AgentApi's HTTP failures are made with (the main bundle's, not a copy in this one). */
    private readonly httpError: typeof FountainHttpError,
  ) {}

  /** Agents this window saw on `server`: in conversations of the inbox and answers of the history, with when. */
  knownAgents(server: string): SeenAgent[] {
    const seen = new Map<string, { name?: string; runtime?: string; lastActive: number }>();
    // The inbox's conversations are read first: their names and runtimes win over older history entries.
    const note = (id: string, at: number, name?: string, runtime?: string) => {
      const s = seen.get(id) ?? { lastActive: 0 };
      seen.set(id, {
        ...s,
        ...(name && !s.name ? { name } : {}),
        ...(runtime && !s.runtime ? { runtime } : {}),
        lastActive: Math.max(s.lastActive, at),
      });
    };
    for (const item of this.inbox.all()) {
      const c = item.conversation;
      if (c.server === server && c.agentId) {
        note(c.agentId, item.askedAt, c.agentName, c.runtime);
      }
    }
    for (const e of this.history.entries()) {
      if (e.server === server && e.agentId) {
        note(e.agentId, e.at, e.agentName, e.runtime);
      }
    }
    return [...seen].map(([id, s]) => ({ id, ...s }));
  }

  /**
   * The picker's agents: those this window saw at once, then with the server's list merged in. A list that cannot
   * be read (a key without the scope, the network) leaves the seen ones and is logged.
   */
  agentPick(server: string): AgentPick {
    const seen = this.knownAgents(server);
    return {
      seen: agentChoices(undefined, seen),
      full: this.api.listAgents(server).then(
        (listed) => ({ choices: agentChoices(listed, seen), listFailed: false }),
        (err: unknown) => {
          this.log.warn(`the list of agents on ${server} could not be read: ${errorDetail(err)}`);
          return { choices: agentChoices(undefined, seen), listFailed: true };
        },
      ),
    };
  }

  async edit(req: EditRequest, prompts: PolicyPrompts): Promise<EditResult> {
    const server = req.server ?? this.api.currentServer();
    if (!server) {
      prompts.showError(PolicyEditorStrings.notConfigured);
      return { kind: 'failed', message: 'not configured' };
    }
    const agentId = req.agentId ?? (await prompts.pickAgent(this.agentPick(server)));
    if (!agentId) {
      return { kind: 'cancelled', stage: 'agent' };
    }
    let agent: AgentRecord;
    try {
      agent = await this.api.getAgent(server, agentId);
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      this.log.warn(`the policy of agent ${JSON.stringify(agentId)} could not be read: ${errorDetail(err)}`);
      prompts.showError(PolicyEditorStrings.readFailed(inertLine(errorWords(err))));
      return { kind: 'failed', message: reason };
    }
    const agentLabel = agent.name ? inertLine(agent.name) : PolicyEditorStrings.unnamedAgent;
    const before: Record<string, unknown> = { ...agent.policy };
    const draft: Record<string, unknown> = { ...agent.policy };
    const title = req.kind
      ? PolicyEditorStrings.changeTitle(inertLine(req.kind), agentLabel)
      : PolicyEditorStrings.editTitle(agentLabel);

    if (req.preset) {
      for (const [k, v] of Object.entries(req.preset)) {
        if (!(await this.allowRisk(k, v, prompts))) {
          return { kind: 'cancelled', stage: 'risk' };
        }
        setKey(draft, k, v);
      }
    } else {
      let next: KeyAction | undefined = req.kind ? { type: 'key', key: req.kind } : undefined;
      for (let guard = 0; guard < 200; guard++) {
        next ??= await prompts.pickKey(this.view(agentLabel, title, before, draft));
        if (!next) {
          return { kind: 'cancelled', stage: 'keys' };
        }
        if (next.type === 'review') {
          break;
        }
        if (next.type === 'timeout') {
          const raw = await prompts.inputTimeout(own(draft, ASK_TIMEOUT_KEY));
          if (raw !== undefined) {
            const text = raw.trim();
            if (text === '') {
              delete draft[ASK_TIMEOUT_KEY];
            } else {
              // Numbers are sent as numbers; anything else is kept as typed so validation quotes it.
              setKey(draft, ASK_TIMEOUT_KEY, /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : text);
            }
          }
        } else {
          const current = verdictOf(draft, { kind: next.key === DEFAULT_KEY ? null : next.key });
          const explicit = Object.hasOwn(draft, next.key);
          const v = await prompts.pickVerdict(next.key, current.verdict, explicit);
          if (v === 'remove') {
            delete draft[next.key];
          } else if (v !== undefined && (await this.allowRisk(next.key, v, prompts))) {
            setKey(draft, next.key, v);
          }
        }
        next = undefined;
      }
    }
    return this.review(server, agent, agentLabel, before, draft, prompts);
  }

  /** Applies a recommendation: the risk warning (execute/delete), then the same preview and confirmation. */
  applyRecommendation(rec: Recommendation, prompts: PolicyPrompts): Promise<EditResult> {
    return this.edit({ server: rec.server, agentId: rec.agentId, preset: { [rec.kind]: rec.verdict } }, prompts);
  }

  private async allowRisk(key: string, v: unknown, prompts: PolicyPrompts): Promise<boolean> {
    return v === 'auto_allow' && RISKY_KINDS.includes(key) ? prompts.confirmRisk(key) : true;
  }

  private async review(
    server: string,
    agent: AgentRecord,
    agentLabel: string,
    before: Record<string, unknown>,
    draft: Record<string, unknown>,
    prompts: PolicyPrompts,
  ): Promise<EditResult> {
    const changes = describeChanges(before, draft);
    if (changes.length === 0) {
      prompts.showInfo(PolicyEditorStrings.noChanges);
      return { kind: 'cancelled', stage: 'noChanges' };
    }
    const valid = validatePolicy(draft, agent.runtime ? { runtime: agent.runtime } : undefined);
    if (!valid.ok) {
      this.log.info(`refused locally to PATCH agent ${JSON.stringify(agent.id)}: ${valid.errors.join('; ')}`);
      prompts.showError(PolicyEditorStrings.refusedLocally(valid.errors.map((m) => inertLine(m)).join('; ')));
      return { kind: 'refusedLocally', errors: valid.errors };
    }
    await prompts.preview(agentLabel, before, valid.policy);
    // The dry run over the agent's past requests and its waiting ones the change would allow: shown, nothing sent.
    const review = reviewPolicyChange({
      server,
      agentId: agent.id,
      before,
      after: valid.policy,
      history: this.history.entries(),
      open: this.inbox.open(),
    });
    const ok = await prompts.confirm(agentLabel, changes, { lines: review.lines, waiting: review.covered.length });
    if (ok === false) {
      return { kind: 'cancelled', stage: 'confirm' };
    }
    try {
      const saved = await this.api.patchPolicy(server, agent.id, valid.policy);
      this.provenance.cache.set(server, saved);
      // Only after the server took the change: each covered request gets its own allow-once, through the guard.
      const answered = ok === true ? await answerCovered(this.waiting, review.covered) : 0;
      prompts.showInfo(
        answered > 0
          ? PolicyEditorStrings.appliedAndAllowed(agentLabel, answered)
          : PolicyEditorStrings.applied(agentLabel),
      );
      return { kind: 'patched', policy: saved.policy };
    } catch (err) {
      const serverErrors = err instanceof this.httpError ? changesetMessages(err) : undefined;
      if (serverErrors) {
        prompts.showError(PolicyEditorStrings.refusedByServer(serverErrors.map((m) => inertLine(m)).join('; ')));
        return { kind: 'refusedByServer', errors: serverErrors };
      }
      const message = err instanceof Error ? err.message : String(err);
      this.log.warn(`the policy of agent ${JSON.stringify(agent.id)} could not be saved: ${errorDetail(err)}`);
      prompts.showError(PolicyEditorStrings.patchFailed(inertLine(errorWords(err))));
      return { kind: 'failed', message };
    }
  }

  private view(
    agentLabel: string,
    title: string,
    before: Record<string, unknown>,
    draft: Record<string, unknown>,
  ): EditView {
    const row = (key: string, group: KeyRow['group']): KeyRow => {
      const now = verdictOf(draft, { kind: key === DEFAULT_KEY ? null : key });
      const was = verdictOf(before, { kind: key === DEFAULT_KEY ? null : key });
      const explicit = Object.hasOwn(draft, key);
      const changed = own(before, key) !== own(draft, key);
      return {
        key,
        group,
        verdict: now.verdict,
        explicit,
        ...(changed ? { before: Object.hasOwn(before, key) ? was.verdict : ('unset' as const) } : {}),
      };
    };
    const titles = Object.keys(draft).filter(
      (k) => k !== DEFAULT_KEY && k !== ASK_TIMEOUT_KEY && !TOOL_KINDS.includes(k),
    );
    return {
      agentLabel,
      title,
      rows: [
        ...TOOL_KINDS.map((k) => row(k, 'kind')),
        row(DEFAULT_KEY, 'default'),
        ...titles.map((k) => row(k, 'title')),
      ],
      askTimeout: own(draft, ASK_TIMEOUT_KEY),
      changes: describeChanges(before, draft).length,
    };
  }
}

/** "execute: ask → auto_allow", "Bash: removed", "ask_timeout: 3600" — one line per changed key, keys inert. */
export function describeChanges(before: Record<string, unknown>, after: Record<string, unknown>): string[] {
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  const show = (v: unknown) => (v === undefined ? 'unset' : isVerdict(v) ? v : inertLine(JSON.stringify(v) ?? ''));
  return keys
    .filter((k) => JSON.stringify(own(before, k)) !== JSON.stringify(own(after, k)))
    .map((k) => `${inertLine(k)}: ${show(own(before, k))} → ${show(own(after, k))}`);
}

/** A policy's own value for a key (a key like `__proto__` is just a key). */
function own(policy: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(policy, key) ? policy[key] : undefined;
}

function setKey(policy: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(policy, key, { value, enumerable: true, writable: true, configurable: true });
}

/** The server's changeset messages from a 422, verbatim; undefined for any other failure. */
function changesetMessages(err: FountainHttpError): string[] | undefined {
  if (err.status !== 422) {
    return undefined;
  }
  const errors = err.body?.errors;
  if (errors && typeof errors === 'object' && !Array.isArray(errors)) {
    const out: string[] = [];
    for (const v of Object.values(errors as Record<string, unknown>)) {
      if (Array.isArray(v)) {
        out.push(...v.filter((m): m is string => typeof m === 'string'));
      }
    }
    if (out.length) {
      return out;
    }
  }
  const b = err.body;
  return [b?.message ?? b?.error ?? err.message];
}

/** Show Recommendations: the QuickPick of the history's recommendations (a risky one marked), undefined if dismissed. */
export async function pickRecommendation(
  recs: readonly Recommendation[],
  texts: (r: Recommendation) => { label: string; evidence: string },
): Promise<Recommendation | undefined> {
  type P = vscode.QuickPickItem & { rec: Recommendation };
  const pick = await vscode.window.showQuickPick<P>(
    recs.map((rec) => {
      const t = texts(rec);
      return { label: `${rec.risky ? '$(warning) ' : '$(lightbulb) '}${t.label}`, detail: t.evidence, rec };
    }),
    {
      title: PolicyEditorStrings.recommendationsTitle,
      placeHolder: PolicyEditorStrings.recommendationsPlaceholder,
      ignoreFocusOut: true,
    },
  );
  return pick?.rec;
}
