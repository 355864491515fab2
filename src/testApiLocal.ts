/**
 * The local agents' part of the test-mode API (dist/testApi.js only): what the tests change in the local agents
 * (LocalTestOverrides, handed to them by activate() as options) and what they read and drive of their sessions and
 * gates.
 */
import * as vscode from 'vscode';
import { agentChoices } from './ui/local/agentPicker';
import type { LocalAgents, LocalAgentsOptions } from './ui/local/feature';
import type { SessionWireListener } from './ui/local/manager';
import type { SourceEnv } from './local/launch';
import type { PendingTree } from './ui/tree/pendingTree';
import type { ConnectAttempt, GateMode, Grant, HostVerdict, PendingAsk } from './local';
import type { ApprovalEntry } from './policy';
import type { GatePrompts, ModeResult, RecommendResult } from './ui/local/gateCommands';
import type { ShownGesture } from './ui/local/gestures';

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
  /**
   * The session's network decider, driven as the proxy will drive it (src/local/network/contract.ts): `submit` hands
   * it one ConnectAttempt and returns its verdict (an ask goes to the real inbox) and the attempt's abort.
   */
  readonly network: {
    readonly submit: (
      sessionId: string,
      attempt: ConnectAttempt,
    ) => { readonly verdict: Promise<HostVerdict>; abort(): void } | undefined;
    readonly grants: (sessionId: string) => readonly string[];
    /** The session's open network asks (the objects the inbox holds). */
    readonly asks: (sessionId: string) => readonly PendingAsk[];
  };
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
export class LocalTestOverrides {
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

export function localTestApi(local: LocalAgents, tree: PendingTree, overrides: LocalTestOverrides): LocalTestApi {
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
    network: {
      submit: (id, attempt) => {
        const s = local.session(id);
        if (!s) {
          return undefined;
        }
        const ac = new AbortController();
        return { verdict: s.network.decide(attempt, ac.signal), abort: () => ac.abort() };
      },
      grants: (id) => [...(local.session(id)?.network.grants ?? [])],
      asks: (id) => [...(local.session(id)?.network.openAsks ?? [])],
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

/** A tree item label as text. */
export function labelText(l: string | vscode.TreeItemLabel | undefined): string {
  return typeof l === 'string' ? l : (l?.label ?? '');
}
