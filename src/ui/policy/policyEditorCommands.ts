/**
 * The agent-policy editor's activation-time part: its commands and the `fountain-policy:` documents (the diff
 * preview). The editor itself (policyEditor.ts, its prompts, strings and the policy validator) is built as its own
 * bundle, dist/policyEditor.js, and loaded on the first edit: dist/extension.js and activation do not pay for it.
 * Only types are imported from policyEditor.ts here.
 */
import * as vscode from 'vscode';
import type { HistoryLog } from '../../domain/history';
import type { Inbox } from '../../domain/inbox';
import type { Recommendation } from '../../domain/recommendations';
import type { AgentApi } from '../../platform/agentApi';
import type { WaitingRequests } from '../always/alwaysContext';
import type { Logger } from '../../platform/log';
import { TOOL_KINDS } from '../../policy/verdicts';
import { FountainHttpError } from '../../protocol/apiClient';
import { Disposable } from '../../util/lifecycle';
import { lazyBundle } from '../lazyBundle';
import type { HistoryTree } from '../history/historyView';
import type { PendingTree } from '../tree/pendingTree';
import type { EditRequest, EditResult, PolicyEditor, PolicyPrompts } from './policyEditor';
import type { ProvenanceService } from './provenanceService';
import { HistoryStrings, PolicyStrings } from '../strings';

export const POLICY_SCHEME = 'fountain-policy';

export const policyEditorBundle = lazyBundle<typeof import('./policyEditor')>('policyEditor.js');

/**
 * Registers the editor's commands and content provider at activation; builds the PolicyEditor from its bundle on the
 * first call of any of them.
 */
export class PolicyEditorCommands extends Disposable implements vscode.TextDocumentContentProvider {
  private readonly docs = new Map<string, string>();
  private seq = 0;
  private editor: PolicyEditor | undefined;

  constructor(
    private readonly deps: {
      readonly api: AgentApi;
      readonly provenance: ProvenanceService;
      readonly inbox: Inbox;
      readonly history: HistoryLog;
      readonly waiting: WaitingRequests;
      readonly log: Logger;
    },
  ) {
    super();
    this._register(vscode.workspace.registerTextDocumentContentProvider(POLICY_SCHEME, this));
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.docs.get(uri.query) ?? '';
  }

  /** The edit flow with the given prompts (the commands pass the real QuickPicks, tests a script). */
  edit(req: EditRequest, prompts: PolicyPrompts): Promise<EditResult> {
    return this.load().edit(req, prompts);
  }

  /** The real prompts: QuickPicks, an input box, a diff editor (documents served from here) and a modal. */
  vscodePrompts(): PolicyPrompts {
    return policyEditorBundle.load().vscodePolicyPrompts((before, after) => {
      const n = ++this.seq;
      this.docs.set(`before-${n}`, JSON.stringify(before, null, 2) + '\n');
      this.docs.set(`after-${n}`, JSON.stringify(after, null, 2) + '\n');
      const uri = (q: string, name: string) => vscode.Uri.from({ scheme: POLICY_SCHEME, path: `/${name}`, query: q });
      return { left: uri(`before-${n}`, 'current-policy.json'), right: uri(`after-${n}`, 'proposed-policy.json') };
    });
  }

  private load(): PolicyEditor {
    if (!this.editor) {
      const { api, provenance, inbox, history, waiting, log } = this.deps;
      // The HTTP error class is this bundle's: the editor recognises the server's 422 by it.
      this.editor = new (policyEditorBundle.load().PolicyEditor)(
        api,
        provenance,
        inbox,
        history,
        waiting,
        log,
        FountainHttpError,
      );
    }
    return this.editor;
  }

  /** Registers the editor's commands. */
  register(deps: { tree: PendingTree; historyTree: HistoryTree }): vscode.Disposable[] {
    const r = vscode.commands.registerCommand;
    const apply = (rec: Recommendation) => this.load().applyRecommendation(rec, this.vscodePrompts());
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
        return apply(arg.rec);
      }),
      r('fountain.policy.recommendations', async () => {
        const recs = deps.historyTree.recommendations();
        if (!recs.length) {
          void vscode.window.showInformationMessage(HistoryStrings.noRecommendations);
          return undefined;
        }
        const rec = await policyEditorBundle.load().pickRecommendation(recs, (r) => deps.historyTree.texts(r));
        return rec ? apply(rec) : undefined;
      }),
    ];
  }
}
