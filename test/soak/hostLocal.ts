/**
 * The soak's local agent, driven from inside each window's extension host (part of the scripted user,
 * test/soak/host.ts). It starts the scripted ACP agent (test/soak/scriptedAgent.mjs, the `Soak agent` entry of
 * fountain.localAgents that test/soak/windows.ts puts in the machine settings) the way the user does: Start Local
 * Agent with its confirmation answered by Enter, then Send Prompt with its input box sent by Enter (the workbench's
 * own quick-open commands). When the agent crashes, it is restarted with Restart Local Agent (the command the crash
 * notice's Restart button and the tree run) and prompted again; if the restart fails, a new one is started.
 */
import * as vscode from 'vscode';
import type { TestApi } from '../../src/extension';
import { SOAK_AGENT } from './schedule';

type GestureKind = NonNullable<ReturnType<TestApi['local']['gesture']>>['kind'];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until<T>(what: string, f: () => T | undefined | false, ms = 60_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = f();
    if (v) {
      return v;
    }
    if (Date.now() > end) {
      throw new Error(`timed out waiting for ${what}`);
    }
    await sleep(100);
  }
}

/** Runs `run` and answers its gesture prompt with Enter once it is on screen (src/ui/local/gestures.ts). */
async function withEnter<T>(api: TestApi, kind: GestureKind, run: () => Thenable<T>): Promise<T> {
  const before = api.local.gestureCount();
  let settled = false;
  const running = Promise.resolve(run()).finally(() => (settled = true));
  const shown = await until(`the ${kind} prompt`, () => {
    const g = api.local.gesture();
    if (settled && api.local.gestureCount() === before) {
      throw new Error(`the command finished without showing its ${kind} prompt`);
    }
    return g && g.seq > before && g.kind === kind ? g : undefined;
  });
  // Pressed again while the prompt is still open: the workbench may still be drawing it when first pressed.
  while (api.local.gesture()?.seq === shown.seq && !settled) {
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    await sleep(150);
  }
  return running;
}

export class LocalAgentDriver {
  private id: string | undefined;
  private busy = false;
  private stopped = false;
  readonly events: { at: number; what: string }[] = [];

  constructor(
    private readonly api: TestApi,
    private readonly folder: string,
  ) {}

  private note(what: string): void {
    this.events.push({ at: Date.now(), what });
  }

  /** Called every tick: starts the agent, or restarts it once it has exited. */
  tick(): void {
    if (this.busy || this.stopped) {
      return;
    }
    const s = this.id ? this.api.local.sessions().find((x) => x.id === this.id) : undefined;
    if (s && s.status !== 'exited' && s.status !== 'stopped') {
      return;
    }
    this.busy = true;
    void (s ? this.restart(s.id) : this.start()).finally(() => (this.busy = false));
  }

  private async start(): Promise<void> {
    try {
      const id = await withEnter(this.api, 'start', () =>
        vscode.commands.executeCommand<string | undefined>('fountain.local.start', {
          agent: `config:${SOAK_AGENT}`,
          folder: this.folder,
        }),
      );
      if (!id) {
        throw new Error('Start Local Agent returned nothing');
      }
      this.id = id;
      this.note(`started ${id}`);
      await this.prompt(id);
    } catch (e) {
      this.note(`start failed: ${String(e)}`);
      await sleep(2000);
    }
  }

  private async restart(id: string): Promise<void> {
    await sleep(1000); // the user reads the crash notice first
    if (this.stopped) {
      return;
    }
    try {
      await vscode.commands.executeCommand('fountain.local.restart', id);
      await until('the restarted agent to be idle', () => {
        const s = this.api.local.sessions().find((x) => x.id === id);
        return s?.status === 'idle';
      });
      this.note(`restarted ${id}`);
      await this.prompt(id);
    } catch (e) {
      this.note(`restart failed (${String(e)}): starting a new one`);
      this.id = undefined;
    }
  }

  private async prompt(id: string): Promise<void> {
    await withEnter(this.api, 'prompt', () =>
      vscode.commands.executeCommand('fountain.local.sendPrompt', id, 'Soak: ask for permission until you crash.'),
    );
  }

  /** Stop Local Agent (the product's own Stop) once the soak's load is over; no restarts after it. */
  async stop(): Promise<void> {
    if (this.stopped) {
      return;
    }
    this.stopped = true;
    await until('the start or restart in progress', () => !this.busy, 120_000).catch(() => undefined);
    if (this.id && this.api.local.sessions().some((x) => x.id === this.id)) {
      await vscode.commands.executeCommand('fountain.local.stop', this.id);
      this.note(`stopped ${this.id}`);
    }
  }
}
