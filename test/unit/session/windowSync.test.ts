/**
 * The windows' shared stream (src/session/windowSync.ts) between real WindowHubs over real unix sockets in a fresh
 * folder, each "window" with its own Inbox, its own FountainSession and its own toast policy, against the local
 * Fountain server in this process. Waits are bounded and never assert on time.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { answerThroughInbox } from '../../../src/domain/answering';
import { Inbox } from '../../../src/domain/inbox';
import { remoteDanger } from '../../../src/policy/remoteDanger';
import { keyId, type ConnectionState, type FeedEvent, type RequestKey } from '../../../src/domain/model';
import type { Json } from '../../../src/hub/windowHub';
import { InboxNotifier, NotificationPolicy } from '../../../src/domain/notificationPolicy';
import { nullLogger } from '../../../src/protocol/env';
import { FountainSession } from '../../../src/session/fountainSession';
import { isLocalSource } from '../../../src/session/localSource';
import { eventFromJson, eventToJson } from '../../../src/session/windowFacts';
import {
  SharedCursorStore,
  WindowSync,
  type StreamHolder,
  type WindowSyncOptions,
} from '../../../src/session/windowSync';
import { createAndAsk, control, requestLog } from '../../support/serverClient';
import { startInProcess } from '../../support/serverFixture';
import { waitFor } from '../../support/wait';
import { MemoryCursorStore } from '../../memoryCursorStore';

type RunningServer = Awaited<ReturnType<typeof startInProcess>>;
const unixOnly = process.platform === 'win32' ? describe.skip : describe;

/** A window's persisted cursors (globalState in the product), remembering what the stream read from it. */
class CursorSpy extends MemoryCursorStore {
  readonly reads: (string | undefined)[] = [];
  override get(scope: string): string | undefined {
    const v = super.get(scope);
    this.reads.push(v);
    return v;
  }
}

/** One window: what src/extension.ts builds around the sync, minus VS Code (with the real denylist check). */
class TestWindow {
  readonly inner = new CursorSpy();
  readonly cursors = new SharedCursorStore(this.inner);
  readonly inbox = new Inbox({ danger: remoteDanger });
  readonly session = new FountainSession({ inbox: this.inbox, cursorStore: this.cursors, logger: nullLogger });
  readonly notifier = new InboxNotifier(this.inbox, new NotificationPolicy());
  readonly toasts: string[] = [];
  readonly sync: WindowSync;
  holds = false;
  mirrored: ConnectionState | undefined;

  constructor(
    readonly name: string,
    dir: string,
    server: RunningServer,
    focused: boolean,
    confirmDanger?: WindowSyncOptions['confirmDanger'],
  ) {
    const session = this.session;
    const stream: StreamHolder = {
      // Like src/platform/connection.ts: a follower keeps its HTTP client, without a stream.
      holdStream: (h) => {
        if (h !== this.holds || !session.client) {
          this.holds = h;
          session.connect({ url: server.url, key: server.apiKey }, undefined, h);
        }
      },
      mirror: (s) => void (this.mirrored = s),
      get state() {
        return session.state;
      },
      onDidChangeState: session.onDidChangeState,
      onDidReceiveEvent: session.onDidReceiveEvent,
      reconnect: () => void session.reconnect(),
      refresh: () => session.refresh(),
    };
    this.sync = new WindowSync({
      dir,
      windowId: name,
      focused,
      log: { info: () => undefined, warn: () => undefined },
      inbox: this.inbox,
      stream,
      sender: this.session,
      cursors: this.cursors,
      isLocal: isLocalSource,
      ...(confirmDanger ? { confirmDanger } : {}),
    });
    this.notifier.shouldToast = (item) => this.sync.shouldToast(item);
    this.notifier.onDidDecide((d) => {
      this.toasts.push(...(d.type === 'single' ? [keyId(d.key)] : d.keys.map(keyId)));
    });
  }

  role(): string {
    return this.sync.hub.role;
  }

  /** Closing the window: its extension host ends the hub and the stream. */
  close(): void {
    this.sync.dispose();
    this.session.dispose();
    this.notifier.dispose();
  }
}

unixOnly('WindowSync: the windows of one VS Code share one stream', function () {
  this.timeout(60_000);
  let server: RunningServer;
  let dir: string;
  let windows: TestWindow[] = [];

  before(async () => {
    server = await startInProcess();
  });
  after(async () => {
    await server.close();
  });
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fountain-sync-'));
  });
  afterEach(() => {
    windows.forEach((w) => w.close());
    windows = [];
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** Opens a window and waits until it has a role (the first one leads). */
  async function open(
    name: string,
    focused = false,
    confirmDanger?: WindowSyncOptions['confirmDanger'],
  ): Promise<TestWindow> {
    const w = new TestWindow(name, dir, server, focused, confirmDanger);
    windows.push(w);
    await waitFor(`${name} to lead or follow`, () => w.role() === 'leader' || w.role() === 'follower');
    return w;
  }

  async function streamIds(): Promise<number[]> {
    const r = await control<{ data: { id: number; kind: string }[] }>(server, 'GET', '/streams');
    return r.body.data.filter((s) => s.kind === 'account').map((s) => s.id);
  }
  const accountStreams = async () => (await streamIds()).length;

  async function answers(conversationId: string): Promise<number> {
    const prefix = `/api/conversations/${conversationId}/requests/`;
    return (await requestLog(server)).filter((e) => e.method === 'POST' && e.path.startsWith(prefix)).length;
  }

  const pendingIn = (w: TestWindow, k: RequestKey) => () => w.inbox.get(k)?.pending === true;

  async function ask(command: string): Promise<{ id: string; key: RequestKey }> {
    const r = await createAndAsk(server, 'claude', `run: ${command}`);
    return { id: r.id, key: { server: server.url, conversationId: r.id, requestId: r.requestId } };
  }

  it("holds one stream; the follower's inbox gets the leader's request, and only the focused window toasts it", async () => {
    const a = await open('a', false);
    await waitFor('a to be connected', () => a.session.state.kind === 'connected');
    const b = await open('b', true);
    assert.equal(a.role(), 'leader');
    assert.equal(b.role(), 'follower');
    assert.equal(b.holds, false, 'the follower opened no stream');
    const { key } = await ask('touch one-stream.txt');
    await waitFor('the request in the follower', pendingIn(b, key));
    await waitFor('the request in the leader', pendingIn(a, key));
    await waitFor('the toast decision', () => a.toasts.length + b.toasts.length > 0);
    assert.deepEqual(b.toasts, [keyId(key)], 'the focused follower toasts it');
    assert.deepEqual(a.toasts, [], 'the unfocused leader does not');
    assert.equal(await accountStreams(), 1);
    assert.equal(b.mirrored?.kind, 'connected', "the follower shows the leader's connection state");
    // The follower's Reconnect runs in the leader: still one stream, a new one.
    const [before] = await streamIds();
    await b.sync.inLeader('reconnect');
    await waitFor('a new stream', async () => {
      const ids = await streamIds();
      return ids.length === 1 && ids[0] !== before;
    });
    assert.equal(b.holds, false);
  });

  it("a follower's answer goes through the leader exactly once and closes the request in every window", async () => {
    const a = await open('a');
    const b = await open('b', true);
    const c = await open('c');
    assert.deepEqual([a.role(), b.role(), c.role()], ['leader', 'follower', 'follower']);
    const { id, key } = await ask('touch answered-once.txt');
    await waitFor('the request in c', pendingIn(c, key));
    await waitFor('the request in b', pendingIn(b, key));
    const first = await answerThroughInbox(b.inbox, b.sync.answerSource, key, 'allow');
    assert.equal(first.kind === 'sent' && first.result.kind, 'answered');
    assert.equal(b.inbox.get(key)?.state.kind, 'answeredByYou');
    await waitFor('the answer in a', () => a.inbox.get(key)?.state.kind === 'answeredByYou');
    await waitFor('the answer in c', () => c.inbox.get(key)?.state.kind === 'resolvedElsewhere');
    const inC = c.inbox.get(key)!.state;
    assert.equal(inC.kind === 'resolvedElsewhere' && inC.optionId, 'allow');
    // Again from c, bypassing c's own inbox guard: the leader's inbox refuses it and nothing is sent.
    assert.deepEqual(await c.sync.hub.request({ t: 'answer', key: { ...key }, optionId: 'allow' }), {
      refused: 'stale',
    });
    const again = await answerThroughInbox(b.inbox, b.sync.answerSource, key, 'reject');
    assert.equal(again.kind, 'refused');
    assert.equal(await answers(id), 1, 'one answer POST in all');
  });

  it("a follower's answer that the leader POSTed before it went away is settled from the server, not sent again", async () => {
    const a = await open('a');
    await waitFor('a to be connected', () => a.session.state.kind === 'connected');
    const b = await open('b', true);
    const { id, key } = await ask('touch leader-leaves-mid-answer.txt');
    await waitFor('the request in b', pendingIn(b, key));
    await waitFor('the request in a', pendingIn(a, key));
    server.setLatency(1500);
    try {
      const answering = answerThroughInbox(b.inbox, b.sync.answerSource, key, 'allow');
      await waitFor("the leader's POST at the server", () => {
        return a.inbox.get(key)?.state.kind === 'answering' && server.inFlight().current > 0;
      });
      // The leader's window closes mid-answer: its hub goes first, its POST still reaches the server (the soak's case).
      a.sync.dispose();
      const first = await answering;
      assert.equal(first.kind === 'sent' && first.result.kind, 'answered', 'the server recorded our option');
      assert.equal(b.inbox.get(key)?.state.kind, 'answeredByYou');
      const again = await answerThroughInbox(b.inbox, b.sync.answerSource, key, 'allow');
      assert.equal(again.kind, 'refused', 'an answered request is not answered again');
    } finally {
      server.setLatency(0);
    }
    await waitFor('the POST in the log', async () => (await answers(id)) > 0);
    assert.equal(await answers(id), 1, 'one answer POST in all');
  });

  it('the leader answers only an option the runtime offered, and never a local agent request', async () => {
    const a = await open('a');
    const b = await open('b');
    const { id, key } = await ask('touch not-offered.txt');
    await waitFor('the request in b', pendingIn(b, key));
    const hub = b.sync.hub;
    assert.deepEqual(await hub.request({ t: 'answer', key: { ...key }, optionId: 'allow_everything' }), {
      refused: 'notOffered',
    });
    const local = { server: 'local:x', conversationId: 'x', requestId: '1' };
    await assert.rejects(hub.request({ t: 'answer', key: local, optionId: 'allow' }), /own window/);
    await assert.rejects(hub.request({ answer: 'allow' }), /not an answer request/);
    assert.equal(await answers(id), 0);
    assert.equal(a.inbox.get(key)?.pending, true);
    assert.equal(b.inbox.get(key)?.pending, true);
  });

  it("an allow of a dangerous request over the hub is sent only after the leader's own modal is confirmed; Cancel sends nothing", async () => {
    const modals: { reason: string; optionId: string; answer: (yes: boolean) => void }[] = [];
    const a = await open('a', false, (_item, option, danger) => {
      return new Promise<boolean>((answer) =>
        modals.push({ reason: danger.reason, optionId: option.optionId, answer }),
      );
    });
    const b = await open('b', true);
    assert.deepEqual([a.role(), b.role()], ['leader', 'follower']);
    const { id, key } = await ask('rm -rf ~');
    await waitFor('the request in b', pendingIn(b, key));
    await waitFor('the request in a', pendingIn(a, key));
    assert.equal(a.inbox.get(key)?.danger?.reason, 'recursively removes your home directory');

    // What a follower (or any process that can reach the hub socket) sends: no modal in b, none faked in the body.
    const raw = b.sync.hub.request({ t: 'answer', key: { ...key }, optionId: 'allow', confirmed: true });
    await waitFor("the danger modal in the leader's window", () => modals.length === 1);
    assert.deepEqual([modals[0].reason, modals[0].optionId], ['recursively removes your home directory', 'allow']);
    assert.equal(await answers(id), 0, 'nothing is sent while the modal is open');
    assert.deepEqual(await b.sync.hub.request({ t: 'answer', key: { ...key }, optionId: 'allow_always' }), {
      refused: 'busyAnswering',
    });
    assert.equal(modals.length, 1, 'one modal at a time');
    modals[0].answer(false); // Cancel
    assert.deepEqual(await raw, { refused: 'notConfirmed' });
    assert.equal(await answers(id), 0, 'Cancel sent nothing');
    assert.equal(a.inbox.get(key)?.pending, true);

    // The follower's own answer path: its result says why nothing was sent, and the request stays answerable.
    const cancelled = b.sync.answerSource.send(key, 'allow');
    await waitFor('the second modal', () => modals.length === 2);
    modals[1].answer(false);
    const r = await cancelled;
    assert.equal(r.kind, 'network');
    assert.match(r.kind === 'network' ? r.message : '', /not confirmed in the window holding the Fountain connection/);
    assert.equal(await answers(id), 0);

    const confirmed = answerThroughInbox(b.inbox, b.sync.answerSource, key, 'allow');
    await waitFor('the third modal', () => modals.length === 3);
    assert.equal(await answers(id), 0);
    modals[2].answer(true); // Allow Anyway, in the leader's window
    const sent = await confirmed;
    assert.equal(sent.kind === 'sent' && sent.result.kind, 'answered');
    assert.equal(await answers(id), 1, 'one answer, after the confirmation');
    await waitFor('the answer in a', () => a.inbox.get(key)?.state.kind === 'answeredByYou');
  });

  it('a leader with no confirmation never sends a dangerous allow from the hub; a reject, and a harmless allow, need none', async () => {
    const a = await open('a');
    const b = await open('b');
    assert.equal(a.role(), 'leader');
    const danger = await ask('rm -rf ~');
    const harmless = await ask('touch harmless-over-hub.txt');
    await waitFor('the requests in b', () => pendingIn(b, danger.key)() && pendingIn(b, harmless.key)());
    await waitFor('the requests in a', () => pendingIn(a, danger.key)() && pendingIn(a, harmless.key)());
    assert.deepEqual(await b.sync.hub.request({ t: 'answer', key: { ...danger.key }, optionId: 'allow' }), {
      refused: 'notConfirmed',
    });
    assert.equal(await answers(danger.id), 0);
    const rejected = await b.sync.hub.request({ t: 'answer', key: { ...danger.key }, optionId: 'reject' });
    assert.deepEqual(rejected, { sent: { kind: 'answered' } });
    const allowed = await b.sync.hub.request({ t: 'answer', key: { ...harmless.key }, optionId: 'allow' });
    assert.deepEqual(allowed, { sent: { kind: 'answered' } });
    assert.equal(await answers(danger.id), 1);
    assert.equal(await answers(harmless.id), 1);
  });

  it('when the leader closes, a follower takes over the stream, keeps the open request and loses none', async () => {
    const a = await open('a');
    await waitFor('a to be connected', () => a.session.state.kind === 'connected');
    const b = await open('b');
    const first = await ask('touch before-takeover.txt');
    await waitFor('the request in b', pendingIn(b, first.key));
    const cursor = await waitFor('the stream cursor in b', () => b.sync.hub.cursor as { cursor: string } | undefined);
    assert.deepEqual(b.inner.values.size, 0, 'b never stored a cursor of its own');
    a.close();
    // Asked while no window holds the stream: the new leader's resume (and its first backfill) must find it.
    const during = await ask('touch during-takeover.txt');
    await waitFor('b to lead', () => b.role() === 'leader');
    await waitFor('b to connect', () => b.session.state.kind === 'connected');
    await waitFor('the request asked during the takeover, in b', pendingIn(b, during.key));
    assert.equal(b.inbox.get(first.key)?.pending, true, 'the open request stayed open');
    // The takeover found no cursor of b's own, stored a's, and b's stream resumed from it.
    assert.deepEqual(b.inner.reads, [undefined, cursor.cursor]);
    assert.equal(await accountStreams(), 1);
    const c = await open('c', true);
    assert.equal(c.role(), 'follower');
    await waitFor("the new leader's snapshot in c", () => pendingIn(c, first.key)() && pendingIn(c, during.key)());
    assert.deepEqual(c.toasts, [], 'requests from the snapshot toast nowhere again');
    const after = await ask('touch after-takeover.txt');
    await waitFor('the next request in c', pendingIn(c, after.key));
    await waitFor('its toast', () => c.toasts.length > 0);
    assert.deepEqual(c.toasts, [keyId(after.key)]);
    assert.deepEqual(b.toasts.includes(keyId(after.key)), false);
  });
});

describe('WindowSync when the hub cannot elect', () => {
  it('opens its own stream instead of none', async () => {
    const server = await startInProcess();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fountain-sync-'));
    const w = new TestWindow('alone', dir, server, true);
    try {
      // The hub folder vanishes before the election claims its first term: the claim fails.
      fs.rmSync(path.join(dir, 'hub'), { recursive: true, force: true });
      await waitFor('the stream', () => w.holds && w.session.state.kind === 'connected', 10_000);
      assert.equal(w.role(), 'electing');
    } finally {
      w.close();
      await server.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('WindowSync facts as JSON', () => {
  it("a backfill's sets survive the hub's JSON, and what is not a fact is refused", () => {
    const e: FeedEvent = {
      type: 'backfillComplete',
      server: 'https://f.example',
      openKeys: new Set(['k1', 'k2']),
      conversationIds: new Set(['c1']),
      inTurnRead: new Set(['c1']),
      at: 5,
      startedAt: 4,
    };
    const back = eventFromJson(JSON.parse(JSON.stringify(eventToJson(e))) as Json);
    assert.deepEqual(back, e);
    assert.equal(eventFromJson({ type: 'somethingElse' }), undefined);
    assert.equal(eventFromJson(['requestOpened']), undefined);
  });
});
