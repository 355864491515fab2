import * as vscode from 'vscode';
import type { HistoryEntry } from './domain/history';
import type { Inbox, InboxItem } from './domain/inbox';
import type { AnswerResult, ConnectionState } from './domain/model';
import type { Recommendation } from './domain/recommendations';
import type { Config } from './platform/config';
import type { ConnectionManager } from './platform/connection';
import type { ApiKeyStore } from './platform/secrets';
import type { AnswerFlow } from './ui/answerFlow';
import type { RequestDetails } from './ui/details';
import type { PendingTree } from './ui/pendingTree';
import type { EditResult } from './ui/policyEditor';
import type { EditScript, PolicyFeature } from './ui/policyFeature';

/** What activate() returns in test mode only: read-only views plus the hooks integration tests need. */
export interface TestApi {
  readonly serverUrl: () => string | undefined;
  readonly hasKey: () => Promise<boolean>;
  readonly connectionState: () => ConnectionState;
  readonly items: () => InboxItem[];
  /** The tree as the user sees it: conversation labels/descriptions with their request rows. */
  readonly tree: () => {
    label: string;
    description: string;
    children: { label: string; description: string; contextValue: string; tooltip: string }[];
  }[];
  /** Why a request asked ("ask by kind "execute" in the agent policy"), and the toast's short form. */
  readonly provenance: (itemId: string) => { full: string; toast: Promise<string | undefined> };
  /** The policy edit flow with scripted answers in place of the QuickPicks and the modal. */
  readonly editPolicy: (script: EditScript) => Promise<{ result: EditResult; calls: string[]; errors: string[] }>;
  readonly history: () => HistoryEntry[];
  readonly recommendations: () => Recommendation[];
  readonly detailsText: (itemId: string) => string;
  /** Reveals and selects a request row in the Pending Approvals view (what a click on it does to the selection). */
  readonly selectRequest: (itemId: string) => Promise<void>;
  /** Answers through the same path as a click (click-time check, one in flight). */
  readonly answer: (itemId: string, optionId: string) => Promise<AnswerResult | undefined>;
  readonly restart: () => Promise<void>;
  /** Stream cursors persisted for the next start of VS Code, by scope (server and user). */
  readonly storedCursors: () => Record<string, unknown>;
  /** The Pending Approvals view's description (the connection problem, if any). */
  readonly viewDescription: () => string | undefined;
}

interface TestApiDeps {
  readonly context: vscode.ExtensionContext;
  readonly config: Config;
  readonly keys: ApiKeyStore;
  readonly connection: ConnectionManager;
  readonly inbox: Inbox;
  readonly tree: PendingTree;
  readonly details: RequestDetails;
  readonly flow: AnswerFlow;
  readonly policy: PolicyFeature;
}

/** Built by activate() only in ExtensionMode.Test; outside tests the extension returns nothing that can answer. */
export function createTestApi(d: TestApiDeps): TestApi {
  const { context, config, keys, connection, inbox, tree, details, flow, policy } = d;
  return {
    serverUrl: () => config.serverUrl,
    hasKey: async () => {
      const server = config.serverUrl;
      return !!server && !!(await keys.get(server));
    },
    connectionState: () => connection.state,
    items: () => inbox.all(),
    tree: () =>
      tree.getChildren().map((c) => {
        const t = tree.getTreeItem(c);
        return {
          label: labelText(t.label),
          description: String(t.description ?? ''),
          children: tree.getChildren(c).map((r) => {
            const ti = tree.getTreeItem(r);
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
    answer: (itemId, optionId) => flow.answer(itemId, optionId, 'details'),
    provenance: (itemId) => {
      const item = inbox.get(itemId);
      return item
        ? { full: policy.provenance.describe(item), toast: policy.provenance.short(item) }
        : { full: '', toast: Promise.resolve(undefined) };
    },
    editPolicy: (script) => policy.editScripted(script),
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

function labelText(l: string | vscode.TreeItemLabel | undefined): string {
  return typeof l === 'string' ? l : (l?.label ?? '');
}
