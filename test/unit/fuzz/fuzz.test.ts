/**
 * Property-based fuzzing (fast-check) of the parts that read hostile input: SSE framing through the real stream
 * client, random JSON through the wire mapping, hostile strings through every display helper, and the inbox state
 * machine under random operations. `npm test` runs a bounded number of cases (the counts are in the test names);
 * FUZZ_RUNS multiplies them for a longer local run. A failure prints fast-check's seed and shrunk counterexample.
 */
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import type { EventSourceMessage } from 'eventsource-parser';
import { Inbox } from '../../../src/domain/inbox';
import {
  AGENT_LINE_MARK,
  escapeIcons,
  markAgentLines,
  shortenForLabel,
  shortenInert,
  toInertText,
} from '../../../src/domain/inertText';
import { keyId, type AnswerResult, type FeedEvent, type PermissionOption } from '../../../src/domain/model';
import { foldConfusable, optionButtonTitles } from '../../../src/domain/optionChoice';
import { RequestAssembler } from '../../../src/protocol/requestAssembler';
import { SseClient } from '../../../src/protocol/sseClient';
import { MemoryCursorStore } from '../../memoryCursorStore';
import { inertBlock, inertBlockShort, inertLabel, inertLine, pickText } from '../../../src/ui/display';
import { FakeTimers, memoryLogger, settle } from '../protocol/fakes';

const SCALE = Math.max(1, Number(process.env.FUZZ_RUNS ?? 1));
const runs = (n: number) => Math.round(n * SCALE);

/** Strings an agent could send: any code points (lone surrogates, controls, bidi, tags), newlines, `$(`, `](`. */
const hostileChar = fc.oneof(
  { weight: 4, arbitrary: fc.string({ unit: 'grapheme-ascii', maxLength: 1 }) },
  { weight: 2, arbitrary: fc.constantFrom('\n', '\r', '\r\n', '\t', '\u202e', '\u200b', '\u2028', '\ufeff', '\u0000') },
  { weight: 2, arbitrary: fc.constantFrom('$(', '$(poweroff)', '](command:x)', '\\', '…', '⏎', '│ ') },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 2 }) }, // includes lone surrogates
  { weight: 1, arbitrary: fc.constantFrom('\ud800', '\udfff', '😀', '\u{e0041}', 'А', 'Α') },
);
const hostile = fc.array(hostileChar, { maxLength: 60 }).map((a) => a.join(''));
/** A hostile string blown up to any size up to 1 MB by repeating it. */
const hostileLarge = fc
  .tuple(hostile, fc.integer({ min: 1, max: 1_000_000 }))
  .map(([s, n]) => (s.length ? s.repeat(Math.ceil(n / s.length)).slice(0, n) : s));

const codePoints = (s: string) => Array.from(s);
/**
 * Characters no inert output may hold raw, written out independently of the code under test: controls, format
 * characters (bidi, zero-width, tags), lone surrogates, line/paragraph separators and the invisible fillers and
 * variation selectors the helpers escape.
 */
const RAW_UNSAFE =
  // eslint-disable-next-line no-misleading-character-class -- the class lists single invisible code points on purpose
  /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}\u034f\u115f\u1160\u17b4\u17b5\u180b-\u180d\u180f\u3164\ufe00-\ufe0e\uffa0\u{e0100}-\u{e01ef}]/u;
function hasRawUnsafe(s: string, allowNewlines: boolean): boolean {
  return RAW_UNSAFE.test(allowNewlines ? s.replace(/[\n\t]/g, '') : s);
}

describe(`fuzz: display helpers on hostile strings up to 1 MB (${runs(8)} large + ${runs(300)} small cases)`, () => {
  it(`${runs(8)} strings up to 1 MB: inert (no raw control/bidi/invisible character), one-line has no line break, shortened ≤ max and ends with …, nothing throws`, () => {
    fc.assert(
      fc.property(hostileLarge, fc.integer({ min: 1, max: 300 }), (s, max) => {
        const line = toInertText(s, { singleLine: true });
        assert.ok(!hasRawUnsafe(line, false));
        assert.ok(!/[\n\r\t]/.test(line));
        const block = toInertText(s);
        assert.ok(!hasRawUnsafe(block, true));
        const short = shortenForLabel(s, max);
        assert.ok(codePoints(short.text).length <= max);
        assert.equal(short.shortened, short.text !== line);
        if (short.shortened) {
          assert.ok(short.text.endsWith('…'));
          assert.ok(line.startsWith(short.text.slice(0, -1)), 'a shortened label is a prefix of the full text');
        }
        assert.ok(codePoints(inertLine(s)).length <= 1000);
        assert.ok(codePoints(inertLabel(s, max).text).length <= max);
        assert.ok(!hasRawUnsafe(inertBlockShort(s, 2000).text, true));
      }),
      { numRuns: runs(8) },
    );
  });

  it(`${runs(300)} strings: no link target survives, every agent line is marked, every icon reference is escaped`, () => {
    fc.assert(
      fc.property(hostile, (s) => {
        for (const t of [inertLine(s), inertLabel(s, 80).text, pickText(s)]) {
          // VS Code's linked-text parser needs `[text](target)` with `](` adjacent.
          assert.ok(!t.includes(']('), 'no `](` that a notification would turn into a link');
        }
        for (const b of [inertBlock(s), inertBlockShort(s, 40).text, markAgentLines(toInertText(s))]) {
          for (const l of b.split('\n')) {
            assert.ok(l.startsWith(AGENT_LINE_MARK), `unmarked agent line ${JSON.stringify(l)}`);
          }
        }
        // VS Code's icon syntax: `$(name)` draws an icon unless preceded by a backslash.
        const p = pickText(s);
        for (const m of p.matchAll(/(\\)?\$\(([A-Za-z0-9-]+(?:~[A-Za-z]+)?)\)/g)) {
          assert.equal(m[1], '\\', `icon reference ${m[0]} would be drawn`);
        }
        // escapeIcons only adds one backslash in front of each icon reference: removing it gives the text back.
        assert.equal(escapeIcons(s).replace(/\\(\$\((?=[A-Za-z0-9-]+(?:~[A-Za-z]+)?\)))/g, '$1'), s);
        assert.deepEqual(shortenInert(s, 1_000_000), { text: toInertText(s), shortened: false });
      }),
      { numRuns: runs(300) },
    );
  });

  it(`${runs(200)} option lists: toast titles are pairwise distinct after confusable folding and never collide with our buttons`, () => {
    const kind = fc.constantFrom('allow_once', 'allow_always', 'reject_once', 'reject_always', 'other');
    const name = fc.oneof(hostile, fc.constantFrom('Allow', 'Аllow', 'Reject', 'Details', 'More…', 'Allow once'));
    const options = fc.array(fc.record({ optionId: fc.oneof(hostile, fc.constantFrom('a', 'а')), name, kind }), {
      maxLength: 3,
    });
    fc.assert(
      fc.property(options, (opts: PermissionOption[]) => {
        const reserved = ['More…', 'Details', "Don't Show Again"];
        const titles = optionButtonTitles(
          opts,
          {
            name: (o) => inertLine(o.name, 60),
            id: (o) => inertLine(o.optionId, 60),
            withKind: (n, k) => `${k}: "${n}"`,
          },
          reserved,
        );
        const folded = titles.map(foldConfusable);
        assert.equal(new Set(folded).size, folded.length, titles.join(' | '));
        for (const r of reserved) {
          assert.ok(!folded.includes(foldConfusable(r)));
        }
      }),
      { numRuns: runs(200) },
    );
  });
});

describe(`fuzz: SSE framing through the real stream client (${runs(60)} cases)`, () => {
  /** One frame as the server means it. */
  const frame = fc.record({
    id: fc.integer({ min: 1, max: 1e9 }).map(String),
    event: fc.constantFrom('output', 'stage', 'conversations', undefined),
    // Data lines: anything but line breaks (which end a field in SSE).
    lines: fc.array(
      fc.string({ unit: 'grapheme', maxLength: 30 }).map((s) => s.replace(/[\r\n]/g, '')),
      { minLength: 1, maxLength: 3 },
    ),
  });
  it(`${runs(60)} streams: any byte chunking, LF/CRLF/CR line ends and comments deliver exactly the frames sent, in order`, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(frame, { minLength: 1, maxLength: 6, size: 'max' }),
        fc.constantFrom('\n', '\r\n', '\r'),
        fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 30 }),
        fc.boolean(),
        async (frames, eol, cuts, comments) => {
          const text =
            (comments ? `: connected${eol}${eol}` : '') +
            frames
              .map(
                (f) =>
                  `id: ${f.id}${eol}` +
                  (f.event ? `event: ${f.event}${eol}` : '') +
                  (comments ? `: heartbeat${eol}` : '') +
                  f.lines.map((l) => `data: ${l}${eol}`).join('') +
                  eol,
              )
              .join('') +
            // A heartbeat follows, as on a live stream: a final lone CR is only a line end once the next byte shows.
            ': heartbeat\n';
          // The body is cut at random byte positions (a chunk may split a CRLF or a UTF-8 sequence).
          const bytes = new TextEncoder().encode(text);
          let ctl!: ReadableStreamDefaultController<Uint8Array>;
          const body = new ReadableStream<Uint8Array>({ start: (c) => void (ctl = c) });
          const fetch = () =>
            Promise.resolve(new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } }));
          const messages: EventSourceMessage[] = [];
          const client = new SseClient({
            url: 'https://f.example/api/events/stream',
            key: 'ftn_live_fuzz',
            cursorStore: new MemoryCursorStore(),
            cursorScope: 'fuzz',
            env: { logger: memoryLogger(), timers: new FakeTimers(), random: () => 0.5, fetch },
            onMessage: (m) => void messages.push(m),
          });
          void client.start();
          await settle();
          let at = 0;
          for (let i = 0; at < bytes.length; i++) {
            const n = cuts[i % cuts.length];
            ctl.enqueue(bytes.slice(at, at + n));
            at += n;
          }
          await settle();
          client.dispose();
          assert.deepEqual(
            messages.map((m) => [m.id, m.event ?? 'message', m.data]),
            frames.map((f) => [f.id, f.event ?? 'message', f.lines.join('\n')]),
          );
        },
      ),
      { numRuns: runs(60) },
    );
  });
});

describe(`fuzz: random JSON into the wire mapping (${runs(400)} messages)`, () => {
  const S = 'https://f.example';
  const OFFERED = ['allow', 'reject', 'always'];
  /** Mostly well-shaped output/stage events with random values in every field, plus arbitrary JSON. */
  const block = fc.record(
    {
      kind: fc.constantFrom('permission_request', 'text', 42, null),
      request_id: fc.oneof(fc.constantFrom('r1', 'r2', '1.00ab'), fc.jsonValue()),
      name: fc.oneof(hostile, fc.jsonValue()),
      summary: fc.oneof(hostile, fc.jsonValue()),
      options: fc.oneof(
        fc.array(
          fc.record(
            { optionId: fc.oneof(fc.constantFrom(...OFFERED), fc.jsonValue()), name: hostile, kind: fc.jsonValue() },
            { requiredKeys: [] },
          ),
          { maxLength: 4 },
        ),
        fc.jsonValue(),
      ),
    },
    { requiredKeys: [] },
  );
  const payload = fc.oneof(
    fc.record(
      {
        kind: fc.constantFrom('output', 'stage'),
        stream: fc.constantFrom('acp', 'stderr'),
        stage: fc.constantFrom('request', 'turn', 'conversation'),
        state: fc.constantFrom('started', 'done', 'waiting', 'failed'),
        data: fc.oneof(
          hostile,
          fc.jsonValue().map((v) => JSON.stringify(v)),
        ),
        turn_id: fc.oneof(fc.constant('t1'), fc.jsonValue()),
        ts: fc.oneof(fc.constant('2026-01-01T00:00:00Z'), hostile),
        conversation_id: fc.oneof(fc.constantFrom('c1', 'c2'), fc.jsonValue()),
        blocks: fc.oneof(fc.array(block, { maxLength: 2 }), fc.jsonValue()),
      },
      { requiredKeys: [] },
    ),
    fc.jsonValue(),
  );
  const message = fc.record({
    id: fc.option(fc.integer({ min: 1, max: 50 }).map(String), { nil: undefined }),
    event: fc.constantFrom('output', 'stage', 'conversations', 'server', undefined),
    data: fc.oneof({ weight: 5, arbitrary: payload.map((p) => JSON.stringify(p)) }, { weight: 1, arbitrary: hostile }),
  });
  it(`${runs(400)} messages in ${runs(40)} streams: never throws; opened requests belong to this server, carry only string option ids the message offered, and a resolved key never reopens in the inbox they feed`, () => {
    fc.assert(
      fc.property(fc.array(message, { minLength: 1, maxLength: 10, size: 'max' }), (msgs) => {
        const assembler = new RequestAssembler(S, memoryLogger());
        // The assembler only reports sightings; the inbox owns "a resolved request never comes back".
        const inbox = new Inbox();
        const resolved = new Set<string>();
        const reopened: string[] = [];
        inbox.onDidChangeItems((c) => reopened.push(...c.added.filter((id) => resolved.has(id))));
        for (const m of msgs) {
          const r = assembler.handleSse(m);
          for (const e of r.events) {
            inbox.apply(e);
            if (e.type === 'requestOpened') {
              assert.equal(e.request.key.server, S);
              for (const o of e.request.options) {
                assert.equal(typeof o.optionId, 'string');
                assert.ok(o.optionId.length > 0);
                assert.ok(
                  m.data.includes(JSON.stringify(o.optionId).slice(1, -1)),
                  `option ${o.optionId} was not in the message`,
                );
              }
            } else if (e.type === 'requestResolved') {
              resolved.add(keyId(e.key));
            }
          }
        }
        assert.deepEqual(reopened, [], 'a resolved request reopened in the inbox');
        inbox.dispose();
      }),
      { numRuns: runs(40) },
    );
  });
});

describe(`fuzz: the inbox state machine under random operations (${runs(150)} runs of up to 60 steps)`, () => {
  const S = 'https://f.example';
  const OPTIONS: PermissionOption[] = [
    { optionId: 'allow', name: 'Allow', kind: 'allow_once' },
    { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
  ];
  const rid = fc.constantFrom('r1', 'r2', 'r3');
  const cid = fc.constantFrom('c1', 'c2');
  const key = fc.record({ server: fc.constant(S), conversationId: cid, requestId: rid });
  const result: fc.Arbitrary<AnswerResult> = fc.oneof(
    fc.constant({ kind: 'answered' } as const),
    fc.constant({ kind: 'resolvedElsewhere' } as const),
    fc.constant({ kind: 'notFound' } as const),
    fc.constant({ kind: 'network', message: 'x' } as const),
    fc.constant({ kind: 'leftOpen', reason: 'busy' } as const),
    fc.constant({ kind: 'notDelivered' } as const),
  );
  type Op =
    | { op: 'feed'; event: FeedEvent }
    | { op: 'click'; key: { server: string; conversationId: string; requestId: string }; optionId: string }
    | { op: 'finish'; pick: number; result: AnswerResult }
    | { op: 'tick'; ms: number };
  const op: fc.Arbitrary<Op> = fc.oneof(
    key.map((k) => ({
      op: 'feed' as const,
      event: {
        type: 'requestOpened' as const,
        source: 'live' as const,
        request: {
          key: k,
          name: 'Bash',
          title: 't',
          kind: 'execute',
          textContent: [],
          diffs: [],
          locations: [],
          options: OPTIONS,
          detached: false,
        },
      },
    })),
    fc.tuple(key, fc.constantFrom('allow', 'reject', null)).map(([k, o]) => ({
      op: 'feed' as const,
      event: { type: 'requestResolved' as const, key: k, outcome: 'answered', optionId: o, detached: false, at: 0 },
    })),
    cid.map((c) => ({
      op: 'feed' as const,
      event: { type: 'turnEnded' as const, server: S, conversationId: c, at: 0 },
    })),
    fc.tuple(key, fc.option(fc.integer({ min: 0, max: 2_000_000 }), { nil: undefined })).map(([k, d]) => ({
      op: 'feed' as const,
      event: { type: 'turnEndedWaiting' as const, key: k, deadline: d === undefined ? undefined : 1_000_000 + d },
    })),
    fc
      .tuple(key, fc.constantFrom('allow', 'reject', 'forged', ''))
      .map(([k, o]) => ({ op: 'click' as const, key: k, optionId: o })),
    fc.tuple(fc.nat(5), result).map(([pick, r]) => ({ op: 'finish' as const, pick, result: r })),
    fc.integer({ min: 0, max: 400_000 }).map((ms) => ({ op: 'tick' as const, ms })),
  );
  it(`${runs(150)} runs: never two answers in flight or accepted for one request, never an unoffered option, a closed request never reopens (but a clock expiry the server contradicts), counts agree`, () => {
    fc.assert(
      fc.property(fc.array(op, { minLength: 10, maxLength: 60, size: 'max' }), (ops) => {
        let now = 1_000_000;
        const inbox = new Inbox({ now: () => now, lingerMs: 30_000 });
        type Ticket = Parameters<Inbox['completeAnswer']>[0];
        const inFlight: Ticket[] = [];
        const accepted = new Map<string, number>(); // answers the server accepted, per request
        const closedAt = new Map<string, string>(); // closed state kinds seen, per request
        for (const o of ops) {
          if (o.op === 'feed') {
            inbox.apply(o.event);
          } else if (o.op === 'click') {
            const id = keyId(o.key);
            const begin = inbox.beginAnswer(o.key, o.optionId);
            if (begin.ok) {
              assert.ok(
                OPTIONS.some((x) => x.optionId === begin.ticket.optionId),
                'an unoffered option got a ticket',
              );
              assert.ok(!inFlight.some((t) => t.id === id), 'two answers in flight for one request');
              assert.ok(
                !closedAt.has(id) || closedAt.get(id) === 'expired:clock',
                'a closed request could be answered',
              );
              inFlight.push(begin.ticket);
            }
          } else if (o.op === 'finish') {
            if (inFlight.length) {
              const [t] = inFlight.splice(o.pick % inFlight.length, 1);
              if (o.result.kind === 'answered' || o.result.kind === 'notDelivered') {
                accepted.set(t.id, (accepted.get(t.id) ?? 0) + 1);
              }
              inbox.completeAnswer(t, o.result);
            }
          } else {
            now += o.ms;
            inbox.tick(now);
          }
          for (const [id, n] of accepted) {
            assert.ok(n <= 1, `request ${id} was answered ${n} times`);
          }
          for (const item of inbox.all()) {
            const s = item.state;
            if (!item.pending) {
              closedAt.set(item.id, s.kind === 'expired' ? `expired:${s.source}` : s.kind);
            } else if (closedAt.has(item.id)) {
              // Only an expiry this inbox inferred from its own clock may be undone (the server said it waits on).
              assert.equal(
                closedAt.get(item.id),
                'expired:clock',
                `${item.id} reopened after ${closedAt.get(item.id)}`,
              );
              closedAt.delete(item.id);
            }
            assert.equal(item.answerable, item.state.kind === 'open' || item.state.kind === 'leftOpen');
          }
          assert.equal(inbox.openCount, inbox.open().length);
        }
      }),
      { numRuns: runs(150) },
    );
  });
});
