/**
 * The agent's own session modes (ACP `session/new` `modes`, `session/set_mode`, `current_mode_update`) read against
 * the gate. The gate decides only what the agent asks about, so the agent is kept in the mode where it asks about
 * everything: its asking mode (`default`, opencode's `build`), whatever the gate's mode. A mode in
 * which the agent approves things itself (claude's `acceptEdits`/`bypassPermissions`/`dontAsk`, gemini's
 * `autoEdit`/`yolo`, qwen's `auto-edit`/`auto`/`yolo`, codex's `full-access`, ...) is never sent: the gate's own
 * acceptEdits, allow and yolo modes do that job and still see (and refuse) what they must.
 */
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import type { GateMode } from '../policy';

/**
 * asks: the agent asks before commands and edits; plan: it plans and does not act; autoEdits: it applies edits
 * unasked; neverAsks: it does not ask (the gate sees nothing); unknown: a mode nobody checked.
 */
export type AgentModeClass = 'asks' | 'plan' | 'autoEdits' | 'neverAsks' | 'unknown';

const CLASSES: Readonly<Record<string, AgentModeClass>> = {
  default: 'asks',
  build: 'asks',
  plan: 'plan',
  acceptEdits: 'autoEdits',
  autoEdit: 'autoEdits',
  auto_edit: 'autoEdits',
  'auto-edit': 'autoEdits',
  bypassPermissions: 'neverAsks',
  dontAsk: 'neverAsks',
  yolo: 'neverAsks',
  auto: 'neverAsks',
  'full-access': 'neverAsks',
};

/** What an agent mode id means for the gate (by id; the same ids mean the same across the published agents). */
export function agentModeClass(id: string): AgentModeClass {
  return Object.hasOwn(CLASSES, id) ? CLASSES[id] : 'unknown';
}

/** Whether the agent, in this mode, asks about what it does (so the gate sees it). */
export function modeAsks(id: string | undefined): boolean {
  if (id === undefined) {
    return true;
  }
  const c = agentModeClass(id);
  return c === 'asks' || c === 'plan';
}

/**
 * The agent mode to send for a gate mode, among `offered` (ids): always its asking mode, plan included (the gate
 * refuses what plan does not allow, and sees it: an agent in its own plan mode would refuse unseen). Undefined when
 * it offers none (then nothing is sent).
 */
export function agentModeFor(_gate: GateMode, offered: readonly string[]): string | undefined {
  return offered.find((m) => agentModeClass(m) === 'asks');
}

/** Whether `id` may be sent to an agent at all (an entry's `defaultMode` included): only its asking mode. */
export function sendableMode(id: string): boolean {
  return agentModeClass(id) === 'asks';
}

/** The mode the agent reports, for the tree: its id, its name when it gave one, and whether it asks in it. */
export interface AgentModeInfo {
  readonly id: string;
  readonly name?: string;
  readonly kind: AgentModeClass;
  readonly asks: boolean;
}

interface ModeSource {
  readonly currentModeId?: unknown;
  readonly availableModes?: readonly { readonly id: string; readonly name?: string }[];
}

/**
 * One session's agent mode: what the agent offered and reports, and what is sent to keep it asking. `send` is
 * `session/set_mode`; after it succeeds the agent is taken to be in that mode (until it reports another).
 */
export class AgentModeTracker {
  private offered: readonly { readonly id: string; readonly name?: string }[] = [];
  private current: string | undefined;
  private gateMode: GateMode = 'ask';

  constructor(
    private readonly agentName: string,
    private readonly send: (modeId: string) => Promise<void>,
    private readonly log: (line: string) => void,
    private readonly changed: () => void,
  ) {}

  /** session/new's `modes` (null or absent when the agent has none; then its `mode` config option, if any). */
  started(modes: ModeSource | null | undefined, configMode?: string): void {
    this.offered = modes?.availableModes ?? [];
    this.current = typeof modes?.currentModeId === 'string' ? modes.currentModeId : configMode;
    this.changed();
  }

  get modeIds(): string[] {
    return this.offered.map((m) => m.id);
  }

  get info(): AgentModeInfo | undefined {
    if (this.current === undefined) {
      return undefined;
    }
    const name = this.offered.find((m) => m.id === this.current)?.name;
    const kind = agentModeClass(this.current);
    return { id: this.current, ...(name !== undefined ? { name } : {}), kind, asks: modeAsks(this.current) };
  }

  /**
   * The entry's `defaultMode`: it sets the gate's first mode. Only the agent's plan mode is sent as such (it maps to
   * the gate's plan, is stricter than every gate mode, and the agent asks to leave it: claude's ExitPlanMode, which
   * is how plan-first records a plan); any other mode is not sent (the agent keeps asking).
   */
  async noteDefaultMode(wanted: string | undefined): Promise<void> {
    if (wanted !== undefined && agentModeClass(wanted) === 'plan' && this.modeIds.includes(wanted)) {
      await this.sendMode(wanted);
      return;
    }
    if (wanted !== undefined && !sendableMode(wanted)) {
      this.log(
        `[fountain] ${this.agentName}: defaultMode ${JSON.stringify(wanted)} is not sent to the agent (the gate ` +
          'takes the mode; the agent stays in the mode where it asks)',
      );
    }
  }

  /** The gate's mode is `mode` now: the agent goes to its asking mode when it is not there. */
  async sync(mode: GateMode): Promise<void> {
    this.gateMode = mode;
    const target = agentModeFor(mode, this.modeIds);
    // An agent in its own plan mode stays there: it acts on nothing, and leaves it only by asking (ExitPlanMode).
    if (target === undefined || target === this.current || this.inPlan()) {
      return;
    }
    await this.sendMode(target);
  }

  private inPlan(): boolean {
    return this.current !== undefined && agentModeClass(this.current) === 'plan';
  }

  private async sendMode(target: string): Promise<void> {
    try {
      await this.send(target);
      this.current = target;
      this.changed();
    } catch (e) {
      this.log(`[fountain] ${this.agentName} refused mode ${target}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  /** A `session/update`: a `current_mode_update` or a `mode` config option update is the agent's mode now. */
  noteUpdate(update: SessionUpdate): void {
    if (update.sessionUpdate === 'current_mode_update') {
      this.reported(update.currentModeId);
    } else if (update.sessionUpdate === 'config_option_update') {
      const id = modeOption(update.configOptions);
      if (id !== undefined) {
        this.reported(id);
      }
    }
  }

  /** `current_mode_update` (or a `mode` config option update): the agent says it is in `id` now. */
  reported(id: string): void {
    if (id === this.current) {
      return;
    }
    this.current = id;
    this.changed();
    if (!modeAsks(id)) {
      this.log(`[fountain] ${this.agentName} switched itself to mode ${JSON.stringify(id)}, where it does not ask`);
      void this.sync(this.gateMode);
    }
  }
}

/** The current value of a `mode` config option (opencode reports its mode only so); undefined when none. */
export function modeOption(options: readonly unknown[] | null | undefined): string | undefined {
  const o = options?.find((c): c is { currentValue?: unknown } => {
    const x = c as { id?: unknown; category?: unknown } | null;
    return typeof x === 'object' && x !== null && (x.id === 'mode' || x.category === 'mode');
  });
  return typeof o?.currentValue === 'string' ? o.currentValue : undefined;
}
