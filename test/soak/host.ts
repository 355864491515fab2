/**
 * The soak's scripted user, inside each window's real extension host (loaded as extensionTestsPath; bundled by
 * test/soak/main.ts to out/test/soak/host.js). It answers through the extension's test API (`answer`: the path a
 * click takes, with its click-time check and one-in-flight guard), never by HTTP of its own. Every 300 ms it reads
 * the inbox, and reports to the harness (`/_soak/report`) what it showed, what it answered and with what result, and
 * the extension host's heap. The harness tells it whether it is the window the user works in (`active`).
 *
 * What the user does is read from the request's own command (`touch s<n>-<plan>.txt`, written by the harness):
 * `allow` / `reject` (answered after a think time), `dbl` (the same answer clicked twice at once), `late` (answered
 * after a longer think time, while a second client races it), `expire` / `skip` (never answered).
 */
import type { InboxItem } from '../../src/domain/inbox';
import type { AnswerResult } from '../../src/domain/model';
import * as vscode from 'vscode';
import type { TestApi } from '../../src/extension';
import { LocalAgentDriver } from './hostLocal';

/** The extension's test API (the soak is its own tier: it imports no other tier's helpers). */
async function getApi(): Promise<TestApi> {
  const api = await vscode.extensions
    .getExtension<TestApi | undefined>('fountain-approvals.fountain-approvals')
    ?.activate();
  if (!api) {
    throw new Error('the extension gave no test API (not in test mode?)');
  }
  return api;
}

interface Seen {
  readonly id: string;
  readonly requestId: string;
  readonly conversationId: string;
  readonly server: string;
  readonly label: string;
  readonly firstSeenAt: number;
  readonly options: string[];
  /** A local agent's request: its tool call id (what the agent's log names). */
  readonly toolCallId?: string;
  closedAs?: string;
  /** When the inbox closed it (its state's time, else when this user first saw it closed). */
  closedAt?: number;
}

interface Attempt {
  readonly requestId: string;
  /** A local agent's request: its tool call id. */
  readonly toolCallId?: string;
  readonly optionId: string;
  readonly at: number;
  doneAt?: number;
  result?: string;
}

interface Reply {
  readonly active?: boolean;
  readonly done?: boolean;
  /** The load is over: Stop Local Agent on this window's agent (its open requests close), no more restarts. */
  readonly stopLocal?: boolean;
  /** The harness is about to close this window: its user stops answering (a user who closes a window stops clicking). */
  readonly closing?: boolean;
}

const rand = (s: string): number => {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) {
    h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  }
  return ((h >>> 0) % 10000) / 10000;
};

function planOf(label: string): string | undefined {
  return /\b[sl]\d+-([a-z]+)/.exec(label)?.[1];
}

function optionFor(item: InboxItem, plan: string): string | undefined {
  const want = plan === 'reject' ? 'reject_once' : 'allow_once';
  return item.request.options.find((o) => o.kind === want)?.optionId;
}

export async function run(): Promise<void> {
  const api = await getApi();
  const base = process.env.FOUNTAIN_SOAK_URL;
  if (!base) {
    throw new Error('FOUNTAIN_SOAK_URL is not set');
  }
  const host = `${process.pid}`;
  const seen = new Map<string, Seen>();
  const attempts: Attempt[] = [];
  const busy = new Set<string>();
  let closing = false;
  let unsent: { seen: Seen[]; attempts: Attempt[] } = { seen: [], attempts: [] };
  let active = false;
  const isLocal = (item: InboxItem) => item.key.server.startsWith('local:');
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  const local = process.env.FOUNTAIN_SOAK_LOCAL === '1' && folder ? new LocalAgentDriver(api, folder) : undefined;
  let localEventsSent = 0;
  let replied = false;
  let stopping: Promise<void> | undefined;

  const answerOnce = async (item: InboxItem, optionId: string): Promise<AnswerResult | undefined> => {
    const a: Attempt = {
      requestId: item.key.requestId,
      ...(isLocal(item) ? { toolCallId: item.request.toolCallId } : {}),
      optionId,
      at: Date.now(),
    };
    attempts.push(a);
    let r: AnswerResult | undefined;
    try {
      r = await api.answer(item.id, optionId, () => true);
      a.result = r?.kind ?? 'refused';
    } catch (e) {
      a.result = `threw: ${String(e)}`;
    }
    a.doneAt = Date.now();
    unsent.attempts.push(a);
    return r;
  };

  const act = async (item: InboxItem, plan: string) => {
    busy.add(item.id);
    try {
      const optionId = optionFor(item, plan);
      if (!optionId) {
        return;
      }
      for (let tries = 0; tries < 20; tries++) {
        const current = api.items().find((i) => i.id === item.id);
        // A local agent's request is answered in its own window (never shared), wherever the user works.
        if (!current?.answerable || !(active || isLocal(current))) {
          return;
        }
        const results =
          plan === 'dbl'
            ? await Promise.all([answerOnce(current, optionId), answerOnce(current, optionId)])
            : [await answerOnce(current, optionId)];
        const retry = results.find((r) => r && (r.kind === 'leftOpen' || r.kind === 'network'));
        if (!retry) {
          return;
        }
        const wait = retry.kind === 'leftOpen' && retry.retryAfterSec ? retry.retryAfterSec * 1000 : 1000;
        await new Promise((r) => setTimeout(r, wait));
      }
    } finally {
      busy.delete(item.id);
    }
  };

  const tick = () => {
    const now = Date.now();
    for (const item of api.items()) {
      let s = seen.get(item.id);
      if (!s) {
        s = {
          id: item.id,
          requestId: item.key.requestId,
          conversationId: item.key.conversationId,
          server: item.key.server,
          label: item.label,
          firstSeenAt: item.firstSeenAt,
          options: item.request.options.map((o) => o.optionId),
          ...(isLocal(item) ? { toolCallId: item.request.toolCallId } : {}),
        };
        seen.set(item.id, s);
        unsent.seen.push(s);
      }
      if (!item.pending && !s.closedAs) {
        const st = item.state as { kind: string; reason?: string; cause?: string; at?: unknown };
        s.closedAs = [st.kind, st.reason ?? st.cause].filter(Boolean).join(': ');
        s.closedAt = typeof st.at === 'number' ? st.at : now;
        unsent.seen.push(s);
      }
      const plan = planOf(item.label);
      if (
        closing ||
        !(active || isLocal(item)) ||
        !item.answerable ||
        busy.has(item.id) ||
        !plan ||
        plan === 'expire' ||
        plan === 'skip'
      ) {
        continue;
      }
      const think = (plan === 'late' ? 2500 : 300) + rand(item.id) * 2000;
      if (now - s.firstSeenAt >= think) {
        void act(item, plan);
      }
    }
  };

  const report = async (): Promise<Reply> => {
    const batch = unsent;
    unsent = { seen: [], attempts: [] };
    const body = {
      host,
      heap: process.memoryUsage().heapUsed,
      state: api.connectionState().kind,
      seen: batch.seen,
      attempts: batch.attempts,
      local: local?.events.slice(localEventsSent),
      // Answers still being given (their attempts come in a later report).
      busy: busy.size,
      closing,
    };
    const localSent = local?.events.length ?? 0;
    try {
      const res = await fetch(`${base}/_soak/report`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      localEventsSent = localSent;
      return (await res.json()) as Reply;
    } catch {
      // the harness is gone or busy: keep the batch for the next report
      unsent.seen.unshift(...batch.seen);
      unsent.attempts.unshift(...batch.attempts);
      return {};
    }
  };

  for (;;) {
    tick();
    if (replied) {
      local?.tick(); // after the harness's first answer: a window opened after the load starts no agent
    }
    const reply = await report();
    replied ||= reply.active !== undefined;
    closing ||= reply.closing === true;
    if (reply.active !== undefined) {
      active = reply.active;
    }
    // Stop runs beside the loop: the window goes on reading its inbox and reporting while a start in progress ends.
    if ((reply.stopLocal || reply.done) && local) {
      stopping ??= local.stop();
    }
    if (reply.done) {
      await stopping;
      return;
    }
    await new Promise((r) => setTimeout(r, 300));
  }
}
