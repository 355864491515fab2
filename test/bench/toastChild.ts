/**
 * One design of the toast-latency bench, in its own process: `new` (src as it is) or `old` (the design before issue
 * 13: the 1.5 s burst window of ./oldToastPolicy.ts, then up to 1.5 s waiting for the agent's policy before the
 * toast). Each request's FeedEvent goes into a real Inbox; the time is taken from just before `inbox.apply` to the
 * real Notifier's call of `vscode.window.show*Message` (a stand-in `vscode` module records it). Requests come
 * `GAPS` apart (the same seeded schedule in both processes), from three conversations whose agent policy the
 * provenance service reads through a stand-in API answering in 5 ms. Prints one JSON line.
 */
import Module from 'node:module';
import { performance } from 'node:perf_hooks';

const design = process.argv[2] === 'old' ? 'old' : 'new';
const REQUESTS = Number(process.argv[3] ?? 30);
const SERVER = 'https://f.example';
const AGENT_LATENCY_MS = 5;

/** When each show call came, and its message. */
const shows: Array<{ at: number; message: string }> = [];

function anything(): unknown {
  const target = function () {};
  return new Proxy(target, {
    get: (_t, p) =>
      p === 'then' ? undefined : p === Symbol.toPrimitive ? () => '' : p === 'dispose' ? () => undefined : anything(),
    apply: () => anything(),
    construct: () => anything() as object,
  });
}
const noEvent = () => ({ dispose() {} });
const record = (message: string) => {
  shows.push({ at: performance.now(), message });
  return new Promise(() => undefined); // the toast stays up: nobody clicks
};
const vscodeStub = {
  l10n: { t: (s: string, ...a: unknown[]) => s.replace(/\{(\d+)\}/g, (_m, i: string) => String(a[Number(i)])) },
  window: {
    showInformationMessage: record,
    showWarningMessage: record,
    state: { focused: true },
    onDidChangeWindowState: noEvent,
  },
  ThemeColor: class {},
  commands: anything(),
};
type Resolve = (request: string, ...rest: unknown[]) => string;
const mod = Module as unknown as { _resolveFilename: Resolve; _cache: Record<string, unknown> };
const realResolve = mod._resolveFilename;
// Lazily loaded bundles (src/ui/lazyBundle.ts) are files beside dist/extension.js; run from the sources, each maps to
// its esbuild entry (esbuild.mjs), e.g. the reach sentences of the toast come from dist/details.js.
const LAZY_ENTRIES: Record<string, string> = {
  'details.js': require.resolve('../../src/ui/details/detailsDocument.ts'),
};
mod._resolveFilename = function (this: unknown, request: string, ...rest: unknown[]) {
  if (request === 'vscode') {
    return 'vscode';
  }
  const lazy = /[\\/]src[\\/]ui[\\/](\w+\.js)$/.exec(request)?.[1];
  return lazy && LAZY_ENTRIES[lazy] ? LAZY_ENTRIES[lazy] : realResolve.call(this, request, ...rest);
};
require.cache.vscode = { id: 'vscode', filename: 'vscode', loaded: true, exports: vscodeStub } as NodeJS.Module;

/* eslint-disable @typescript-eslint/no-require-imports -- loaded after the stand-in `vscode` is in place */
const { Inbox } = require('../../src/domain/inbox') as typeof import('../../src/domain/inbox');
const { Emitter } = require('../../src/domain/events') as typeof import('../../src/domain/events');
const { keyId } = require('../../src/domain/model') as typeof import('../../src/domain/model');
const { InboxNotifier, NotificationPolicy } =
  require('../../src/domain/notificationPolicy') as typeof import('../../src/domain/notificationPolicy');
const { Notifier } = require('../../src/ui/toast/notifier') as typeof import('../../src/ui/toast/notifier');
const { ProvenanceService } =
  require('../../src/ui/policy/provenanceService') as typeof import('../../src/ui/policy/provenanceService');
const { OldInboxNotifier, OldNotificationPolicy } = require('./oldToastPolicy') as typeof import('./oldToastPolicy');
/* eslint-enable @typescript-eslint/no-require-imports */

type InboxNotifierT = import('../../src/domain/notificationPolicy').InboxNotifier;
type Decision = import('../../src/domain/notificationPolicy').NotificationDecision;

/** Seeded gaps between requests: 1–3 s, as requests of a few agents at work come (never 3 within 2 s). */
function gaps(n: number): number[] {
  let x = 0x2545f491;
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out.push(1000 + ((x >>> 0) % 2000));
  }
  return out;
}

async function main(): Promise<void> {
  const inbox = new Inbox();
  const api = {
    getAgent: async (_server: string, agentId: string) => {
      await new Promise((r) => setTimeout(r, AGENT_LATENCY_MS));
      return { id: agentId, name: agentId, runtime: 'claude', policy: { default: 'ask' } };
    },
  };
  const provenance = new ProvenanceService(inbox, api as unknown as import('../../src/platform/agentApi').AgentApi);
  let source: InboxNotifierT;
  if (design === 'new') {
    source = new InboxNotifier(inbox, new NotificationPolicy({ mode: 'all' }));
  } else {
    // The old path: the old policy's decision, then the old Notifier's `await provenance.short(item)` (which waits up
    // to 1.5 s for the agent policy), then the same toast code as now (its reason, from the cache, is then known).
    const old = new OldInboxNotifier(inbox, new OldNotificationPolicy({ mode: 'all' }));
    const decided = new Emitter<Decision>();
    old.onDidDecide((d) => {
      if (d.type === 'merged') {
        decided.fire(d);
        return;
      }
      const item = inbox.get(keyId(d.key));
      void (item ? provenance.short(item) : Promise.resolve(undefined)).then(() => decided.fire(d));
    });
    source = { policy: { mode: 'all' }, onDidDecide: decided.event } as unknown as InboxNotifierT;
  }
  const config = { notifications: 'all', onDidChange: noEvent, setNotifications: async () => undefined };
  new Notifier(inbox, source, {} as never, config as never, {
    showDetails: async () => undefined,
    pickOption: async () => undefined,
    review: async () => undefined,
    provenance: (item) => provenance.cachedShort(item),
  });
  for (let c = 0; c < 3; c++) {
    inbox.apply({
      type: 'conversation',
      conversation: {
        server: SERVER,
        id: `conv-${c}`,
        title: `Conversation ${c}`,
        agentName: 'Claude',
        agentId: `a${c}`,
      },
    });
  }
  const label = (i: number) => `touch file-${i}.txt`;
  const appliedAt: number[] = [];
  const WARMUP = 3; // the first toasts load the confusables table and compile the toast path
  const schedule = gaps(REQUESTS + WARMUP);
  for (let i = 0; i < REQUESTS + WARMUP; i++) {
    await new Promise((r) => setTimeout(r, schedule[i]));
    appliedAt[i] = performance.now();
    inbox.apply({
      type: 'requestOpened',
      source: 'live',
      request: {
        key: { server: SERVER, conversationId: `conv-${i % 3}`, requestId: `r${i}` },
        name: 'Bash',
        title: label(i),
        kind: 'execute',
        textContent: [],
        diffs: [],
        locations: [],
        options: [
          { optionId: 'allow_always', name: 'Always Allow', kind: 'allow_always' },
          { optionId: 'allow', name: 'Allow', kind: 'allow_once' },
          { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
        ],
        detached: false,
      },
    });
  }
  await new Promise((r) => setTimeout(r, 3500)); // the old design's last window and provenance wait
  // A request's toast: the first show naming it, or the first shared notice after it arrived.
  const latencies: number[] = [];
  for (let i = WARMUP; i < REQUESTS + WARMUP; i++) {
    const s = shows.find(
      (x) => x.at >= appliedAt[i] && (x.message.includes(label(i)) || /approvals? waiting/.test(x.message)),
    );
    if (!s) {
      throw new Error(`${design}: request ${i} got no toast`);
    }
    latencies.push(s.at - appliedAt[i]);
  }
  const shared = shows.filter((x) => /approvals? waiting/.test(x.message)).length;
  process.stdout.write(JSON.stringify({ design, latencies, shared }) + '\n');
  process.exit(0);
}

void main();
