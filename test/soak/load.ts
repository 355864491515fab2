/**
 * The soak's server side: the local Fountain server in this process (real clock, scripted agents, state kept across
 * hard restarts), the load it is given (conversations and prompts of the schedule), the record of every request it
 * held (its store, sampled), and the second client that answers `late` requests first (straight to the server, with
 * the same user's key, not through the extension's proxy).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { startServer, type RunningServer } from '../server';
import type { HeldRequest } from './reconcile';
import { detachedPlan, inTurnPlan } from './schedule';

export class SoakLoad {
  server!: RunningServer;
  readonly held = new Map<string, HeldRequest>();
  /** Requests the second client answered (its POST got a 2xx). */
  readonly elsewhere = new Set<string>();
  private readonly inTurn: string[] = [];
  private readonly detached = new Set<string>();
  private readonly racing = new Set<string>();
  private n = 0;
  private stopped = false;

  constructor(
    private readonly runDir: string,
    private readonly r: () => number,
  ) {}

  async start(): Promise<void> {
    const logFile = path.join(this.runDir, 'local-server.log');
    this.server = await startServer({
      clock: 'real',
      real: false,
      port: 0,
      stateFile: path.join(this.runDir, 'server-state.jsonl'),
      workDir: path.join(this.runDir, 'server-work'),
      heartbeatMs: 5000,
      ceilingSec: 40,
      sweepMs: 5000,
      debounceMs: 50,
      log: (m) => fs.appendFileSync(logFile, m + '\n'),
    });
  }

  /** Creates a conversation: every 10th holds one detached request, the others take in-turn prompts. */
  createConversation(i: number): void {
    const n = ++this.n;
    const detached = i % 10 === 9;
    const plan = detached ? detachedPlan(this.r) : inTurnPlan(this.r);
    const prompt = detached
      ? `wait(${plan === 'expire' ? 20 : 600}): touch s${n}-${plan}.txt`
      : `run: touch s${n}-${plan}.txt`;
    const res = this.server.createConversation({ agent_id: 'claude', prompt, title: `soak ${i}` }, 'alice');
    const body = res.body as { data?: { id?: string }; id?: string };
    const id = body.data?.id ?? body.id;
    if (res.status >= 300 || !id) {
      throw new Error(`creating a conversation: ${res.status} ${JSON.stringify(res.body)}`);
    }
    (detached ? this.detached : { add: (x: string) => this.inTurn.push(x) }).add(id);
  }

  /** One more in-turn request: a prompt to a random conversation (queued behind its running turn). */
  prompt(): void {
    if (!this.inTurn.length) {
      return;
    }
    const id = this.inTurn[Math.floor(this.r() * this.inTurn.length)];
    const n = ++this.n;
    const res = this.server.sendPrompt(id, `run: touch s${n}-${inTurnPlan(this.r)}.txt`);
    if (res.status >= 300) {
      fs.appendFileSync(path.join(this.runDir, 'soak.log'), `prompt ${id}: ${res.status}\n`);
    }
  }

  /** Reads the server's store: every request it holds or held, with its outcome. */
  sample(): void {
    for (const rec of this.server.store.requests.values()) {
      let h = this.held.get(rec.request_id);
      if (!h) {
        const plan = /s\d+-([a-z]+)/.exec(JSON.stringify(rec.params))?.[1] ?? '?';
        h = {
          requestId: rec.request_id,
          conversationId: rec.conversation_id,
          options: rec.options.map((o) => String(o.optionId)),
          detached: this.detached.has(rec.conversation_id),
          plan,
          heldAt: rec.asked_at,
        };
        this.held.set(rec.request_id, h);
      }
      h.deadline = rec.deadline;
      if (rec.state === 'resolved') {
        h.outcome = rec.outcome;
        h.optionId = rec.option_id;
      }
      if (h.plan === 'late' && rec.state !== 'resolved' && !this.racing.has(h.requestId)) {
        this.racing.add(h.requestId);
        setTimeout(() => void this.answerElsewhere(h, 5), 300 + this.r() * 1200);
      }
    }
  }

  /** The second client: the same user answering on another device, straight to the server. */
  private async answerElsewhere(h: HeldRequest, tries: number): Promise<void> {
    if (this.stopped) {
      return;
    }
    const optionId = h.options.find((o) => /allow|proceed_once|once|default/.test(o)) ?? h.options[0];
    const path = `/api/conversations/${h.conversationId}/requests/${h.requestId}`;
    try {
      const res = await fetch(this.server.url + path, {
        method: 'POST',
        headers: { authorization: `Bearer ${this.server.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ option_id: optionId }),
      });
      await res.text();
      if (res.ok) {
        this.elsewhere.add(h.requestId);
        return;
      }
      if (res.status !== 429 && res.status < 500) {
        return; // 409: the extension (or a timeout) got there first
      }
    } catch {
      // restarting: try again
    }
    if (tries > 1) {
      setTimeout(() => void this.answerElsewhere(h, tries - 1), 1000);
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.server?.close();
  }
}
