import * as vscode from 'vscode';
import type { HistoryLog } from '../domain/history';
import type { Inbox } from '../domain/inbox';
import type { AgentRecord } from '../domain/provenance';
import { RISKY_KINDS, type Recommendation } from '../domain/recommendations';
import type { AgentApi } from '../platform/agentApi';
import type { Logger } from '../platform/log';
import {
  ASK_TIMEOUT_KEY,
  DEFAULT_KEY,
  TOOL_KINDS,
  VERDICTS,
  isVerdict,
  validatePolicy,
  verdictOf,
  type Verdict,
} from '../policy';
import { FountainHttpError } from '../protocol/apiClient';
import { Disposable } from '../util/lifecycle';
import { inertLine, pickText } from './display';
import { recommendationEvidence, recommendationLabel, type HistoryTree } from './historyView';
import type { PendingTree } from './pendingTree';
import type { ProvenanceService } from './provenance';
import { HistoryStrings, PolicyStrings } from './strings';

export const POLICY_SCHEME = 'fountain-policy';

/** A change the user picked in the key list. */
export type KeyAction =
  { readonly type: 'key'; readonly key: string } | { readonly type: 'timeout' } | { readonly type: 'review' };

/** What the editor shows for one key. */
export interface KeyRow {
  readonly key: string;
  readonly group: 'kind' | 'title' | 'default';
  /** What the current draft gives the key (explicit or through `default`). */
  readonly verdict: Verdict;
  readonly explicit: boolean;
  /** What the stored policy gave it, when the draft changed it. */
  readonly before?: Verdict | 'unset';
}

export interface EditView {
  readonly agentLabel: string;
  readonly title: string;
  readonly rows: readonly KeyRow[];
  readonly askTimeout: unknown;
  readonly changes: number;
}

/** Every user interaction of the edit flow; the real one uses QuickPicks, tests script it. */
export interface PolicyPrompts {
  pickAgent(choices: readonly { id: string; name?: string }[]): Promise<string | undefined>;
  pickKey(view: EditView): Promise<KeyAction | undefined>;
  pickVerdict(key: string, current: Verdict, explicit: boolean): Promise<Verdict | 'remove' | undefined>;
  inputTimeout(current: unknown): Promise<string | undefined>;
  /** The expanded warning before loosening execute/delete; true only on explicit acceptance. */
  confirmRisk(kind: string): Promise<boolean>;
  preview(agentLabel: string, before: Record<string, unknown>, after: Record<string, unknown>): Promise<void>;
  confirm(agentLabel: string, changes: readonly string[]): Promise<boolean>;
  showError(message: string): void;
  showInfo(message: string): void;
}

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
export class PolicyEditor extends Disposable implements vscode.TextDocumentContentProvider {
  private readonly docs = new Map<string, string>();
  private seq = 0;

  constructor(
    private readonly api: AgentApi,
    private readonly provenance: ProvenanceService,
    private readonly inbox: Inbox,
    private readonly history: HistoryLog,
    private readonly log: Logger,
  ) {
    super();
    this._register(vscode.workspace.registerTextDocumentContentProvider(POLICY_SCHEME, this));
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.docs.get(uri.query) ?? '';
  }

  /** Agents known on `server`: from conversations in the inbox and from the approval history. */
  knownAgents(server: string): { id: string; name?: string }[] {
    const seen = new Map<string, string | undefined>();
    for (const item of this.inbox.all()) {
      const c = item.conversation;
      if (c.server === server && c.agentId) {
        seen.set(c.agentId, c.agentName ?? seen.get(c.agentId));
      }
    }
    for (const e of this.history.entries()) {
      if (e.server === server && e.agentId && !seen.has(e.agentId)) {
        seen.set(e.agentId, e.agentName);
      }
    }
    return [...seen].map(([id, name]) => (name ? { id, name } : { id }));
  }

  async edit(req: EditRequest, prompts: PolicyPrompts): Promise<EditResult> {
    const server = req.server ?? this.api.currentServer();
    if (!server) {
      prompts.showError(PolicyStrings.notConfigured);
      return { kind: 'failed', message: 'not configured' };
    }
    const agentId = req.agentId ?? (await prompts.pickAgent(this.knownAgents(server)));
    if (!agentId) {
      return { kind: 'cancelled', stage: 'agent' };
    }
    let agent: AgentRecord;
    try {
      agent = await this.api.getAgent(server, agentId);
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      prompts.showError(PolicyStrings.readFailed(inertLine(reason)));
      return { kind: 'failed', message: reason };
    }
    const agentLabel = inertLine(agent.name ? `${agent.name} (${agent.id})` : agent.id);
    const before: Record<string, unknown> = { ...agent.policy };
    const draft: Record<string, unknown> = { ...agent.policy };
    const title = req.kind
      ? PolicyStrings.changeTitle(inertLine(req.kind), agentLabel)
      : PolicyStrings.editTitle(agentLabel);

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
      prompts.showInfo(PolicyStrings.noChanges);
      return { kind: 'cancelled', stage: 'noChanges' };
    }
    const valid = validatePolicy(draft, agent.runtime ? { runtime: agent.runtime } : undefined);
    if (!valid.ok) {
      this.log.info(`refused locally to PATCH agent ${JSON.stringify(agent.id)}: ${valid.errors.join('; ')}`);
      prompts.showError(PolicyStrings.refusedLocally(valid.errors.map((m) => inertLine(m)).join('; ')));
      return { kind: 'refusedLocally', errors: valid.errors };
    }
    await prompts.preview(agentLabel, before, valid.policy);
    if (!(await prompts.confirm(agentLabel, changes))) {
      return { kind: 'cancelled', stage: 'confirm' };
    }
    try {
      const saved = await this.api.patchPolicy(server, agent.id, valid.policy);
      this.provenance.cache.set(server, saved);
      prompts.showInfo(PolicyStrings.applied(agentLabel));
      return { kind: 'patched', policy: saved.policy };
    } catch (err) {
      const serverErrors = changesetMessages(err);
      if (serverErrors) {
        prompts.showError(PolicyStrings.refusedByServer(serverErrors.map((m) => inertLine(m)).join('; ')));
        return { kind: 'refusedByServer', errors: serverErrors };
      }
      const message = err instanceof Error ? err.message : String(err);
      prompts.showError(PolicyStrings.patchFailed(inertLine(message)));
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

  /** The real prompts: QuickPicks, an input box, a diff editor and a modal. */
  vscodePrompts(): PolicyPrompts {
    return {
      pickAgent: async (choices) => {
        type P = vscode.QuickPickItem & { id?: string };
        const items: P[] = choices.map((c) => ({
          label: pickText(c.name ?? c.id),
          description: c.name ? pickText(c.id) : undefined,
          id: c.id,
        }));
        items.push({ label: PolicyStrings.enterAgentId, alwaysShow: true });
        const pick = await vscode.window.showQuickPick(items, {
          title: PolicyStrings.pickAgentTitle,
          placeHolder: PolicyStrings.pickAgentPlaceholder,
          ignoreFocusOut: true,
        });
        if (!pick) {
          return undefined;
        }
        if (pick.id) {
          return pick.id;
        }
        const typed = await vscode.window.showInputBox({ prompt: PolicyStrings.agentIdPrompt, ignoreFocusOut: true });
        return typed?.trim() || undefined;
      },
      pickKey: async (view) => {
        type P = vscode.QuickPickItem & { action?: KeyAction };
        const items: P[] = [];
        if (view.changes > 0) {
          items.push({
            label: PolicyStrings.review,
            detail: PolicyStrings.reviewDetail(view.changes),
            action: { type: 'review' },
          });
        }
        const rowItem = (r: KeyRow): P => ({
          label: r.group === 'title' ? pickText(r.key) : r.key,
          description:
            r.before !== undefined
              ? PolicyStrings.changed(r.before, r.explicit ? r.verdict : PolicyStrings.inherited(r.verdict, 'default'))
              : r.explicit
                ? PolicyStrings.explicit(r.verdict)
                : PolicyStrings.inherited(r.verdict, r.group === 'default' ? 'built-in' : 'default'),
          action: { type: 'key', key: r.key },
        });
        items.push({ label: PolicyStrings.kindsSeparator, kind: vscode.QuickPickItemKind.Separator });
        items.push(...view.rows.filter((r) => r.group !== 'title').map(rowItem));
        const titles = view.rows.filter((r) => r.group === 'title');
        if (titles.length) {
          items.push({ label: PolicyStrings.titlesSeparator, kind: vscode.QuickPickItemKind.Separator });
          items.push(...titles.map(rowItem));
        }
        items.push({ label: PolicyStrings.otherSeparator, kind: vscode.QuickPickItemKind.Separator });
        items.push({
          label: PolicyStrings.askTimeout,
          description:
            view.askTimeout === undefined
              ? PolicyStrings.askTimeoutNone
              : pickText(JSON.stringify(view.askTimeout) ?? ''),
          detail: PolicyStrings.askTimeoutDetail,
          action: { type: 'timeout' },
        });
        const pick = await vscode.window.showQuickPick(items, {
          title: view.title,
          placeHolder: PolicyStrings.editPlaceholder,
          ignoreFocusOut: true,
          matchOnDescription: true,
        });
        return pick?.action;
      },
      pickVerdict: async (key, current, explicit) => {
        type P = vscode.QuickPickItem & { value: Verdict | 'remove' };
        const detail: Record<Verdict, string> = {
          auto_allow: PolicyStrings.verdictAllow,
          ask: PolicyStrings.verdictAsk,
          auto_deny: PolicyStrings.verdictDeny,
        };
        const items: P[] = VERDICTS.map((v) => ({
          label: v,
          description: v === current ? '$(check)' : undefined,
          detail: detail[v],
          value: v,
        }));
        if (explicit && key !== DEFAULT_KEY) {
          items.push({ label: PolicyStrings.remove, detail: PolicyStrings.removeDetail, value: 'remove' });
        }
        const pick = await vscode.window.showQuickPick(items, {
          title: PolicyStrings.verdictTitle(inertLine(key)),
          ignoreFocusOut: true,
        });
        return pick?.value;
      },
      inputTimeout: (current) =>
        Promise.resolve(
          vscode.window.showInputBox({
            prompt: PolicyStrings.askTimeoutPrompt,
            value: typeof current === 'number' || typeof current === 'string' ? String(current) : '',
            ignoreFocusOut: true,
          }),
        ),
      confirmRisk: async (kind) => {
        const accept = PolicyStrings.riskAccept;
        const pick = await vscode.window.showWarningMessage(
          PolicyStrings.riskTitle(inertLine(kind)),
          { modal: true, detail: PolicyStrings.riskDetail(kind) },
          accept,
        );
        return pick === accept;
      },
      preview: async (agentLabel, before, after) => {
        const n = ++this.seq;
        const left = `before-${n}`;
        const right = `after-${n}`;
        this.docs.set(left, JSON.stringify(before, null, 2) + '\n');
        this.docs.set(right, JSON.stringify(after, null, 2) + '\n');
        const uri = (q: string, name: string) => vscode.Uri.from({ scheme: POLICY_SCHEME, path: `/${name}`, query: q });
        await vscode.commands.executeCommand(
          'vscode.diff',
          uri(left, 'current-policy.json'),
          uri(right, 'proposed-policy.json'),
          PolicyStrings.previewTitle(agentLabel),
          { preview: true, preserveFocus: true },
        );
      },
      confirm: async (agentLabel, changes) => {
        const apply = PolicyStrings.apply;
        const pick = await vscode.window.showWarningMessage(
          PolicyStrings.confirm(agentLabel),
          { modal: true, detail: PolicyStrings.confirmDetail(changes.join('\n')) },
          apply,
        );
        return pick === apply;
      },
      showError: (m) => void vscode.window.showErrorMessage(m),
      showInfo: (m) => void vscode.window.showInformationMessage(m),
    };
  }

  /** Registers the editor's commands. */
  register(deps: { tree: PendingTree; historyTree: HistoryTree }): vscode.Disposable[] {
    const r = vscode.commands.registerCommand;
    return [
      r('fountain.policy.edit', () => this.edit({}, this.vscodePrompts())),
      r('fountain.request.changePolicy', async (arg?: unknown) => {
        const sel = arg === undefined ? deps.tree.view.selection[0] : arg;
        if (!deps.tree.isIssued(sel)) {
          return undefined;
        }
        const item = deps.tree.itemOf(sel);
        if (!item?.conversation.agentId) {
          void vscode.window.showInformationMessage(PolicyStrings.noAgent);
          return undefined;
        }
        const kind = item.request.kind && TOOL_KINDS.includes(item.request.kind) ? item.request.kind : undefined;
        return this.edit(
          { server: item.key.server, agentId: item.conversation.agentId, ...(kind ? { kind } : {}) },
          this.vscodePrompts(),
        );
      }),
      r('fountain.policy.applyRecommendation', async (arg?: unknown) => {
        if (!deps.historyTree.isIssued(arg) || (arg.kind !== 'recommendation' && arg.kind !== 'proceed')) {
          return undefined;
        }
        return this.applyRecommendation(arg.rec, this.vscodePrompts());
      }),
      r('fountain.policy.recommendations', async () => {
        const recs = deps.historyTree.recommendations();
        if (!recs.length) {
          void vscode.window.showInformationMessage(HistoryStrings.noRecommendations);
          return undefined;
        }
        type P = vscode.QuickPickItem & { rec: Recommendation };
        const pick = await vscode.window.showQuickPick<P>(
          recs.map((rec) => ({
            label: `${rec.risky ? '$(warning) ' : '$(lightbulb) '}${recommendationLabel(rec)}`,
            detail: recommendationEvidence(rec),
            rec,
          })),
          {
            title: HistoryStrings.recommendationsTitle,
            placeHolder: HistoryStrings.recommendationsPlaceholder,
            ignoreFocusOut: true,
          },
        );
        return pick ? this.applyRecommendation(pick.rec, this.vscodePrompts()) : undefined;
      }),
    ];
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
function changesetMessages(err: unknown): string[] | undefined {
  if (!(err instanceof FountainHttpError) || err.status !== 422) {
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
