import * as vscode from 'vscode';
import type { HistoryEntry } from './domain/history';
import type { Inbox, InboxItem } from './domain/inbox';
import type { AnswerResult, ConnectionState } from './domain/model';
import type { Recommendation } from './domain/recommendations';
import type { LocalAgents } from './ui/local/feature';
import type { Config } from './platform/config';
import type { ConnectionManager } from './platform/connection';
import type { ApiKeyStore } from './platform/secrets';
import type { AnswerFlow } from './ui/answer/answerFlow';
import type { RequestDetailsView } from './ui/details/details';
import type { PendingTree } from './ui/tree/pendingTree';
import type { EditRequest, EditResult, PolicyPrompts } from './ui/policy/policyEditor';
import type { PolicyFeature } from './ui/policy/policyFeature';
import { LocalTestOverrides, labelText, localTestApi, type LocalTestApi } from './testApiLocal';

/** What activate() returns in test mode only: read-only views plus the hooks integration tests need. */
export interface TestApi {
  readonly serverUrl: () => string | undefined;
  readonly hasKey: () => Promise<boolean>;
  readonly connectionState: () => ConnectionState;
  readonly items: () => InboxItem[];
  /** The tree as the user sees it: conversation labels/descriptions with their request rows. */
  readonly tree: () => {
    /** The conversation's `conversationKey` (JSON of [source id, conversation id]). */
    key: string;
    label: string;
    description: string;
    /** Its tooltip, as on hover (resolveTreeItem). */
    tooltip: string;
    children: { label: string; description: string; contextValue: string; tooltip: string }[];
  }[];
  /** Why a request asked ("ask by kind "execute" in the agent policy"), and the toast's short form. */
  readonly provenance: (itemId: string) => { full: string; toast: Promise<string | undefined> };
  /** The policy edit flow with the test's prompts in place of the QuickPicks and the modal. */
  readonly editPolicy: (req: EditRequest, prompts: PolicyPrompts) => Promise<EditResult>;
  /** Whether dist/policyEditor.js was loaded (it must not be at activation, only on the first edit). */
  readonly policyEditorLoaded: () => boolean;
  /** Whether dist/details.js (the details document's renderer) was loaded (not at activation). */
  readonly detailsLoaded: () => boolean;
  readonly history: () => HistoryEntry[];
  readonly recommendations: () => Recommendation[];
  readonly detailsText: (itemId: string) => string;
  /** Reveals and selects a request row in the Pending Approvals view (what a click on it does to the selection). */
  readonly selectRequest: (itemId: string) => Promise<void>;
  /**
   * Answers through the same path as a click (click-time check, one in flight). `confirmDanger` stands in for the
   * modal that an allow of a dangerous request shows (it gets the danger's reason and the option id); without it,
   * the real modal shows.
   */
  readonly answer: (
    itemId: string,
    optionId: string,
    confirmDanger?: (reason: string, optionId: string) => boolean,
  ) => Promise<AnswerResult | undefined>;
  readonly restart: () => Promise<void>;
  /** Stream cursors persisted for the next start of VS Code, by scope (server and user). */
  readonly storedCursors: () => Record<string, unknown>;
  /** The Pending Approvals view's description (the connection problem, if any). */
  readonly viewDescription: () => string | undefined;
  readonly local: LocalTestApi;
}

/**
 * What activate() takes from this bundle in ExtensionMode.Test only: the local agents' options (built before them)
 * and, at the end of activation, the test API, which changes what those options read.
 */
export function testHooks(): {
  readonly localOptions: LocalTestOverrides['options'];
  readonly api: (d: TestApiDeps) => TestApi;
} {
  const overrides = new LocalTestOverrides();
  return { localOptions: overrides.options, api: (d) => createTestApi(d, overrides) };
}

interface TestApiDeps {
  readonly context: vscode.ExtensionContext;
  readonly config: Config;
  readonly keys: ApiKeyStore;
  readonly connection: ConnectionManager;
  readonly inbox: Inbox;
  readonly tree: PendingTree;
  readonly details: RequestDetailsView;
  readonly flow: AnswerFlow;
  readonly policy: PolicyFeature;
  readonly local: LocalAgents;
  /**
   * Whether each lazily loaded bundle was loaded, asked of the extension bundle's own loaders (this file is a bundle
   * of its own, so a loader imported here would be a second copy that never loads anything).
   */
  readonly bundlesLoaded: {
    readonly policyEditor: () => boolean;
    readonly details: () => boolean;
  };
}

/** Built by activate() only in ExtensionMode.Test; outside tests the extension returns nothing that can answer. */
function createTestApi(d: TestApiDeps, overrides: LocalTestOverrides): TestApi {
  const { context, config, keys, connection, inbox, tree, details, flow, policy, local, bundlesLoaded } = d;
  return {
    local: localTestApi(local, tree, overrides),
    serverUrl: () => config.serverUrl,
    hasKey: async () => {
      const server = config.serverUrl;
      return !!server && !!(await keys.get(server));
    },
    connectionState: () => connection.state,
    items: () => inbox.all(),
    tree: () =>
      tree.getChildren().map((c) => {
        const t = tree.resolveTreeItem(tree.getTreeItem(c), c); // the tooltip, as on hover
        return {
          key: c.id,
          label: labelText(t.label),
          description: String(t.description ?? ''),
          tooltip: typeof t.tooltip === 'string' ? t.tooltip : (t.tooltip?.value ?? ''),
          children: tree.getChildren(c).map((r) => {
            const ti = tree.resolveTreeItem(tree.getTreeItem(r), r); // the tooltip, as on hover
            return {
              label: labelText(ti.label),
              description: String(ti.description ?? ''),
              contextValue: ti.contextValue ?? '',
              tooltip: typeof ti.tooltip === 'string' ? ti.tooltip : (ti.tooltip?.value ?? ''),
            };
          }),
        };
      }),
    detailsText: (itemId) => {
      const item = inbox.get(itemId);
      return item ? details.render(item) : '';
    },
    selectRequest: async (itemId) => {
      const element = tree.requestElement(itemId);
      if (element) {
        await tree.view.reveal(element, { select: true, focus: true });
      }
    },
    answer: (itemId, optionId, confirmDanger) =>
      confirmDanger
        ? flow.answer(itemId, optionId, 'details', (_item, option, danger) =>
            Promise.resolve(confirmDanger(danger.reason, option.optionId)),
          )
        : flow.answer(itemId, optionId, 'details'),
    provenance: (itemId) => {
      const item = inbox.get(itemId);
      return item
        ? { full: policy.provenance.describe(item), toast: policy.provenance.short(item) }
        : { full: '', toast: Promise.resolve(undefined) };
    },
    editPolicy: (req, prompts) => policy.editor.edit(req, prompts),
    policyEditorLoaded: bundlesLoaded.policyEditor,
    detailsLoaded: bundlesLoaded.details,
    history: () => policy.historyEntries(),
    recommendations: () => policy.recommendations(),
    restart: () => connection.restart(),
    viewDescription: () => tree.view.description,
    storedCursors: () =>
      Object.fromEntries(
        context.globalState
          .keys()
          .filter((k) => k.startsWith('fountain.cursor:'))
          .map((k) => [k, context.globalState.get(k)]),
      ),
  };
}
