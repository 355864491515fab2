/** The agent-policy editor's vocabulary (what it shows, what the user picks) and its real VS Code prompts. */
import * as vscode from 'vscode';
import { showErrorWithLogs } from '../../platform/window';
import { DEFAULT_KEY, VERDICTS, type Verdict } from '../../policy';
import type { AgentChoice } from '../../domain/agentChoices';
import { inertLine, pickText } from '../display';
import { Counted } from '../plainWords';
import { Time } from '../time';
import { PolicyEditorStrings, RiskStrings } from './policyEditorStrings';

/** The agents to pick from: those this window saw, shown at once, and the same with the server's list merged in. */
export interface AgentPick {
  readonly seen: readonly AgentChoice[];
  readonly full: Promise<{ readonly choices: readonly AgentChoice[]; readonly listFailed: boolean }>;
}

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
  /** The agent whose policy to edit, by its id (picked by name, or typed); undefined: cancelled. */
  pickAgent(pick: AgentPick): Promise<string | undefined>;
  pickKey(view: EditView): Promise<KeyAction | undefined>;
  pickVerdict(key: string, current: Verdict, explicit: boolean): Promise<Verdict | 'remove' | undefined>;
  inputTimeout(current: unknown): Promise<string | undefined>;
  /** The expanded warning before loosening execute/delete; true only on explicit acceptance. */
  confirmRisk(kind: string): Promise<boolean>;
  preview(agentLabel: string, before: Record<string, unknown>, after: Record<string, unknown>): Promise<void>;
  /**
   * The one confirmation before the PATCH. `review`: the dry run's lines and how many waiting requests of the agent
   * it lists. True: PATCH and answer those (each with its own allow-once); `'policyOnly'`: PATCH only; false: nothing.
   */
  confirm(
    agentLabel: string,
    changes: readonly string[],
    review?: { readonly lines: readonly string[]; readonly waiting: number },
  ): Promise<boolean | 'policyOnly'>;
  showError(message: string): void;
  showInfo(message: string): void;
}

const OTHER_AGENT = Symbol('another agent');
type AgentItem = vscode.QuickPickItem & { readonly id?: string | typeof OTHER_AGENT };

/** One agent as a pick: its name (else plain words and its runtime), what runs it, and its id as the detail. */
function agentItem(a: AgentChoice, now: number): AgentItem {
  const sandbox = [a.sandboxProvider, a.sandboxMode].filter((v): v is string => v !== undefined).join(' ');
  const activity = [
    ...(a.lastActive !== undefined ? [PolicyEditorStrings.lastActive(Time.ago(Math.max(0, now - a.lastActive)))] : []),
    ...(a.conversationCount !== undefined ? [Counted.conversations(a.conversationCount)] : []),
  ];
  return {
    label: a.name !== undefined ? pickText(a.name) : PolicyEditorStrings.unnamedAgentPick,
    description: [
      ...(a.runtime !== undefined ? [pickText(a.runtime)] : []),
      ...(sandbox ? [PolicyEditorStrings.sandbox(pickText(sandbox))] : []),
      ...activity,
    ].join(' · '),
    detail: PolicyEditorStrings.agentIdDetail(pickText(a.id)),
    id: a.id,
  };
}

/**
 * The agent QuickPick: the agents this window saw at once, busy until the server's list comes, then all of them
 * (the active row kept). Last, the way to type an id for an agent the list does not show.
 */
async function pickAgentItem(pick: AgentPick): Promise<string | typeof OTHER_AGENT | undefined> {
  const qp = vscode.window.createQuickPick<AgentItem>();
  qp.title = PolicyEditorStrings.pickAgentTitle;
  qp.placeholder = PolicyEditorStrings.pickAgentPlaceholder;
  qp.ignoreFocusOut = true;
  qp.matchOnDescription = true;
  qp.matchOnDetail = true;
  const other: AgentItem = {
    label: PolicyEditorStrings.otherAgent,
    detail: PolicyEditorStrings.otherAgentDetail,
    alwaysShow: true,
    id: OTHER_AGENT,
  };
  const show = (choices: readonly AgentChoice[], note?: string) => {
    const active = qp.activeItems[0]?.id;
    const now = Date.now();
    const items: AgentItem[] = [
      ...(note ? [{ label: note, kind: vscode.QuickPickItemKind.Separator }] : []),
      ...choices.map((a) => agentItem(a, now)),
      { label: '', kind: vscode.QuickPickItemKind.Separator },
      other,
    ];
    qp.items = items;
    const keep = items.find((i) => i.id !== undefined && i.id === active);
    if (keep) {
      qp.activeItems = [keep];
    }
  };
  show(pick.seen);
  qp.busy = true;
  let done = false;
  void pick.full.then(({ choices, listFailed }) => {
    if (!done) {
      qp.busy = false;
      show(choices, listFailed ? PolicyEditorStrings.agentListFailed : undefined);
    }
  });
  try {
    return await new Promise((resolve) => {
      qp.onDidAccept(() => resolve(qp.selectedItems[0]?.id));
      qp.onDidHide(() => resolve(undefined));
      qp.show();
    });
  } finally {
    done = true;
    qp.dispose();
  }
}

/**
 * The policy editor's real prompts: QuickPicks, an input box, a diff editor and a modal. `putDocs` stores the two
 * policies as documents of the `fountain-policy:` content provider and returns their URIs.
 */
export function vscodePolicyPrompts(
  putDocs: (before: Record<string, unknown>, after: Record<string, unknown>) => { left: vscode.Uri; right: vscode.Uri },
): PolicyPrompts {
  return {
    pickAgent: async (pick) => {
      const id = await pickAgentItem(pick);
      if (id !== OTHER_AGENT) {
        return id;
      }
      const typed = await vscode.window.showInputBox({
        title: PolicyEditorStrings.pickAgentTitle,
        prompt: PolicyEditorStrings.agentIdPrompt,
        ignoreFocusOut: true,
      });
      return typed?.trim() || undefined;
    },
    pickKey: async (view) => {
      type P = vscode.QuickPickItem & { action?: KeyAction };
      const items: P[] = [];
      if (view.changes > 0) {
        items.push({
          label: PolicyEditorStrings.review,
          detail: PolicyEditorStrings.reviewDetail(view.changes),
          action: { type: 'review' },
        });
      }
      const rowItem = (r: KeyRow): P => ({
        label: r.group === 'title' ? pickText(r.key) : r.key,
        description:
          r.before !== undefined
            ? PolicyEditorStrings.changed(
                r.before,
                r.explicit ? r.verdict : PolicyEditorStrings.inheritedDefault(r.verdict),
              )
            : r.explicit
              ? PolicyEditorStrings.explicit(r.verdict)
              : r.group === 'default'
                ? PolicyEditorStrings.inheritedBuiltin(r.verdict)
                : PolicyEditorStrings.inheritedDefault(r.verdict),
        action: { type: 'key', key: r.key },
      });
      items.push({ label: PolicyEditorStrings.kindsSeparator, kind: vscode.QuickPickItemKind.Separator });
      items.push(...view.rows.filter((r) => r.group !== 'title').map(rowItem));
      const titles = view.rows.filter((r) => r.group === 'title');
      if (titles.length) {
        items.push({ label: PolicyEditorStrings.titlesSeparator, kind: vscode.QuickPickItemKind.Separator });
        items.push(...titles.map(rowItem));
      }
      items.push({ label: PolicyEditorStrings.otherSeparator, kind: vscode.QuickPickItemKind.Separator });
      items.push({
        label: PolicyEditorStrings.askTimeout,
        description:
          view.askTimeout === undefined
            ? PolicyEditorStrings.askTimeoutNone
            : pickText(JSON.stringify(view.askTimeout) ?? ''),
        detail: PolicyEditorStrings.askTimeoutDetail,
        action: { type: 'timeout' },
      });
      const pick = await vscode.window.showQuickPick(items, {
        title: view.title,
        placeHolder: PolicyEditorStrings.editPlaceholder,
        ignoreFocusOut: true,
        matchOnDescription: true,
      });
      return pick?.action;
    },
    pickVerdict: async (key, current, explicit) => {
      type P = vscode.QuickPickItem & { value: Verdict | 'remove' };
      const detail: Record<Verdict, string> = {
        auto_allow: PolicyEditorStrings.verdictAllow,
        ask: PolicyEditorStrings.verdictAsk,
        auto_deny: PolicyEditorStrings.verdictDeny,
      };
      const items: P[] = VERDICTS.map((v) => ({
        label: v,
        description: v === current ? '$(check)' : undefined,
        detail: detail[v],
        value: v,
      }));
      if (explicit && key !== DEFAULT_KEY) {
        items.push({ label: PolicyEditorStrings.remove, detail: PolicyEditorStrings.removeDetail, value: 'remove' });
      }
      const pick = await vscode.window.showQuickPick(items, {
        title: PolicyEditorStrings.verdictTitle(inertLine(key)),
        ignoreFocusOut: true,
      });
      return pick?.value;
    },
    inputTimeout: (current) =>
      Promise.resolve(
        vscode.window.showInputBox({
          prompt: PolicyEditorStrings.askTimeoutPrompt,
          value: typeof current === 'number' || typeof current === 'string' ? String(current) : '',
          ignoreFocusOut: true,
        }),
      ),
    confirmRisk: async (kind) => {
      const accept = PolicyEditorStrings.riskAccept;
      const pick = await vscode.window.showWarningMessage(
        RiskStrings.riskTitle(inertLine(kind)),
        { modal: true, detail: RiskStrings.riskDetail(kind) },
        accept,
      );
      return pick === accept;
    },
    preview: async (agentLabel, before, after) => {
      const { left, right } = putDocs(before, after);
      await vscode.commands.executeCommand('vscode.diff', left, right, PolicyEditorStrings.previewTitle(agentLabel), {
        preview: true,
        preserveFocus: true,
      });
    },
    confirm: async (agentLabel, changes, review) => {
      const apply = PolicyEditorStrings.apply;
      const waiting = review?.waiting ?? 0;
      const applyAll = PolicyEditorStrings.applyAndAllow(waiting);
      const detail = [
        PolicyEditorStrings.confirmDetail(changes.join('\n')),
        ...(review ? ['', ...review.lines] : []),
      ].join('\n');
      const pick = await vscode.window.showWarningMessage(
        PolicyEditorStrings.confirm(agentLabel),
        { modal: true, detail },
        ...(waiting > 0 ? [applyAll, apply] : [apply]),
      );
      return pick === applyAll ? true : pick === apply ? (waiting > 0 ? 'policyOnly' : true) : false;
    },
    showError: (m) => void showErrorWithLogs(m),
    showInfo: (m) => void vscode.window.showInformationMessage(m),
  };
}
