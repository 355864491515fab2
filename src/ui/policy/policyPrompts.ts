/** The agent-policy editor's vocabulary (what it shows, what the user picks) and its real VS Code prompts. */
import * as vscode from 'vscode';
import { showErrorWithLogs } from '../../platform/window';
import { DEFAULT_KEY, VERDICTS, type Verdict } from '../../policy';
import { inertLine, pickText } from '../display';
import { PolicyEditorStrings, RiskStrings } from './policyEditorStrings';

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

/**
 * The policy editor's real prompts: QuickPicks, an input box, a diff editor and a modal. `putDocs` stores the two
 * policies as documents of the `fountain-policy:` content provider and returns their URIs.
 */
export function vscodePolicyPrompts(
  putDocs: (before: Record<string, unknown>, after: Record<string, unknown>) => { left: vscode.Uri; right: vscode.Uri },
): PolicyPrompts {
  return {
    pickAgent: async (choices) => {
      type P = vscode.QuickPickItem & { id?: string };
      const items: P[] = choices.map((c) => ({
        label: pickText(c.name ?? c.id),
        description: c.name ? pickText(c.id) : undefined,
        id: c.id,
      }));
      items.push({ label: PolicyEditorStrings.enterAgentId, alwaysShow: true });
      const pick = await vscode.window.showQuickPick(items, {
        title: PolicyEditorStrings.pickAgentTitle,
        placeHolder: PolicyEditorStrings.pickAgentPlaceholder,
        ignoreFocusOut: true,
      });
      if (!pick) {
        return undefined;
      }
      if (pick.id) {
        return pick.id;
      }
      const typed = await vscode.window.showInputBox({
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
