import * as assert from 'node:assert/strict';
import { DECIDED_KEPT, DecidedLog, type DecidedEntry } from '../../../src/domain/decidedLog';
import {
  decidingRules,
  dryRunRemoval,
  replayWithout,
  requestOfEntry,
  withoutRule,
  type GateSnapshot,
} from '../../../src/domain/decidedRules';
import { decide, type GateRequest } from '../../../src/policy';
import { MemoryHistoryBackend } from '../../support/memoryHistoryBackend';

const ROOT = '/work/project';
const snap = (over: Partial<GateSnapshot['config']> = {}, rest: Partial<GateSnapshot> = {}): GateSnapshot => ({
  mode: 'ask',
  config: { roots: [ROOT], ...over },
  home: '/home/u',
  ...rest,
});
const exec = (command: string): GateRequest => ({ kind: 'execute', command, cwd: ROOT });

function entry(over: Partial<DecidedEntry> = {}): DecidedEntry {
  return {
    at: 1,
    session: 's1',
    sessionId: 'local-1',
    agentName: 'Claude',
    folder: ROOT,
    verdict: 'allow',
    kind: 'execute',
    command: 'ls',
    mode: 'ask',
    rule: 'allow-pattern',
    reason: 'r',
    sent: 'allow',
    by: [{ type: 'bundle', bundle: 'read_only' }],
    ...over,
  };
}

describe('decided without you: the rules that decided', () => {
  it('names the read_only bundle for an ls the bundle allows, and nothing else', () => {
    const s = snap();
    const d = decide({ ...s, request: exec('ls') });
    assert.equal(d.verdict, 'allow');
    assert.deepEqual(decidingRules(d, exec('ls'), s), [{ type: 'bundle', bundle: 'read_only' }]);
  });

  it('names the fountain.local.allow entry that allows a command, not the bundle', () => {
    const s = snap({ allow: ['execute:npm test'] });
    const d = decide({ ...s, request: exec('npm test') });
    assert.equal(d.verdict, 'allow');
    assert.deepEqual(decidingRules(d, exec('npm test'), s), [
      { type: 'setting', setting: 'allow', entry: 'execute:npm test' },
    ]);
  });

  it('names both rules of a line covered by a pattern and a grant', () => {
    const s = snap({ allow: ['execute:npm test'] }, { session: { grants: [{ scope: 'verb', verb: 'git' }] } });
    const req = exec('npm test && git push');
    const d = decide({ ...s, request: req });
    assert.equal(d.verdict, 'allow', d.reason);
    assert.deepEqual(decidingRules(d, req, s), [
      { type: 'setting', setting: 'allow', entry: 'execute:npm test' },
      { type: 'grant', grant: { scope: 'verb', verb: 'git' } },
    ]);
  });

  it('an entry and the bundle both covering ls: the entry that decided is named (the bundle would still allow it)', () => {
    const s = snap({ allow: ['execute:ls *'] });
    const d = decide({ ...s, request: exec('ls -la') });
    assert.equal(d.pattern, 'execute:ls *');
    assert.deepEqual(decidingRules(d, exec('ls -la'), s), [
      { type: 'setting', setting: 'allow', entry: 'execute:ls *' },
    ]);
    const r = replayWithout(exec('ls -la'), s, { type: 'setting', setting: 'allow', entry: 'execute:ls *' });
    assert.equal(r.after?.verdict, 'allow', 'still allowed, by the bundle: Make This Ask says so');
  });

  it('names the denylist, a deny entry, the policy key and the mode', () => {
    const deny = snap({ deny: ['execute:ls -R*'], policy: { fetch: 'auto_allow', default: 'ask' } });
    const rm = exec('rm -rf ~');
    assert.deepEqual(decidingRules(decide({ ...deny, request: rm }), rm, deny), [{ type: 'denylist' }]);
    const lsR = exec('ls -R src');
    assert.deepEqual(decidingRules(decide({ ...deny, request: lsR }), lsR, deny), [
      { type: 'setting', setting: 'deny', entry: 'execute:ls -R*' },
    ]);
    const fetch: GateRequest = { kind: 'fetch', url: 'https://example.com', title: 'Fetch' };
    const pd = decide({ ...deny, request: fetch });
    assert.equal(pd.rule, 'policy');
    assert.deepEqual(decidingRules(pd, fetch, deny), [{ type: 'policy', key: 'fetch', verdict: 'auto_allow' }]);
    const yolo = snap({}, { mode: 'yolo' });
    const curl = exec('curl https://example.com');
    assert.deepEqual(decidingRules(decide({ ...yolo, request: curl }), curl, yolo), [{ type: 'mode', mode: 'yolo' }]);
  });
});

describe('decided without you: Make This Ask, replayed', () => {
  it('turning the bundle off makes ls ask; removing the entry makes the command ask', () => {
    const s = snap({ allow: ['execute:npm test'] });
    const ls = replayWithout(exec('ls'), s, { type: 'bundle', bundle: 'read_only' });
    assert.deepEqual([ls.now?.verdict, ls.after?.verdict], ['allow', 'ask']);
    assert.equal(withoutRule(s, { type: 'bundle', bundle: 'read_only' }).config.builtinAllow, false);
    const npm = replayWithout(exec('npm test'), s, { type: 'setting', setting: 'allow', entry: 'execute:npm test' });
    assert.deepEqual([npm.now?.verdict, npm.after?.verdict], ['allow', 'ask']);
    assert.deepEqual(s.config.allow, ['execute:npm test'], 'the snapshot itself is left as it was');
  });

  it('the mode and a grant: back to ask', () => {
    const s = snap({}, { mode: 'yolo', session: { grants: [{ scope: 'verb', verb: 'git' }] } });
    assert.equal(withoutRule(s, { type: 'mode', mode: 'yolo' }).mode, 'ask');
    assert.deepEqual(withoutRule(s, { type: 'grant', grant: { scope: 'verb', verb: 'git' } }).session?.grants, []);
  });

  it('the dry run counts the recorded decisions that would be asked, per session, refusals as "rejected"', () => {
    const entries = [
      entry({ at: 3, command: 'ls -la' }),
      entry({ at: 2, session: 's2', sessionId: 'local-2', command: 'cat README.md' }),
      entry({ at: 1, command: 'git status' }),
      entry({ at: 0, command: undefined }),
    ];
    const run = dryRunRemoval(entries, { type: 'bundle', bundle: 'read_only' }, () => snap());
    // git status is not in read_only: the gate asks about it even now, so taking the bundle away changes nothing.
    assert.deepEqual(
      run.hits.map((h) => h.entry.label),
      ['ls -la', 'cat README.md'],
    );
    assert.equal(run.conversations, 2);
    assert.equal(run.unchecked, 1, 'an entry whose text was not kept');
    const one = dryRunRemoval(entries, { type: 'bundle', bundle: 'read_only' }, () => snap(), 's2');
    assert.deepEqual(
      one.hits.map((h) => h.entry.label),
      ['cat README.md'],
    );
    const refusal = entry({ verdict: 'deny', command: 'npm test', sent: 'reject', rule: 'deny-pattern' });
    const rule = { type: 'setting', setting: 'deny', entry: 'execute:npm *' } as const;
    const r = dryRunRemoval([refusal], rule, () => snap({ deny: ['execute:npm *'] }));
    assert.equal(r.hits.length, 1);
    assert.equal(r.rejected, 1, 'a refusal that would be asked');
  });

  it('reads an entry back as the gate reads a tool call', () => {
    assert.equal(requestOfEntry(entry({ command: 'ls' }))?.command, 'ls');
    assert.equal(requestOfEntry(entry({ command: undefined })), undefined);
    const read = requestOfEntry(entry({ kind: 'read', command: undefined, paths: ['/work/project/a'] }));
    assert.deepEqual(read?.paths, [{ path: '/work/project/a', access: 'read' }]);
  });
});

describe('decided without you: the log', () => {
  it('keeps the last 1,000 in two segments, newest first, and counts per session', async () => {
    const backend = new MemoryHistoryBackend();
    const log = new DecidedLog(backend);
    await log.load();
    for (let i = 0; i < DECIDED_KEPT + 5; i++) {
      await log.record(entry({ at: i, session: i % 2 ? 'odd' : 'even' }));
    }
    const latest = log.latest();
    assert.equal(latest.length, DECIDED_KEPT);
    assert.equal(latest[0].at, DECIDED_KEPT + 4);
    assert.equal(latest.at(-1)!.at, 5);
    assert.equal(log.countOf('odd'), DECIDED_KEPT / 2);
    assert.equal(backend.current.length, 5, 'rotated at 1,000');
    const again = new DecidedLog(backend);
    await again.load();
    assert.deepEqual(
      again.latest().map((e) => e.at),
      latest.map((e) => e.at),
      'read back from storage',
    );
  });

  it('keeps a network verdict with its rule and reads it back', async () => {
    const backend = new MemoryHistoryBackend();
    const log = new DecidedLog(backend);
    await log.load();
    const net = entry({
      kind: 'fetch',
      command: undefined,
      url: 'pypi.org:443',
      verdict: 'deny',
      rule: 'deny: loopback',
      sent: 'refused',
      by: [{ type: 'network', rule: 'deny: loopback' }],
    });
    await log.record(net);
    const again = new DecidedLog(backend);
    await again.load();
    assert.deepEqual(again.latest()[0].by, [{ type: 'network', rule: 'deny: loopback' }]);
    assert.equal(again.latest()[0].url, 'pypi.org:443');
  });

  it('skips an entry or a line that does not parse', async () => {
    const backend = new MemoryHistoryBackend();
    backend.current = ['{"at":1}', 'not json', JSON.stringify(entry({ at: 9 }))];
    const log = new DecidedLog(backend);
    await log.load();
    assert.deepEqual(
      log.latest().map((e) => e.at),
      [9],
    );
    await log.record({ ...entry(), by: [{ type: 'nonsense' }] } as unknown as DecidedEntry);
    assert.equal(log.latest().length, 1);
  });
});
