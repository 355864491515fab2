import * as assert from 'node:assert/strict';
import { Inbox } from '../../../src/domain/inbox';
import type { FeedEvent } from '../../../src/domain/model';
import { mergeDetails } from '../../../src/domain/requestMerge';
import { RequestAssembler, type SseMessage } from '../../../src/protocol/requestAssembler';
import { toOptions } from '../../../src/protocol/wireToDomain';
import { memoryLogger } from './fakes';

const S = 'https://f.example';
const OPTS = [
  { optionId: 'allow', name: 'Allow', kind: 'allow_once' },
  { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
];
let nextId = 1;
function output(conv: string, rid: string, extra: Record<string, unknown> = {}) {
  return {
    id: String(nextId++),
    event: 'output',
    data: JSON.stringify({
      kind: 'output',
      stream: 'acp',
      data: 'x',
      turn_id: 't1',
      ts: '2026-01-01T00:00:00Z',
      conversation_id: conv,
      blocks: [{ kind: 'permission_request', request_id: rid, name: 'Bash', summary: 's', options: OPTS }],
      ...extra,
    }),
  };
}
function stage(
  conv: string,
  stageName: string,
  state: string,
  data: unknown,
  id: string | undefined = String(nextId++),
) {
  return {
    id,
    event: 'stage',
    data: JSON.stringify({
      kind: 'stage',
      stage: stageName,
      state,
      data: JSON.stringify(data),
      conversation_id: conv,
      ts: '2026-01-01T00:00:01Z',
    }),
  };
}
const types = (evs: FeedEvent[]) => evs.map((e) => e.type);
const K = (conversationId: string, requestId: string) => ({ server: S, conversationId, requestId });
/** The assembler's facts applied to a real inbox: the lifecycle rules live there. */
function pipeline() {
  const t = new RequestAssembler(S, memoryLogger());
  const inbox = new Inbox();
  const feed = (m: SseMessage) => {
    const evs = t.handleSse(m).events;
    evs.forEach((e) => inbox.apply(e));
    return evs;
  };
  return { t, inbox, feed };
}

describe('protocol/requestAssembler (wire → facts)', () => {
  it('keeps options verbatim and in order, drops entries without an optionId, fills a missing name', () => {
    const log = memoryLogger();
    const raw = [
      { optionId: 'b', name: 'B', kind: 'reject_once', _meta: { x: 1 } },
      { name: 'no id', kind: 'allow_once' },
      { optionId: 'a', kind: 'allow_once' },
      { optionId: '', name: 'empty' },
    ];
    const opts = toOptions(raw, log);
    assert.deepEqual(opts, [
      { optionId: 'b', name: 'B', kind: 'reject_once', _meta: { x: 1 } },
      { optionId: 'a', name: 'a', kind: 'allow_once' },
    ]);
    assert.equal(log.lines.filter((l) => l.startsWith('warn')).length, 2);
  });

  it('dedupes by event id and by request key', () => {
    const t = new RequestAssembler(S, memoryLogger());
    const m = output('c1', 'r1');
    assert.deepEqual(types(t.handleSse(m).events), ['requestOpened']);
    assert.equal(t.handleSse(m).duplicate, true);
    assert.deepEqual(
      t.handleSse({ ...m, id: String(nextId++) }).events,
      [],
      'same content under a new id is not re-emitted',
    );
    const done = stage('c1', 'request', 'done', { request_id: 'r1', outcome: 'answered', option_id: 'allow' });
    assert.deepEqual(types(t.handleSse(done).events), ['requestResolved']);
    assert.deepEqual(t.handleSse({ ...done, id: String(nextId++) }).events, []);
  });

  it('a request resolved out of order never shows in the inbox fed by the assembler', () => {
    const { inbox, feed } = pipeline();
    assert.deepEqual(
      types(feed(stage('c1', 'request', 'done', { request_id: 'r9', outcome: 'timeout', option_id: null }))),
      ['requestResolved'],
    );
    assert.deepEqual(types(feed(output('c1', 'r9'))), ['requestOpened'], 'the sighting is reported as a fact');
    feed(stage('c1', 'request', 'started', { request_id: 'r9', options: OPTS }));
    assert.equal(inbox.get(K('c1', 'r9')), undefined, 'the inbox never resurrects it');
    assert.equal(inbox.all().length, 0);
  });

  it('the same request id in two conversations are two requests', () => {
    const { inbox, feed } = pipeline();
    assert.equal(feed(output('c1', '0.aa')).length, 1);
    assert.equal(feed(output('c2', '0.aa')).length, 1);
    feed(stage('c1', 'request', 'done', { request_id: '0.aa', outcome: 'answered' }));
    assert.equal(inbox.get(K('c1', '0.aa'))!.state.kind, 'resolvedElsewhere');
    assert.equal(inbox.get(K('c2', '0.aa'))!.state.kind, 'open');
  });

  it('holds a request seen without options until a sighting brings them', () => {
    const t = new RequestAssembler(S, memoryLogger());
    assert.deepEqual(t.handleSse(stage('c1', 'request', 'started', { request_id: 'r2', timeout_ms: 1000 })).events, []);
    const evs = t.handleSse(output('c1', 'r2')).events;
    assert.equal(evs.length, 1);
    const e = evs[0];
    assert.ok(e.type === 'requestOpened');
    assert.equal(e.request.deadline, Date.parse('2026-01-01T00:00:01Z') + 1000);
    assert.equal(e.request.options.length, 2);
  });

  it('turn/done waiting keeps the waiting request (detached, new deadline); other terminal turns close in-turn ones', () => {
    const { inbox, feed } = pipeline();
    feed(output('c1', 'w1'));
    const evs = feed(
      stage('c1', 'turn', 'done', {
        turn_id: 't1',
        stop_reason: 'waiting',
        waiting: true,
        waiting_request_id: 'w1',
        waiting_deadline: '2026-01-03T00:00:00Z',
      }),
    );
    assert.deepEqual(types(evs), ['turnEndedWaiting']);
    const d = inbox.get(K('c1', 'w1'))!;
    assert.equal(d.detached, true);
    assert.equal(d.deadline, Date.parse('2026-01-03T00:00:00Z'));
    feed(output('c1', 'i1'));
    assert.deepEqual(types(feed(stage('c1', 'turn', 'failed', { turn_id: 't1', stop_reason: 'refusal' }))), [
      'turnEnded',
    ]);
    assert.equal(inbox.get(K('c1', 'i1'))!.state.kind, 'turnEnded', 'in-turn request closed');
    assert.equal(inbox.get(K('c1', 'w1'))!.state.kind, 'open', 'detached request survives');
  });

  it('a server stage event without id asks for a reconnect; conversations events ask for a re-list', () => {
    const t = new RequestAssembler(S, memoryLogger());
    assert.equal(t.handleSse(stage('c1', 'server', 'failed', { reason: 'x' }, undefined)).reconnect, true);
    assert.equal(t.handleSse({ event: 'conversations', data: '{"reason":"changed"}' }).conversationsChanged, true);
  });

  it('terminal conversation status is reported ended once, and the inbox ends its requests', () => {
    const { t, inbox, feed } = pipeline();
    feed(output('c1', 'r1'));
    const first = t.applyConversation({ id: 'c1', status: 'failed' });
    assert.deepEqual(types(first), ['conversation', 'conversationEnded']);
    first.forEach((e) => inbox.apply(e));
    assert.deepEqual(types(t.applyConversation({ id: 'c1', status: 'failed' })), ['conversation']);
    assert.equal(inbox.get(K('c1', 'r1'))!.state.kind, 'conversationEnded');
    assert.equal(inbox.openCount, 0);
  });

  it('reads diffs, text, locations (incl. fountain.sandboxLocations) and _meta.fountain.timeout from the raw line', () => {
    const t = new RequestAssembler(S, memoryLogger());
    const line = JSON.stringify({
      jsonrpc: '2.0',
      id: '4.0011223344556677',
      method: 'session/request_permission',
      params: {
        sessionId: 's',
        toolCall: {
          toolCallId: 'tc',
          title: 'Edit a.ts',
          kind: 'edit',
          content: [
            { type: 'diff', path: '/w/a.ts', oldText: null, newText: 'x' },
            { type: 'content', content: { type: 'text', text: 'why' } },
            { type: 'terminal', terminalId: 't' },
            { type: 'diff', path: 3 },
          ],
          locations: [{ path: '/w/a.ts', line: 3 }],
          _meta: { 'fountain.sandboxLocations': [{ path: '/sandbox/a.ts' }] },
        },
        options: OPTS,
        _meta: { fountain: { timeout: 600 } },
      },
    });
    const evs = t.handleSse({
      id: String(nextId++),
      event: 'output',
      data: JSON.stringify({ kind: 'output', stream: 'acp', data: line, conversation_id: 'c1' }),
    }).events;
    assert.equal(evs.length, 1);
    const r = (evs[0] as Extract<FeedEvent, { type: 'requestOpened' }>).request;
    assert.deepEqual(r.diffs, [{ path: '/w/a.ts', oldText: null, newText: 'x' }]);
    assert.deepEqual(r.textContent, ['why']);
    assert.deepEqual(r.locations, [{ path: '/w/a.ts', line: 3 }, { path: '/sandbox/a.ts' }]);
    assert.equal(r.metaTimeoutSec, 600);
    assert.equal(r.key.requestId, '4.0011223344556677');
  });

  it('ordinary output frames are skipped unparsed; one that is plainly not a JSON object is logged', () => {
    const log = memoryLogger();
    const t = new RequestAssembler(S, log);
    const frames = ['{"kind":"output"}', ' \n{"kind":"output"}\t', '{}', '{', '"{}"', '{"kind":"output"', 'x}', ''];
    frames.forEach((data, i) => assert.deepEqual(t.handleSse({ id: String(i + 1), event: 'output', data }).events, []));
    assert.deepEqual(
      log.lines.filter((l) => l.startsWith('warn ')).map((l) => /\(id (\d+)\)/.exec(l)?.[1]),
      ['4', '5', '6', '7', '8'],
    );
  });

  it('mergeDetails: earlier fields win, a detached deadline replaces an in-turn one', () => {
    const key = { server: S, conversationId: 'c', requestId: 'r' };
    const a = mergeDetails(key, undefined, { name: 'A', deadline: 10, options: OPTS });
    const b = mergeDetails(key, a, { name: 'B', deadline: 20 });
    assert.equal(b.name, 'A');
    assert.equal(b.deadline, 10);
    const c = mergeDetails(key, b, { detached: true, deadline: 30 });
    assert.equal(c.deadline, 30);
    assert.equal(c.detached, true);
  });
});
