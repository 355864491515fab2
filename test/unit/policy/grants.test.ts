import * as assert from 'node:assert/strict';
import {
  BUNDLES,
  decide,
  extractVerb,
  gateOutcome,
  knownBundles,
  requestKey,
  resolveBuiltinAllow,
  type OptionLike,
} from '../../../src/policy';

// Option lists as real adapters send them (see outcome.test.ts).
const claude: OptionLike[] = [
  { optionId: 'allow_always', name: 'Always Allow', kind: 'allow_always' },
  { optionId: 'allow', name: 'Allow', kind: 'allow_once' },
  { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
];
const codex: OptionLike[] = [
  { optionId: 'allow_once', name: 'Allow Once', kind: 'allow_once' },
  { optionId: 'apply_network_policy_amendment:0', name: 'Allow Host', kind: 'allow_always' },
  { optionId: 'apply_network_policy_amendment:1', name: 'Block Host', kind: 'reject_always' },
  { optionId: 'reject_once', name: 'Reject', kind: 'reject_once' },
];
const planExit: OptionLike[] = [
  { optionId: 'acceptEdits', name: 'Yes, and auto-accept edits', kind: 'switch_mode' },
  { optionId: 'plan', name: 'No, keep planning', kind: 'switch_mode' },
];

describe('local gate: answers, verbs, grants and bundles', () => {
  describe('gateOutcome', () => {
    it('deny answers with the first reject_once offered, else the first reject_always, else cancelled', () => {
      assert.deepEqual(gateOutcome({ verdict: 'deny' }, claude), { outcome: 'selected', optionId: 'reject' });
      // Issue 18: codex offers "Block Host" (reject_always) before "Reject": a refusal must not block the host for good.
      assert.deepEqual(gateOutcome({ verdict: 'deny' }, codex), { outcome: 'selected', optionId: 'reject_once' });
      assert.deepEqual(gateOutcome({ verdict: 'deny' }, codex.slice(0, 3)), {
        outcome: 'selected',
        optionId: 'apply_network_policy_amendment:1',
      });
      assert.deepEqual(gateOutcome({ verdict: 'deny' }, planExit), { outcome: 'cancelled' });
      assert.deepEqual(gateOutcome({ verdict: 'deny' }, []), { outcome: 'cancelled' });
    });

    it('allow answers with allow_once (never allow_always on its own account), or the offered option the user picked', () => {
      assert.deepEqual(gateOutcome({ verdict: 'allow' }, claude), { outcome: 'selected', optionId: 'allow' });
      assert.deepEqual(gateOutcome({ verdict: 'allow' }, codex), { outcome: 'selected', optionId: 'allow_once' });
      assert.deepEqual(gateOutcome({ verdict: 'allow' }, claude, 'allow_always'), {
        outcome: 'selected',
        optionId: 'allow_always',
      });
      // An id the runtime never offered is not sent: the gate's own choice stands.
      assert.deepEqual(gateOutcome({ verdict: 'allow' }, claude, 'invented'), {
        outcome: 'selected',
        optionId: 'allow',
      });
    });

    it('with no allow_once offered an allow, and every ask, goes to a human', () => {
      assert.equal(gateOutcome({ verdict: 'allow' }, [{ optionId: 'a', kind: 'allow_always' }]), undefined);
      assert.equal(gateOutcome({ verdict: 'allow' }, planExit), undefined);
      assert.equal(gateOutcome({ verdict: 'ask' }, claude), undefined);
    });

    it('skips options whose optionId is not a string', () => {
      const junk = [{ optionId: 5, kind: 'reject_once' }, { kind: 'allow_once' }, null] as unknown as OptionLike[];
      assert.deepEqual(gateOutcome({ verdict: 'deny' }, junk), { outcome: 'cancelled' });
      assert.equal(gateOutcome({ verdict: 'allow' }, junk), undefined);
    });
  });

  describe('extractVerb', () => {
    it('gives the verb of one plain command', () => {
      assert.equal(extractVerb('git status'), 'git');
      assert.equal(extractVerb('  grep -n x src'), 'grep');
    });

    it('gives no verb for interpreters, package runners, shells and wrappers (issue 18: only exact grants)', () => {
      for (const c of [
        'npm run test -- --grep x',
        'npx x',
        'node a.js',
        'python3 x.py',
        'make',
        'cargo run',
        'curl x',
      ]) {
        assert.equal(extractVerb(c), undefined, c);
      }
    });

    it('gives nothing when the verb is not safely extractable', () => {
      for (const c of [
        'git status; rm -rf src',
        'git log && make',
        'ls | sh',
        'echo $(id)',
        'echo `id`',
        '"git" status',
        "g'i't status",
        '\\git status',
        './script.sh',
        '/usr/bin/git status',
        'FOO=1 git status',
        'sudo git status',
        'env git status',
        'bash -c "git status"',
        'xargs rm',
        'rm -rf build',
        "echo 'open",
        '',
        'git\nstatus',
      ]) {
        assert.equal(extractVerb(c), undefined, JSON.stringify(c));
      }
    });
  });

  describe('requestKey', () => {
    it('keys a command by its trimmed text, paths by access and normalised path, else the URL or title', () => {
      assert.equal(requestKey({ kind: 'execute', command: '  make test ' }), 'make test');
      assert.equal(
        requestKey({
          kind: 'edit',
          paths: [
            { path: '/a/./b/', access: 'write' },
            { path: '/c', access: 'read' },
          ],
        }),
        'write /a/b\nread /c',
      );
      assert.equal(requestKey({ kind: 'fetch', url: 'https://x.test/a' }), 'https://x.test/a');
      assert.equal(requestKey({ kind: 'think', title: 'Thinking' }), 'Thinking');
    });

    it('an exact grant covers exactly its request', () => {
      const req = { kind: 'edit', paths: [{ path: '/opt/a', access: 'write' as const }] };
      const config = { roots: ['/'] };
      const grants = [{ scope: 'exact' as const, kind: 'edit', key: requestKey(req) }];
      assert.equal(decide({ request: req, mode: 'ask', config, session: { grants } }).rule, 'grant');
      const other = { kind: 'edit', paths: [{ path: '/opt/b', access: 'write' as const }] };
      assert.equal(decide({ request: other, mode: 'ask', config, session: { grants } }).rule, 'mode');
    });
  });

  describe('bundles', () => {
    it('knows read_only, dev_tools and core_agent_tools; read_only is the default, false drops everything', () => {
      assert.deepEqual(knownBundles(), ['core_agent_tools', 'dev_tools', 'read_only']);
      assert.deepEqual(resolveBuiltinAllow(undefined, []).patterns, [...BUNDLES.read_only]);
      assert.deepEqual(resolveBuiltinAllow(false, ['dev_tools']).patterns, []);
      const both = resolveBuiltinAllow(true, ['dev_tools', 'dev_tools']);
      assert.equal(both.patterns.length, BUNDLES.read_only.length + BUNDLES.dev_tools.length);
      assert.deepEqual(both.problems, []);
    });

    it('an unknown name is a problem even when the bundles are off', () => {
      assert.equal(resolveBuiltinAllow(false, ['nope']).problems.length, 1);
      assert.equal(resolveBuiltinAllow(true, ['__proto__']).problems.length, 1);
    });

    it('core_agent_tools allows reads and searches anywhere the scope grants read', () => {
      const config = {
        roots: ['/w'],
        builtinAllowExtras: ['core_agent_tools'],
        allowPaths: [{ pattern: '/opt/...', access: 'r' as const }],
      };
      const d = decide({
        request: { kind: 'search', paths: [{ path: '/opt/x', access: 'read' }] },
        mode: 'ask',
        config,
      });
      assert.equal(d.rule, 'allow-pattern');
      assert.match(d.reason, /core_agent_tools/);
      // The scope still comes first: a read outside it asks.
      const out = decide({
        request: { kind: 'read', paths: [{ path: '/etc/x', access: 'read' }] },
        mode: 'ask',
        config,
      });
      assert.equal(out.rule, 'path-scope');
    });

    it('dev_tools lists only the listing forms of git branch, tag and remote', () => {
      const config = { roots: ['/w'], builtinAllowExtras: ['dev_tools'] };
      const v = (c: string) => decide({ request: { kind: 'execute', command: c }, mode: 'allow', config }).verdict;
      assert.equal(v('git branch -a'), 'allow');
      assert.equal(v('git remote -v'), 'allow');
      assert.equal(v('git branch -D main'), 'deny');
      assert.equal(v('git tag -d v1'), 'deny');
      assert.equal(v('git remote add x y'), 'deny');
      assert.notEqual(v('git log --output=/etc/x'), 'allow');
      assert.notEqual(v('git log --output=x'), 'allow');
    });
  });
});
