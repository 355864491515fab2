/**
 * The local gate's commands: Change Local Agent Mode… (a QuickPick of the five modes; yolo after a modal, refused
 * while untrusted; a mode given as an argument applies at once only when it narrows, to ask or plan, and is otherwise
 * only preselected in the pick, which the user accepts), What Would Happen… (a typed command or path against a
 * session's gate, answered in a modal), Recommend Local Allow Patterns… (from the session's approval log, a preview,
 * then the user setting) and Revoke Grant (a grant row of the tree). Every prompt goes through {@link GatePrompts}, so tests replace the pickers and
 * modals and still run the same code. Agent and setting text is shown inert.
 */
import * as vscode from 'vscode';
import type { GateMode, Grant, WouldHappen } from '../../local';
import type { ApprovalEntry, LocalRecommendation } from '../../policy';
import { escapeIcons } from '../../domain/inertText';
import { LOCAL_SECTION, workspaceRoots } from '../../platform/localGateSettings';
import { localSessionIdOf } from '../../session/localKey';
import {
  answerCovered,
  coveredLines,
  dryRunLines,
  editRule,
  reviewRule,
  type AlwaysRequest,
} from '../always/alwaysModal';
import type { WaitingRequests } from '../always/alwaysContext';
import { localAlways, ruleGateOf, sessionGates } from './alwaysLocal';
import { inertLine, pickText } from '../display';
import type { GateCommandId } from './commandIds';
import { pickGesture } from './gestures';
import { GateStrings, modeChoice } from './gateStrings';
import type { LocalSessionManager, ManagedSession } from './manager';
import { LocalStrings, statusText } from './strings';
import { grantKey, grantWords, parseGrantRowId } from './treeExtras';

const MODES: readonly GateMode[] = ['ask', 'acceptEdits', 'plan', 'allow', 'yolo'];

/** A tree element the Pending Approvals tree issued (undefined for anything else). */
export type IssuedElement = (arg: unknown) => { readonly kind: string; readonly id: string } | undefined;

export interface Probe {
  readonly text: string;
  readonly access?: 'read' | 'write';
}

/** Every question the gate commands ask; the default asks with VS Code's pickers and modals. */
export interface GatePrompts {
  /** The mode pick, with `preselect` (a command argument) as its active item. */
  pickMode(s: ManagedSession, preselect?: GateMode): Thenable<GateMode | undefined>;
  confirmYolo(s: ManagedSession): Thenable<boolean>;
  probe(s: ManagedSession): Thenable<Probe | undefined>;
  pickRecommendation(recs: readonly LocalRecommendation[]): Thenable<LocalRecommendation | undefined>;
  /**
   * The rule, editable, as it will be stored (undefined: cancelled); without it the recommended pattern is kept as
   * it is. The default is the input box of src/ui/always/alwaysModal.ts.
   */
  editRule?(req: AlwaysRequest): Thenable<string | undefined>;
  /**
   * The one confirmation; `waiting` other requests it covers are listed in `detail`. True: keep it and answer them
   * (each with its own allow-once); `'ruleOnly'`: keep it and answer none; false: nothing.
   */
  confirmApply(title: string, detail: string, waiting?: number): Thenable<boolean | 'ruleOnly'>;
  /** A modal (or, in tests, a record of it); `detail` is plain text. */
  show(message: string, detail?: string): Thenable<void>;
}

export type ModeResult =
  { readonly ok: true; readonly mode: GateMode } | { readonly ok: false; readonly reason: string };

export type RecommendResult =
  | { readonly kind: 'none'; readonly message: string }
  | { readonly kind: 'cancelled'; readonly offered: readonly LocalRecommendation[] }
  | { readonly kind: 'applied'; readonly pattern: string; readonly before: string[]; readonly after: string[] };

const isPathLike = (t: string) => /^(\/|\.\/|\.\.\/)/.test(t);

export const vscodeGatePrompts: GatePrompts = {
  pickMode: (s, preselect) =>
    pickGesture(
      'mode',
      MODES.map((m) => ({ ...modeChoice(m), description: m === s.gate.mode ? GateStrings.current : '', value: m })),
      { placeholder: GateStrings.pickMode(pickText(s.agentName, 80), s.gate.mode), active: preselect },
    ),
  confirmYolo: async (s) =>
    (await vscode.window.showWarningMessage(
      GateStrings.yoloConfirm(inertLine(s.agentName, 200)),
      { modal: true },
      GateStrings.yoloButton,
    )) === GateStrings.yoloButton,
  probe: async (s) => {
    const text = await vscode.window.showInputBox({
      prompt: GateStrings.probePrompt(inertLine(s.agentName, 200)),
      placeHolder: GateStrings.probePlaceholder,
      ignoreFocusOut: true,
    });
    if (text === undefined || !isPathLike(text.trim())) {
      return text === undefined ? undefined : { text };
    }
    const access = await vscode.window.showQuickPick(
      [
        { label: GateStrings.read, access: 'read' as const },
        { label: GateStrings.write, access: 'write' as const },
      ],
      { placeHolder: GateStrings.pickAccess(pickText(text.trim(), 200)) },
    );
    return access && { text, access: access.access };
  },
  pickRecommendation: async (recs) => {
    const picked = await vscode.window.showQuickPick(
      recs.map((r) => ({
        label: pickText(r.pattern, 200),
        description: pickText(r.reason, 300),
        detail: escapeIcons(GateStrings.evidence(r.evidence.map((e) => inertLine(e, 120)).join(', '))),
        rec: r,
      })),
      { placeHolder: GateStrings.pickRecommendation, matchOnDetail: true },
    );
    return picked?.rec;
  },
  editRule: (req) => editRule(req),
  confirmApply: async (title, detail, waiting = 0) => {
    const all = GateStrings.addAndAllow(waiting);
    const buttons = waiting > 0 ? [all, GateStrings.addButton] : [GateStrings.addButton];
    const pick = await vscode.window.showInformationMessage(title, { modal: true, detail }, ...buttons);
    return pick === all ? true : pick === GateStrings.addButton ? (waiting > 0 ? 'ruleOnly' : true) : false;
  },
  show: async (message, detail) => {
    await vscode.window.showInformationMessage(message, { modal: true, ...(detail ? { detail } : {}) });
  },
};

export class GateCommands {
  constructor(
    private readonly manager: LocalSessionManager,
    private readonly log: { info(m: string): void; warn(m: string): void },
    private readonly issued: IssuedElement,
    private readonly approvals: (s: ManagedSession) => readonly ApprovalEntry[],
    /** The history and the waiting requests a recommended pattern is checked against and may answer. */
    private readonly waiting: WaitingRequests,
  ) {}

  /** Every gate command's handler but Make This Ask's (src/ui/local/ui.ts adds it). */
  handlers(): Record<Exclude<GateCommandId, 'fountain.local.makeThisAsk'>, (...args: never[]) => unknown> {
    return {
      'fountain.local.changeMode': async (arg?: unknown, mode?: unknown) => {
        const s = await this.session(arg);
        return (
          s &&
          this.changeMode(
            s,
            vscodeGatePrompts,
            MODES.find((m) => m === mode),
          )
        );
      },
      'fountain.local.whatWouldHappen': async (arg?: unknown) => {
        const s = await this.session(arg);
        return s && this.whatWouldHappen(s, vscodeGatePrompts);
      },
      'fountain.local.recommend': async (arg?: unknown) => {
        const s = await this.session(arg);
        return s && this.recommend(s, vscodeGatePrompts);
      },
      'fountain.local.revokeGrant': (arg?: unknown) => this.revokeRow(arg),
    };
  }

  /** A session id, a `{ sessionId }`, a session group of the tree, or (none given) the only session or a pick. */
  async session(arg: unknown): Promise<ManagedSession | undefined> {
    const own = typeof arg === 'object' && arg !== null ? (arg as { sessionId?: unknown }).sessionId : arg;
    if (typeof own === 'string') {
      return this.manager.get(own);
    }
    const el = this.issued(arg);
    if (el?.kind === 'conversation') {
      const key: unknown = JSON.parse(el.id);
      const server = Array.isArray(key) && typeof key[0] === 'string' ? key[0] : '';
      const id = localSessionIdOf(server);
      return id === undefined ? undefined : this.manager.get(id);
    }
    if (arg !== undefined) {
      return undefined;
    }
    const all = this.manager.sessions;
    if (all.length <= 1) {
      if (!all.length) {
        void vscode.window.showInformationMessage(LocalStrings.noSession);
      }
      return all[0];
    }
    const picked = await vscode.window.showQuickPick(
      all.map((s) => ({
        label: pickText(s.agentName, 80),
        description: `${pickText(s.folder.name, 80)} · ${statusText(s.status)} · ${s.gate.mode}`,
        session: s,
      })),
      { placeHolder: LocalStrings.pickSession },
    );
    return picked?.session;
  }

  /**
   * Change Local Agent Mode…: a `mode` argument that narrows (ask, plan, or the mode it is in) applies without asking;
   * any other only preselects the pick, which the user must accept (and yolo's confirmation after it).
   */
  async changeMode(s: ManagedSession, prompts: GatePrompts, mode?: GateMode): Promise<ModeResult | undefined> {
    const narrows = mode === 'ask' || mode === 'plan' || mode === s.gate.mode;
    const next = mode !== undefined && narrows ? mode : await prompts.pickMode(s, mode);
    if (next === undefined) {
      return undefined;
    }
    if (next === 'yolo' && s.gate.mode !== 'yolo' && !(await prompts.confirmYolo(s))) {
      return undefined;
    }
    const r = s.gate.setMode(next);
    if (!r.ok) {
      this.log.warn(`[${s.agentName}] mode ${next} refused: ${r.reason}`);
      void vscode.window.showErrorMessage(GateStrings.modeRefused(inertLine(r.reason)));
      return r;
    }
    void vscode.window.setStatusBarMessage(GateStrings.modeChanged(inertLine(s.agentName, 80), next), 5000);
    return { ok: true, mode: next };
  }

  /** What Would Happen…: the gate's answer now, asked of nobody and changing nothing. */
  async whatWouldHappen(s: ManagedSession, prompts: GatePrompts): Promise<WouldHappen[] | undefined> {
    const probe = await prompts.probe(s);
    if (!probe) {
      return undefined;
    }
    const text = probe.access ? `${probe.access} ${probe.text.trim()}` : probe.text;
    const answers = this.manager.module().whatWouldHappen(text, s.gate.snapshot(), s.gate.cwd);
    if (!answers.length) {
      await prompts.show(GateStrings.nothingTyped);
      return answers;
    }
    const lines = answers.map((a) =>
      GateStrings.probeLine(inertLine(a.probe), GateStrings.verdict(a.decision.verdict)),
    );
    const detail = answers
      .map((a) =>
        [
          GateStrings.probeLine(inertLine(a.probe), GateStrings.verdict(a.decision.verdict)),
          GateStrings.rule(a.decision.rule),
          GateStrings.reason(inertLine(a.decision.reason)),
          ...(a.decision.pattern !== undefined ? [GateStrings.pattern(inertLine(a.decision.pattern))] : []),
        ].join('\n'),
      )
      .join('\n\n');
    await prompts.show(
      `${GateStrings.probeTitle(inertLine(s.agentName, 200), s.gate.mode)} ${lines.join('; ')}`,
      detail,
    );
    return answers;
  }

  /**
   * Recommend Local Allow Patterns…: the session's approval log, a pick, the pattern editable as it will be stored,
   * a preview with the dry run over the history and the waiting requests it covers, then (confirmed) the user setting
   * and those requests, each with its own allow-once, through the inbox's guard.
   */
  async recommend(s: ManagedSession, prompts: GatePrompts): Promise<RecommendResult> {
    const config = vscode.workspace.getConfiguration(LOCAL_SECTION);
    const user = config.inspect<unknown>('allow')?.globalValue;
    const before = Array.isArray(user) ? user.filter((p): p is string => typeof p === 'string') : [];
    const effective = config.get<unknown>('allow');
    const existing = Array.isArray(effective) ? effective.filter((p): p is string => typeof p === 'string') : [];
    const recs = this.manager.module().recommendLocal(this.approvals(s), { roots: workspaceRoots(), existing });
    if (!recs.length) {
      const message = GateStrings.noEvidence(inertLine(s.agentName, 200));
      void vscode.window.showInformationMessage(message);
      return { kind: 'none', message };
    }
    const rec = await prompts.pickRecommendation(recs);
    if (!rec) {
      return { kind: 'cancelled', offered: recs };
    }
    const req = localAlways({
      rule: rec.pattern,
      setting: 'fountain.local.allow',
      gate: ruleGateOf(s),
      gateOf: sessionGates(this.manager),
    });
    const rule = prompts.editRule ? await prompts.editRule(req) : rec.pattern;
    if (rule === undefined) {
      return { kind: 'cancelled', offered: recs };
    }
    // The dry run over the history and the waiting requests it covers: shown, nothing written or sent yet.
    const review = reviewRule(this.waiting, req, rule);
    const after = [...before, rule];
    const show = (v: string[]) => inertLine(JSON.stringify(v), 4000);
    const covered = coveredLines(review.covered, false);
    const detail = [
      GateStrings.previewDetail(show(before), show(after)),
      GateStrings.evidence(rec.evidence.map((e) => inertLine(e, 200)).join(', ')),
      inertLine(rec.reason),
      ...(rec.risky ? [GateStrings.riskyNote] : []),
      ...(rule !== rec.pattern ? [GateStrings.edited(inertLine(rec.pattern, 200))] : []),
      ...review.warnings.map((w) => GateStrings.note(inertLine(w, 300))),
      dryRunLines(review.run).join('\n'),
      ...(covered.length > 0 ? [covered.join('\n')] : []),
    ].join('\n\n');
    const ok = await prompts.confirmApply(
      GateStrings.previewTitle(inertLine(rule, 200)),
      detail,
      review.covered.length,
    );
    if (ok === false) {
      return { kind: 'cancelled', offered: recs };
    }
    await config.update('allow', after, vscode.ConfigurationTarget.Global);
    this.log.info(`[${s.agentName}] added ${JSON.stringify(rule)} to the user setting fountain.local.allow`);
    const others = ok === true ? await answerCovered(this.waiting, review.covered) : 0;
    void vscode.window.showInformationMessage(
      others > 0 ? GateStrings.addedAndAllowed(inertLine(rule, 200), others) : GateStrings.added(inertLine(rule, 200)),
    );
    return { kind: 'applied', pattern: rule, before, after };
  }

  /** Revoke Grant on a grant row: only a row the tree issued, and only a grant the session still has. */
  revokeRow(arg: unknown): boolean {
    const el = this.issued(arg);
    const row = el?.kind === 'sessionRow' ? parseGrantRowId(el.id) : undefined;
    if (!row) {
      this.log.warn('refused Revoke Grant whose argument was not a grant row created by Fountain Approvals');
      void vscode.window.showErrorMessage(GateStrings.forged);
      return false;
    }
    const s = this.manager.get(row.sessionId);
    const grant = s?.gate.grants.find((g) => grantKey(g) === row.key);
    if (!s || !grant) {
      void vscode.window.showInformationMessage(GateStrings.grantGone);
      return false;
    }
    return this.revoke(s, grant);
  }

  /** Revokes one grant of `s` (the row's action; tests call it with the grant). */
  revoke(s: ManagedSession, grant: Grant): boolean {
    const done = s.gate.revokeGrant(grant);
    if (done) {
      void vscode.window.setStatusBarMessage(GateStrings.revoked(grantWords(grant, 200)), 5000);
    }
    return done;
  }
}
