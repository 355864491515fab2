import { strict as assert } from 'node:assert';
import { dryRun } from '../../../src/domain/dryRun';
import {
  checkRule,
  entryAllowed,
  patternAllows,
  waitingAllowed,
  requestOfSubject,
  subjectOfEntry,
  type RuleGate,
} from '../../../src/domain/dryRunMatch';
import type { HistoryEntry } from '../../../src/domain/history';

const local = 'local:s1';
const entry = (over: Partial<HistoryEntry>): HistoryEntry => ({
  at: 1,
  server: local,
  conversationId: 'c1',
  kind: 'execute',
  optionId: 'allow',
  optionKind: 'allow_once',
  outcome: 'answered',
  ...over,
});
const gate = (over: Partial<RuleGate['snapshot']> = {}): RuleGate => ({
  snapshot: { mode: 'ask', config: { roots: ['/w'] }, home: '/home/u', ...over },
  cwd: '/w',
});

describe('domain: dry run of an "always" rule over the history, asked of the local gate', () => {
  const history: HistoryEntry[] = [
    entry({ at: 10, label: 'git init -q out', conversationId: 'a' }),
    entry({ at: 20, label: '`git init -q out/x`', conversationId: 'b', optionKind: 'reject_once', optionId: 'no' }),
    entry({ at: 30, label: 'git init -q out && rm -rf /', conversationId: 'c' }),
    entry({ at: 40, label: 'touch out', conversationId: 'a' }),
    entry({ at: 50, conversationId: 'd' }), // label not kept
    entry({ at: 60, label: 'Edit /w/src/a.ts', kind: 'edit', conversationId: 'e' }),
    entry({ at: 70, label: 'git init -q out', server: 'https://fountain.example', conversationId: 'r' }),
  ];
  const isLocal = (e: HistoryEntry) => e.server.startsWith('local:');

  it('counts the past requests the gate would have allowed, their conversations and the rejected ones, newest first', () => {
    const g = gate();
    const r = dryRun(history, (e) => entryAllowed('execute:git init -q *', e, g), { source: isLocal, kind: 'execute' });
    assert.deepEqual(
      r.hits.map((h) => [h.entry.at, h.rejected]),
      [
        [20, true],
        [10, false],
      ],
      'a compound line with a denylisted command is never covered; another source is not replayed',
    );
    assert.equal(r.conversations, 2);
    assert.equal(r.rejected, 1);
    assert.equal(r.unchecked, 1, 'the entry without a label cannot be checked');
    assert.equal(r.checked, 5, 'only execute entries of local sources');
  });

  it('is the gate deciding: what the gate allows already, or refuses, is not a hit', () => {
    const p = 'execute:git init -q *';
    const already = gate({ config: { roots: ['/w'], allow: ['execute:git init -q out'] } });
    assert.equal(entryAllowed(p, history[0], already), false, 'allowed without the rule already');
    assert.equal(entryAllowed(p, history[1], already), true);
    const denied = gate({ config: { roots: ['/w'], deny: ['execute:git*'] } });
    assert.equal(entryAllowed(p, history[0], denied), false, 'a deny pattern wins');
    assert.equal(entryAllowed(p, history[0], gate({ mode: 'plan' })), false, 'plan mode refuses');
    assert.equal(entryAllowed(p, history[0], gate({ config: { roots: ['/elsewhere'] } })), false, 'out of scope');
    const npm = entry({ label: 'npm test' });
    assert.equal(entryAllowed('execute:npm test*', npm, gate()), false, 'a "*" never stands for what npm runs');
    assert.equal(entryAllowed('execute:npm test', npm, gate()), true, 'its exact command does');
    assert.equal(
      entryAllowed(p, history[0], gate({ session: { grants: [{ scope: 'verb', verb: 'git' }] } })),
      true,
      'session grants are left out: a kept rule outlives the session',
    );
  });

  it('a path rule is read by the gate against the roots; an unreadable label cannot be checked', () => {
    assert.equal(entryAllowed('edit:src/**', history[5], gate()), true);
    assert.equal(entryAllowed('edit:src/**', history[5], gate({ config: { roots: ['/elsewhere'] } })), false);
    assert.equal(subjectOfEntry(entry({ kind: 'edit', label: 'Edit a file' })), undefined);
    assert.equal(entryAllowed('edit:**', entry({ kind: 'think', label: 'think' }), gate()), undefined);
  });

  it('a waiting request is read as the gate reads a tool call', () => {
    const req = requestOfSubject({ kind: 'execute', title: 'x', command: 'git init -q out' }, '/w');
    assert.equal(req.command, 'git init -q out');
    assert.equal(patternAllows('execute:git init -q *', req, gate()), true);
    assert.equal(
      patternAllows(
        'execute:git init -q *',
        requestOfSubject({ kind: 'execute', command: 'git init -q a; curl evil' }, '/w'),
        gate(),
      ),
      false,
    );
    assert.equal(patternAllows('execute:*', requestOfSubject({ kind: 'edit', paths: ['/w/a'] }), gate()), false);
  });

  it("a waiting request is matched with its own session's gate, never the answering session's", () => {
    const a: RuleGate = { snapshot: { mode: 'ask', config: { roots: ['/a'] }, home: '/home/u' }, cwd: '/a' };
    const b: RuleGate = { snapshot: { mode: 'ask', config: { roots: ['/b'] }, home: '/home/u' }, cwd: '/b' };
    const gates = new Map([
      ['local:a', a],
      ['local:b', b],
    ]);
    const gateOf = (server: string) => gates.get(server);
    const edit = (server: string, path: string) => ({
      server,
      toolCall: { kind: 'edit', title: `Edit ${path}`, locations: [{ path }] },
    });
    // Session a's file, inside a's folder: covered there.
    assert.equal(waitingAllowed('edit:src/**', edit('local:a', '/a/src/x.ts'), gateOf), true);
    // Session b asks to edit the same file, outside b's folder: a's gate would allow it, b's does not.
    assert.equal(
      patternAllows('edit:src/**', requestOfSubject({ kind: 'edit', paths: ['/a/src/x.ts'] }, '/a'), a),
      true,
    );
    assert.equal(waitingAllowed('edit:src/**', edit('local:b', '/a/src/x.ts'), gateOf), false);
    // A request of a session nobody knows is never covered.
    assert.equal(waitingAllowed('edit:src/**', edit('local:gone', '/a/src/x.ts'), gateOf), false);
  });

  it("a malformed rule is a sentence, never a rule; a wide one carries the gate's warnings", () => {
    const r = checkRule('nosuchkind:x');
    assert.ok(!r.ok && /unknown kind/.test(r.problem));
    assert.ok(!checkRule('execute:').ok);
    const w = checkRule('execute:git init -q *');
    assert.ok(w.ok && w.warnings.some((s) => /covers words/.test(s)));
  });
});
