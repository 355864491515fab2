/**
 * The local agents' commands: Start Local Agent…, Send Prompt…, Cancel Turn, Stop Agent, Restart Agent, Show
 * Transcript, and the crash notice (the last stderr lines as inert text, with Restart and Show Logs). A command
 * that acts on a session takes its id (from the tree, later) or uses the only session, else asks with a QuickPick.
 * Start and Send Prompt act only on a user gesture (src/ui/local/gestures.ts): their arguments preselect the agent or
 * prefill the prompt, and the user accepts it.
 */
import * as vscode from 'vscode';
import { inertLine, pickText } from '../display';
import { Disposable } from '../../util/lifecycle';
import { agentChoices, folderByPath, pickAgent, pickFolder, type AgentChoice } from './agentPicker';
import type { LocalFolder, LocalSessionManager, ManagedSession } from './manager';
import type { SessionCommandId } from './commandIds';
import { GestureStrings } from './gestureStrings';
import { gestures, pickGesture, type ShownGesture } from './gestures';
import { askOneLine, PromptDrafts } from './promptInput';
import { couldNotStart, LocalStrings, statusText } from './strings';
import type { TranscriptDocuments } from './transcriptDocument';
import type { StartFailure } from '../../local/startFailure';

/** Arguments of `fountain.local.start` (keybindings, tests): an agent id (`preset:claude`, `config:<name>` or a
 * preset id) and a workspace folder path; whatever is missing is asked for, and the agent is started only once the
 * user accepted the confirmation that names it. */
export interface StartArgs {
  readonly agent?: string;
  readonly folder?: string;
}

/** A session argument: its id, or a tree element carrying `sessionId`. */
type SessionArg = string | { readonly sessionId?: string } | undefined;

const CRASH_TAIL_LINES = 8;

export class LocalCommands extends Disposable {
  private readonly drafts: PromptDrafts;
  private readonly _onDidRefuse = this._register(new vscode.EventEmitter<string>());
  /** Fires with the message each time Start refuses because the workspace is untrusted (tests read it). */
  readonly onDidRefuse = this._onDidRefuse.event;

  /** The gesture prompt on screen, if any, and how many were shown (the test API reads them). */
  get shownGesture(): ShownGesture | undefined {
    return gestures.shown;
  }
  get gestureCount(): number {
    return gestures.count;
  }

  constructor(
    private readonly manager: LocalSessionManager,
    private readonly transcripts: TranscriptDocuments,
    private readonly log: { warn(m: string): void; show(): void },
  ) {
    super();
    this.drafts = this._register(new PromptDrafts(manager));
    this._register(manager.onDidCrash(({ session, exit }) => void this.crashNotice(session, exit)));
  }

  /** The handler of each `fountain.local.*` command, by id (registered by LocalAgents in the main bundle). */
  handlers(): Record<SessionCommandId, (...args: never[]) => unknown> {
    return {
      'fountain.local.start': (args?: StartArgs) => this.start(args),
      'fountain.local.sendPrompt': (arg?: SessionArg | vscode.Uri, text?: unknown) =>
        this.sendPrompt(arg, typeof text === 'string' ? text : undefined),
      'fountain.local.cancelTurn': (arg?: SessionArg) => this.withSession(arg, (s) => s.session.cancelTurn()),
      'fountain.local.stop': (arg?: SessionArg) => this.withSession(arg, (s) => this.stop(s)),
      'fountain.local.restart': (arg?: SessionArg) => this.withSession(arg, (s) => this.restart(s)),
      'fountain.local.showTranscript': (arg?: SessionArg) =>
        this.withSession(arg, async (s) => void (await this.transcripts.show(s))),
    };
  }

  /** Resolves with the new session's id, or undefined when nothing started (refused, cancelled or failed). */
  async start(args: StartArgs = {}): Promise<string | undefined> {
    // Before anything is loaded or spawned.
    if (!this.manager.isTrusted) {
      void this.untrustedNotice();
      return undefined;
    }
    let agent: string | undefined;
    try {
      const folder = args.folder !== undefined ? folderByPath(args.folder) : await pickFolder();
      if (!folder) {
        if (args.folder !== undefined || !vscode.workspace.workspaceFolders?.length) {
          void vscode.window.showErrorMessage(LocalStrings.noFolder);
        }
        return undefined;
      }
      const choices = await agentChoices(this.manager, (line) => this.log.warn(line));
      const choice = await this.chooseAgent(choices, args.agent, folder);
      if (!choice) {
        return undefined;
      }
      agent = choice.spec.name;
      const started = await this.startWithProgress(choice, folder);
      void vscode.window.setStatusBarMessage(LocalStrings.started(choice.spec.name, folder.name), 5000);
      return started.id;
    } catch (e) {
      this.startFailed(e, agent);
      return undefined;
    }
  }

  /**
   * The agent the user starts: without an agent argument, the one picked; with one, that agent once the user accepted
   * the confirmation naming it and the folder ("Choose another agent…" opens the pick). Undefined when dismissed or
   * when the argument names no agent on offer.
   */
  private async chooseAgent(
    choices: readonly AgentChoice[],
    id: unknown,
    folder: LocalFolder,
  ): Promise<AgentChoice | undefined> {
    if (id === undefined) {
      return pickAgent(choices);
    }
    const named = typeof id === 'string' ? findChoice(choices, id) : undefined;
    if (!named) {
      this.log.warn(`Start Local Agent: ${inertLine(JSON.stringify(id), 200)} is not an agent on offer`);
      return undefined;
    }
    const picked = await pickGesture<'start' | 'other'>(
      'start',
      [
        {
          label: GestureStrings.startItem(pickText(named.spec.name, 80), pickText(folder.name, 80)),
          description: pickText([named.spec.command, ...named.spec.args].join(' '), 200),
          ...(named.missing ? { detail: pickText(named.missing, 300) } : {}),
          value: 'start',
        },
        { label: GestureStrings.chooseOther, value: 'other' },
      ],
      { title: GestureStrings.startTitle, placeholder: GestureStrings.startPlaceholder, active: 'start' },
    );
    return picked === 'other' ? pickAgent(choices) : picked === 'start' ? named : undefined;
  }

  private startWithProgress(choice: AgentChoice, folder: LocalFolder): Thenable<ManagedSession> {
    return vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: LocalStrings.starting(choice.spec.name, folder.name) },
      () => this.manager.start(choice.spec, folder),
    );
  }

  /**
   * One sentence naming the agent and the likely cause, with Show Logs; the whole error (with the agent's last
   * stderr lines, which the log has in full already) goes to the log, never a stack trace to the toast.
   */
  private startFailed(e: unknown, agent: string | undefined): void {
    // By name: the error comes from the manager in the main bundle, a class this bundle has its own copy of.
    if (e instanceof Error && e.name === 'UntrustedWorkspaceError') {
      void this.untrustedNotice();
      return;
    }
    const message = e instanceof Error ? e.message : String(e);
    this.log.warn(`local agent start failed: ${message}`);
    void vscode.window.showErrorMessage(startFailureText(e, agent), LocalStrings.showLogs).then((b) => {
      if (b === LocalStrings.showLogs) {
        this.log.show();
      }
    });
  }

  private async untrustedNotice(): Promise<void> {
    this._onDidRefuse.fire(LocalStrings.untrusted);
    const b = await vscode.window.showErrorMessage(LocalStrings.untrusted, LocalStrings.manageTrust);
    if (b === LocalStrings.manageTrust) {
      await vscode.commands.executeCommand('workbench.trust.manage');
    }
  }

  /**
   * From a prompt draft editor (its title button passes the draft's URI): sends the draft. Otherwise asks for one
   * line (or opens a draft). `text` (a keybinding, a link, a test) only prefills the input box, or a draft when it
   * has several lines: nothing is sent until the user sends it.
   */
  async sendPrompt(arg?: SessionArg | vscode.Uri, text?: string): Promise<void> {
    const titleUri = arg instanceof vscode.Uri ? arg : undefined;
    const draft = (arg === undefined || titleUri) && text === undefined ? this.drafts.active(titleUri) : undefined;
    if (titleUri && !draft) {
      this.log.warn('Send Prompt: refused a URI that is not the active prompt draft');
      void vscode.window.showErrorMessage(GestureStrings.draftNotActive);
      return;
    }
    if (draft) {
      if (!draft.session?.isLive) {
        void vscode.window.showErrorMessage(LocalStrings.draftSessionGone);
        return;
      }
      if (!draft.text.trim()) {
        void vscode.window.showErrorMessage(LocalStrings.promptEmpty);
        return;
      }
      if (this.send(draft.session, draft.text)) {
        await this.drafts.closeActive();
      }
      return;
    }
    await this.withSession(arg as SessionArg, async (s) => {
      if (text !== undefined && /[\r\n]/.test(text)) {
        await this.drafts.open(s, text);
        return;
      }
      const input = await askOneLine(s, text);
      if (input?.kind === 'compose') {
        await this.drafts.open(s, input.text);
      } else if (input) {
        this.send(s, input.text);
      }
    });
  }

  /** Opens a prompt draft for `s` (what the input box's Compose in Editor button does). */
  openDraft(s: ManagedSession): Promise<void> {
    return this.drafts.open(s);
  }

  /** Sends the prompt (the turn runs on; its end shows in the transcript). False when it could not be sent. */
  private send(s: ManagedSession, text: string): boolean {
    if (s.status === 'running' || s.status === 'waiting') {
      void vscode.window.showWarningMessage(LocalStrings.promptBusy(s.agentName));
      return false;
    }
    s.session.prompt(text).catch((e: unknown) => {
      const message = e instanceof Error ? e.message : String(e);
      this.log.warn(`[${s.agentName}] prompt failed: ${message}`);
      if (s.isLive) {
        void vscode.window.showErrorMessage(LocalStrings.promptFailed(inertLine(message)));
      }
    });
    return true;
  }

  private async stop(s: ManagedSession): Promise<void> {
    await this.manager.stop(s);
    void vscode.window.setStatusBarMessage(LocalStrings.stopped(s.agentName), 5000);
  }

  private async restart(s: ManagedSession): Promise<void> {
    try {
      await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: LocalStrings.starting(s.agentName, s.folder.name) },
        () => this.manager.restart(s),
      );
    } catch (e) {
      this.startFailed(e, s.agentName);
    }
  }

  private async crashNotice(
    s: ManagedSession,
    exit: { message: string; stderrTail: readonly string[] },
  ): Promise<void> {
    const tail = exit.stderrTail.slice(-CRASH_TAIL_LINES).join('\n');
    const b = await vscode.window.showErrorMessage(
      LocalStrings.crashed(inertLine(exit.message), inertLine(tail)),
      LocalStrings.restart,
      LocalStrings.showLogs,
    );
    if (b === LocalStrings.restart && this.manager.get(s.id)) {
      await this.restart(s);
    } else if (b === LocalStrings.showLogs) {
      this.log.show();
    }
  }

  private async withSession(arg: SessionArg, fn: (s: ManagedSession) => Promise<void>): Promise<void> {
    const s = await this.resolveSession(arg);
    if (s) {
      await fn(s);
    }
  }

  private async resolveSession(arg: SessionArg): Promise<ManagedSession | undefined> {
    const id = typeof arg === 'string' ? arg : arg?.sessionId;
    if (id !== undefined) {
      return this.manager.get(id);
    }
    const all = this.manager.sessions;
    if (all.length === 0) {
      void vscode.window.showInformationMessage(LocalStrings.noSession);
      return undefined;
    }
    if (all.length === 1) {
      return all[0];
    }
    const picked = await vscode.window.showQuickPick(
      all.map((s) => ({
        label: s.agentName,
        description: `${s.folder.name} · ${statusText(s.status)}`,
        session: s,
      })),
      { placeHolder: LocalStrings.pickSession },
    );
    return picked?.session;
  }
}

/** What the toast says: the sentence for a known failure, else the first line of the error (never its stack). */
function startFailureText(e: unknown, agent: string | undefined): string {
  const failure = e instanceof Error ? (e as { failure?: StartFailure }).failure : undefined;
  if (failure && agent !== undefined) {
    const inert = Object.fromEntries(
      Object.entries(failure).map(([k, v]) => [k, typeof v === 'string' ? inertLine(v, 300) : v]),
    ) as StartFailure;
    return couldNotStart(inertLine(agent, 120), inert);
  }
  return LocalStrings.startFailed(inertLine((e instanceof Error ? e.message : String(e)).split('\n')[0]));
}

function findChoice(choices: readonly AgentChoice[], id: string): AgentChoice | undefined {
  return choices.find((c) => c.id === id) ?? choices.find((c) => c.id === `preset:${id}`);
}
