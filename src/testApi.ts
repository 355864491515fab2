import * as vscode from 'vscode';
import type { HistoryEntry } from './domain/history';
import type { Inbox, InboxItem } from './domain/inbox';
import type { AnswerResult, ConnectionState } from './domain/model';
import type { Recommendation } from './domain/recommendations';
import { agentChoices } from './ui/local/agentPicker';
import type { LocalAgents, LocalAgentsOptions } from './ui/local/feature';
import type { SessionWireListener } from './ui/local/manager';
import type { SourceEnv } from './local/launch';
import type { Config } from './platform/config';
import type { ConnectionManager } from './platform/connection';
import type { ApiKeyStore } from './platform/secrets';
import type { AnswerFlow } from './ui/answer/answerFlow';
import type { RequestDetailsView } from './ui/details/details';
import type { PendingTree } from './ui/tree/pendingTree';
import type { EditRequest, EditResult, PolicyPrompts } from './ui/policy/policyEditor';
import type { PolicyFeature } from './ui/policy/policyFeature';
import type { GateMode, Grant } from './local';
import type { ApprovalEntry } from './policy';
import type { GatePrompts, ModeResult, RecommendResult } from './ui/local/gateCommands';
import type { ShownGesture } from './ui/local/gestures';

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

export interface LocalTestApi {
  /** The local sessions as the tree will list them. */
  readonly sessions: () => { id: string; agentName: string; folder: string; status: string; pid?: number }[];
  /** The statuses a session went through since it was listed (starting is before the listing). */
  readonly statusLog: (id: string) => string[];
  readonly transcript: (id: string) => string;
  /** Where the next agents get their variables from (PATH to find them, the fake model's URL); undefined resets. */
  readonly useSourceEnv: (env: Record<string, string> | undefined) => void;
  /** Every JSON-RPC line between us and the agents started after the first call (`out`: to the agent), oldest first. */
  readonly wire: () => { session?: string; direction: 'out' | 'in'; message: unknown }[];
  /** What Start Local Agent offers (presets, then the setting's entries): id, name and the missing-command hint. */
  readonly choices: () => Promise<{ id: string; name: string; missing?: string; asking?: string }[]>;
  /**
   * The gesture prompt on screen (Start's confirmation, the mode pick, Send Prompt's input box), and how many were
   * shown: tests answer the real prompt with the workbench's commands (src/ui/local/gestures.ts). None before the
   * local agents' UI is loaded.
   */
  readonly gesture: () => ShownGesture | undefined;
  readonly gestureCount: () => number;
  /** Opens a prompt draft editor for the session, as the Send Prompt input box's Compose in Editor button does. */
  readonly openDraft: (id: string) => Promise<void>;
  /** A session's grants, as its local gate holds them (JSON copies). */
  readonly gateGrants: (sessionId: string) => unknown[];
  /** Whether dist/local.js was loaded (it must not be at activation). */
  readonly bundleLoaded: () => boolean;
  /** Whether dist/localui.js (commands, transcripts) was loaded (it must not be at activation). */
  readonly uiLoaded: () => boolean;
  /**
   * Runs the Start Local Agent command while the manager's trust check says untrusted (this harness runs with
   * workspace trust disabled). Returns what the command returned, the refusal messages, how often src/local was
   * asked for (every spawn goes through it) and how many sessions were added.
   */
  readonly startUntrusted: (args: {
    agent: string;
    folder: string;
  }) => Promise<{ result: string | undefined; refusals: string[]; loads: number; sessions: number }>;
  readonly gate: LocalGateTestApi;
}

/** The local gate's commands with the test's answers in place of pickers and modals (the same code runs). */
export interface LocalGateTestApi {
  /** The session's gate: mode, grants, and the approval log the recommendations read. */
  readonly state: (id: string) => { mode: GateMode; grants: Grant[]; approvals: ApprovalEntry[] } | undefined;
  /** Change Local Agent Mode… with `mode` picked; `confirmYolo` answers the yolo modal (default: cancel). */
  readonly setMode: (id: string, mode: GateMode, confirmYolo?: boolean) => Promise<ModeResult | undefined>;
  /** The same, while the manager's trust check says untrusted (every gate told so first, and told again after). */
  readonly setModeUntrusted: (id: string, mode: GateMode) => Promise<ModeResult | undefined>;
  /** Adds a session grant as a grant choice does (LocalGate.addGrant). */
  readonly addGrant: (id: string, grant: Grant) => boolean;
  /** Runs Revoke Grant on the tree's own row whose label is `label` (what the inline action does); false if none. */
  readonly revokeRow: (label: string) => Promise<boolean>;
  /** What Would Happen… with `text` typed (and `access` picked for a path): the answers and the modal's text. */
  readonly whatWouldHappen: (
    id: string,
    text: string,
    access?: 'read' | 'write',
  ) => Promise<{ answers: { probe: string; verdict: string; rule: string; reason: string }[]; shown: string[] }>;
  /** Recommend Local Allow Patterns… picking `pattern` (undefined: cancel the pick) and answering the preview. */
  readonly recommend: (
    id: string,
    pattern: string | undefined,
    confirm: boolean,
  ) => Promise<{ result: RecommendResult | undefined; preview?: { title: string; detail: string } }>;
  /** The yolo status bar item's text while shown. */
  readonly yoloStatus: () => string | undefined;
  /** How often the Pending Approvals tree told VS Code to redraw since the test API was made. */
  readonly treeRedraws: () => number;
  /** The latest gate lines written to the Fountain Approvals log (decisions, mode and grant changes). */
  readonly logLines: () => readonly string[];
  /** The fountain.local settings problems last shown in a warning ('' when none). */
  readonly settingsProblems: () => string;
}

/**
 * What the tests change in the local agents. activate() builds it in ExtensionMode.Test, before the local agents, and
 * gives them {@link LocalTestOverrides.options} as composition-root parameters (the product passes none); the test API
 * sets its fields.
 */
class LocalTestOverrides {
  /** The trust check's answer instead of the workspace's (this harness cannot run an untrusted workspace). */
  trusted: boolean | undefined;
  /** Where the next agents get their variables (and PATH) from; undefined: the extension host's environment. */
  sourceEnv: SourceEnv | undefined;
  /** Every JSON-RPC line of the agents started while it is set. */
  wireTap: SessionWireListener | undefined;
  readonly options: Pick<LocalAgentsOptions, 'isTrusted' | 'sourceEnv' | 'wireTap'> = {
    isTrusted: () => this.trusted ?? vscode.workspace.isTrusted,
    sourceEnv: () => this.sourceEnv ?? process.env,
    wireTap: () => this.wireTap,
  };
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
        const t = tree.getTreeItem(c);
        return {
          key: c.id,
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

function localTestApi(local: LocalAgents, tree: PendingTree, overrides: LocalTestOverrides): LocalTestApi {
  const statuses = new Map<string, string[]>();
  let wire: { session?: string; direction: 'out' | 'in'; message: unknown }[] | undefined;
  local.onDidChangeSessions(() => {
    for (const s of local.sessions) {
      const seen = statuses.get(s.id) ?? [];
      if (seen[seen.length - 1] !== s.status) {
        seen.push(s.status);
      }
      statuses.set(s.id, seen);
    }
  });
  return {
    sessions: () =>
      local.sessions.map((s) => ({
        id: s.id,
        agentName: s.agentName,
        folder: s.folder.name,
        status: s.status,
        ...(s.pid !== undefined ? { pid: s.pid } : {}),
      })),
    statusLog: (id) => [...(statuses.get(id) ?? [])],
    transcript: (id) => local.session(id)?.session.transcript.render() ?? '',
    useSourceEnv: (env) => {
      overrides.sourceEnv = env;
    },
    wire: () => {
      if (!wire) {
        wire = [];
        const lines = wire;
        overrides.wireTap = (session, direction, line) => {
          let message: unknown = line;
          try {
            message = JSON.parse(line) as unknown;
          } catch {
            // kept as text
          }
          lines.push({ ...(session !== undefined ? { session } : {}), direction, message });
        };
      }
      return [...wire];
    },
    gateGrants: (id) => (local.session(id)?.gate.grants ?? []).map((g) => ({ ...g })),
    bundleLoaded: () => local.bundleLoaded(),
    uiLoaded: () => local.uiLoaded(),
    gesture: () => (local.uiLoaded() ? local.ui().commands.shownGesture : undefined),
    gestureCount: () => (local.uiLoaded() ? local.ui().commands.gestureCount : 0),
    openDraft: async (id) => {
      const s = local.session(id);
      if (s) {
        await local.ui().commands.openDraft(s);
      }
    },
    choices: async () =>
      (await agentChoices(local.manager, () => undefined)).map((c) => ({
        id: c.id,
        name: c.spec.name,
        ...(c.missing ? { missing: c.missing } : {}),
        ...(c.asking ? { asking: c.asking } : {}),
      })),
    startUntrusted: async (args) => {
      const { manager } = local;
      const { commands } = local.ui();
      const loads = manager.loadCount;
      const sessions = manager.sessions.length;
      const refusals: string[] = [];
      const sub = commands.onDidRefuse((m) => refusals.push(m));
      overrides.trusted = false;
      try {
        const result = await vscode.commands.executeCommand<string | undefined>('fountain.local.start', args);
        return { result, refusals, loads: manager.loadCount - loads, sessions: manager.sessions.length - sessions };
      } finally {
        overrides.trusted = undefined;
        sub.dispose();
      }
    },
    gate: gateTestApi(local, tree, overrides),
  };
}

function gateTestApi(local: LocalAgents, tree: PendingTree, overrides: LocalTestOverrides): LocalGateTestApi {
  // Read when called: the manager (dist/localui.js) is built on first use, never at activation.
  let redraws = 0;
  tree.onDidChangeTreeData(() => redraws++);
  const prompts = (over: Partial<GatePrompts>): GatePrompts => ({
    pickMode: () => Promise.resolve(undefined),
    confirmYolo: () => Promise.resolve(false),
    probe: () => Promise.resolve(undefined),
    pickRecommendation: () => Promise.resolve(undefined),
    confirmApply: () => Promise.resolve(false),
    show: () => Promise.resolve(),
    ...over,
  });
  const setMode = async (id: string, mode: GateMode, confirmYolo = false) => {
    const s = local.manager.get(id);
    return (
      s &&
      local
        .ui()
        .gate.changeMode(
          s,
          prompts({ pickMode: () => Promise.resolve(mode), confirmYolo: () => Promise.resolve(confirmYolo) }),
        )
    );
  };
  return {
    state: (id) => {
      const g = local.manager.get(id);
      return g && { mode: g.gate.mode, grants: [...g.gate.grants], approvals: local.ui().watch.approvals(g) };
    },
    setMode,
    setModeUntrusted: async (id, mode) => {
      overrides.trusted = false;
      local.manager.refreshGates();
      try {
        return await setMode(id, mode, true);
      } finally {
        overrides.trusted = undefined;
        local.manager.refreshGates();
      }
    },
    addGrant: (id, grant) => local.manager.get(id)?.gate.addGrant(grant) ?? false,
    revokeRow: async (label) => {
      const rows = tree.getChildren().flatMap((c) => tree.getChildren(c));
      const row = rows.find((r) => r.kind === 'sessionRow' && labelText(tree.getTreeItem(r).label) === label);
      return row
        ? ((await vscode.commands.executeCommand<boolean>('fountain.local.revokeGrant', row)) ?? false)
        : false;
    },
    whatWouldHappen: async (id, text, access) => {
      const s = local.manager.get(id);
      const shown: string[] = [];
      const answers = s
        ? await local.ui().gate.whatWouldHappen(
            s,
            prompts({
              probe: () => Promise.resolve({ text, ...(access ? { access } : {}) }),
              show: (m, d) => {
                shown.push(d ? `${m}\n${d}` : m);
                return Promise.resolve();
              },
            }),
          )
        : undefined;
      return {
        answers: (answers ?? []).map((a) => ({ probe: a.probe, ...a.decision })),
        shown,
      };
    },
    recommend: async (id, pattern, confirm) => {
      const s = local.manager.get(id);
      let preview: { title: string; detail: string } | undefined;
      const result =
        s &&
        (await local.ui().gate.recommend(
          s,
          prompts({
            pickRecommendation: (recs) => Promise.resolve(recs.find((r) => r.pattern === pattern)),
            confirmApply: (title, detail) => {
              preview = { title, detail };
              return Promise.resolve(confirm);
            },
          }),
        ));
      return { result, ...(preview ? { preview } : {}) };
    },
    yoloStatus: () => local.ui().yolo.text,
    treeRedraws: () => redraws,
    logLines: () => local.ui().watch.lines,
    settingsProblems: () => local.ui().watch.problems,
  };
}

function labelText(l: string | vscode.TreeItemLabel | undefined): string {
  return typeof l === 'string' ? l : (l?.label ?? '');
}
