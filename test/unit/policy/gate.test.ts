import * as assert from 'node:assert/strict';
import { decide, gateConfigProblems, type GateConfig, type GateInput } from '../../../src/policy';

const ROOT = '/work/repo';
const cfg = (over: Partial<GateConfig> = {}): GateConfig => ({ roots: [ROOT], ...over });
const run = (command: string) => ({ kind: 'execute', command, title: command, cwd: ROOT });
const read = (path: string) => ({ kind: 'read', paths: [{ path, access: 'read' as const }] });
const edit = (path: string) => ({ kind: 'edit', paths: [{ path, access: 'write' as const }] });
function gate(request: GateInput['request'], over: Partial<GateInput> = {}) {
  return decide({ request, mode: 'ask', config: cfg(), ...over });
}
const brief = (d: { verdict: string; rule: string }) => `${d.verdict}/${d.rule}`;

describe('local gate: decide, rule by rule', () => {
  describe('1. the built-in denylist', () => {
    it('denies rm -rf ~ in every mode, over allow patterns, grants and an auto_allow policy', () => {
      for (const mode of ['ask', 'acceptEdits', 'allow', 'yolo'] as const) {
        const d = decide({
          request: run('rm -rf ~'),
          mode,
          config: cfg({ allow: ['*', 'execute:*', 'rm *'], policy: { default: 'auto_allow', execute: 'auto_allow' } }),
          session: {
            grants: [
              { scope: 'tool', kind: 'execute' },
              { scope: 'exact', kind: 'execute', key: 'rm -rf ~' },
            ],
          },
        });
        assert.equal(brief(d), 'deny/denylist', mode);
        assert.match(d.reason, /home directory.*every mode/);
      }
    });

    it('reads the command from the title when rawInput.command is missing', () => {
      assert.equal(brief(gate({ kind: 'execute', title: 'sudo rm -rf /' })), 'deny/denylist');
    });

    it('checks a command carried by a request of any kind', () => {
      assert.equal(
        brief(gate({ kind: 'other', title: 'Run', command: 'rm -rf ~' }, { mode: 'yolo' })),
        'deny/denylist',
      );
    });

    it('does not denylist rm -rf build', () => {
      assert.notEqual(gate(run('rm -rf build')).rule, 'denylist');
      assert.equal(brief(gate(run('rm -rf build'))), 'ask/mode');
    });
  });

  describe('2. plan mode and plan-first', () => {
    it('plan mode denies everything but read, search and think', () => {
      for (const kind of ['edit', 'delete', 'move', 'execute', 'fetch', 'other', 'switch_mode', undefined]) {
        const d = gate({ kind, title: 't', command: kind === 'execute' ? 'ls' : undefined }, { mode: 'plan' });
        assert.equal(brief(d), 'deny/plan', String(kind));
      }
      assert.equal(brief(gate(read(`${ROOT}/a.ts`), { mode: 'plan' })), 'allow/path-scope');
      assert.equal(brief(gate({ kind: 'think', title: 'Thinking' }, { mode: 'plan' })), 'ask/mode');
      assert.equal(brief(gate(read('/etc/hosts'), { mode: 'plan' })), 'ask/path-scope');
    });

    it('a read or search call that carries a command is a command to plan mode and plan-first, not a read', () => {
      // The kind is the agent's word; the command is what runs. An auto_allow policy or the read_only bundle would
      // otherwise let `touch` or `ls` through plan mode on the strength of the kind alone.
      const config = cfg({ policy: { execute: 'auto_allow', read: 'auto_allow' } });
      for (const kind of ['read', 'search', 'think']) {
        for (const command of ['touch x', 'ls']) {
          const request = { kind, title: command, command, cwd: ROOT };
          assert.equal(brief(decide({ request, mode: 'plan', config })), 'deny/plan', `${kind} ${command}`);
          const first = decide({ request, mode: 'yolo', config: { ...config, requirePlan: true } });
          assert.equal(brief(first), 'deny/plan-first', `${kind} ${command}`);
          assert.match(decide({ request, mode: 'plan', config }).reason, /carries a command/);
        }
      }
      // The same kinds without a command still pass to the later rules.
      assert.equal(brief(decide({ request: read(`${ROOT}/a`), mode: 'plan', config })), 'allow/path-scope');
    });

    it('plan-first denies calls with effects until a plan is recorded, even in yolo', () => {
      const config = cfg({ requirePlan: true, allow: ['execute:*'] });
      for (const mode of ['ask', 'acceptEdits', 'allow', 'yolo'] as const) {
        assert.equal(brief(decide({ request: run('make'), mode, config })), 'deny/plan-first', mode);
        assert.equal(brief(decide({ request: edit(`${ROOT}/a`), mode, config })), 'deny/plan-first', mode);
      }
      // Reads, searches, thinking and claude's exit-plan-mode request go through; a recorded plan lifts it.
      assert.equal(brief(decide({ request: read(`${ROOT}/a`), mode: 'yolo', config })), 'allow/path-scope');
      assert.equal(
        decide({ request: { kind: 'switch_mode', title: 'Ready to code?' }, mode: 'ask', config }).rule,
        'mode',
      );
      // `make` runs what the Makefile says: no wildcard pattern covers it, so yolo's mode allows it.
      const after = decide({ request: run('make'), mode: 'yolo', config, session: { planRecorded: true } });
      assert.equal(brief(after), 'allow/mode');
    });
  });

  describe('3. deny patterns', () => {
    it('deny beats allow patterns, grants, scope and policy', () => {
      const d = decide({
        request: run('git push origin main'),
        mode: 'yolo',
        config: cfg({ allow: ['execute:git *'], deny: ['bash:git push*'], policy: { execute: 'auto_allow' } }),
        session: { grants: [{ scope: 'verb', verb: 'git' }] },
      });
      assert.deepEqual(d, {
        verdict: 'deny',
        rule: 'deny-pattern',
        reason: 'The deny pattern "bash:git push*" matches this request.',
        pattern: 'bash:git push*',
      });
      const path = decide({
        request: read(`${ROOT}/.env`),
        mode: 'ask',
        config: cfg({ deny: ['read:**/.env'] }),
      });
      assert.equal(brief(path), 'deny/deny-pattern');
    });

    it('a deny pattern matches any part of a compound command, and commands inside substitutions', () => {
      const config = cfg({ deny: ['execute:git push*'] });
      assert.equal(brief(decide({ request: run('ls && git push'), mode: 'ask', config })), 'deny/deny-pattern');
      assert.equal(brief(decide({ request: run('echo $(git push)'), mode: 'ask', config })), 'deny/deny-pattern');
      assert.equal(brief(decide({ request: run('sudo -u me git push'), mode: 'ask', config })), 'deny/deny-pattern');
      assert.equal(brief(decide({ request: run('FOO=1 git "push"'), mode: 'ask', config })), 'deny/deny-pattern');
    });

    it('a path too long to be real matches every deny pattern of its kind', () => {
      const long = `${ROOT}/${'a/'.repeat(3000)}x`;
      const config = cfg({ deny: ['edit:/etc/**'] });
      assert.equal(brief(decide({ request: edit(long), mode: 'yolo', config })), 'deny/deny-pattern');
      assert.equal(brief(decide({ request: read(long), mode: 'yolo', config })), 'allow/path-scope');
    });
  });

  describe('4. path scope', () => {
    it('asks for a path outside the roots, naming the path and the access', () => {
      const d = gate(read('/work/repo-evil/a.ts'));
      assert.equal(brief(d), 'ask/path-scope');
      assert.equal(d.path, '/work/repo-evil/a.ts');
      assert.equal(d.access, 'read');
      assert.match(d.reason, /read \/work\/repo-evil\/a\.ts.*outside the workspace/);
    });

    it('a w-only entry still asks for reads; an r entry still asks for writes', () => {
      const config = cfg({
        allowPaths: [
          { pattern: '/srv/out/...', access: 'w' },
          { pattern: '/srv/in/...', access: 'r' },
        ],
      });
      assert.equal(brief(decide({ request: read('/srv/out/x'), mode: 'ask', config })), 'ask/path-scope');
      assert.equal(decide({ request: edit('/srv/out/x'), mode: 'ask', config }).rule, 'mode');
      assert.equal(brief(decide({ request: read('/srv/in/x'), mode: 'ask', config })), 'allow/path-scope');
      const w = decide({ request: edit('/srv/in/x'), mode: 'ask', config });
      assert.equal(brief(w), 'ask/path-scope');
      assert.match(w.reason, /grants only read access/);
    });

    it('the longest matching allowPaths entry decides', () => {
      const config = cfg({
        allowPaths: [
          { pattern: '/srv/...', access: 'rw' },
          { pattern: '/srv/secret/...', access: 'w' },
        ],
      });
      assert.equal(brief(decide({ request: read('/srv/a'), mode: 'ask', config })), 'allow/path-scope');
      assert.equal(brief(decide({ request: read('/srv/secret/a'), mode: 'ask', config })), 'ask/path-scope');
    });

    it('every path of a request must be in scope; .. cannot climb out', () => {
      const two = {
        kind: 'read',
        paths: [
          { path: `${ROOT}/a`, access: 'read' as const },
          { path: '/etc/passwd', access: 'read' as const },
        ],
      };
      assert.equal(brief(gate(two)), 'ask/path-scope');
      assert.equal(brief(gate(read(`${ROOT}/../../etc/passwd`))), 'ask/path-scope');
      assert.equal(brief(gate(read('relative/a.ts'))), 'ask/path-scope');
    });

    it('acceptEdits allows edits inside the scope only; yolo lets everything through', () => {
      // Issue 18: acceptEdits used to write anywhere (~/.profile, /etc/hosts).
      assert.equal(brief(gate(edit('/tmp/x'), { mode: 'acceptEdits' })), 'ask/path-scope');
      assert.equal(brief(gate(edit(`${ROOT}/x`), { mode: 'acceptEdits' })), 'allow/mode');
      assert.equal(brief(gate(read('/tmp/x'), { mode: 'acceptEdits' })), 'ask/path-scope');
      assert.equal(brief(gate(read('/tmp/x'), { mode: 'yolo' })), 'allow/mode');
      assert.equal(brief(gate(edit('/tmp/x'), { mode: 'yolo' })), 'allow/mode');
    });
  });

  describe('5. allow: patterns, bundles, grants, reads in scope', () => {
    it('the read_only bundle is on by default and names itself; builtinAllow: false turns it off', () => {
      const d = gate(run('ls -la'));
      assert.deepEqual(d, {
        verdict: 'allow',
        rule: 'allow-pattern',
        reason:
          'Allowed by the built-in read_only bundle\'s specification of "ls" (only its listed options, paths inside the scope).',
        pattern: 'execute:ls *',
      });
      assert.equal(brief(gate(run('ls -la'), { config: cfg({ builtinAllow: false }) })), 'ask/mode');
      assert.equal(brief(gate(run('git status'))), 'ask/mode');
      assert.equal(
        brief(gate(run('git status'), { config: cfg({ builtinAllowExtras: ['dev_tools'] }) })),
        'allow/allow-pattern',
      );
    });

    it('`ls; rm -rf src` is not allowed by `ls *`; a compound command needs every part allowed', () => {
      const config = cfg({ allow: ['execute:ls *'], builtinAllow: false });
      assert.equal(brief(decide({ request: run('ls; rm -rf src'), mode: 'ask', config })), 'ask/mode');
      const withBareLs = cfg({ allow: ['execute:ls', 'execute:ls *'], builtinAllow: false });
      const d = decide({ request: run('ls; rm -rf src'), mode: 'ask', config: withBareLs });
      assert.equal(brief(d), 'ask/mode');
      assert.match(d.reason, /No pattern or grant covers "rm -rf src"/);
      for (const c of ['ls -l && rm -rf src', 'ls -l || rm x', 'ls -l | sh', 'ls -l\nrm x', 'ls -l & rm x']) {
        assert.equal(decide({ request: run(c), mode: 'allow', config }).verdict, 'deny', c);
      }
      const both = decide({
        request: run('ls -l && git status'),
        mode: 'ask',
        config: cfg({ allow: ['ls *', 'bash:git status*'] }),
      });
      assert.equal(brief(both), 'allow/allow-pattern');
      assert.equal(both.pattern, 'ls *, bash:git status*');
    });

    it('a substitution, an unreadable line or an output redirection is never allowed by a pattern', () => {
      const config = cfg({ allow: ['execute:*'] });
      for (const c of ['echo $(id)', 'echo `id`', 'cat <(ls)', "echo 'open", 'echo x >> ~/.bashrc', '(ls)']) {
        assert.equal(brief(decide({ request: run(c), mode: 'ask', config })), 'ask/unreadable', c);
      }
      assert.equal(brief(decide({ request: run('ls > out.txt'), mode: 'ask', config })), 'ask/mode');
      assert.equal(brief(decide({ request: run('ls 2>/dev/null 2>&1'), mode: 'ask', config })), 'allow/allow-pattern');
    });

    it('bundle verbs with a writing or executing option fall out of the bundle', () => {
      for (const c of ['find . -delete', 'find . -exec rm {} ;', 'sort -o x y', 'rg --pre=sh x', 'uniq in out']) {
        const d = gate(run(c));
        assert.equal(brief(d), 'ask/mode', c);
        assert.match(d.reason, /outside the built-in read_only bundle/, c);
      }
      assert.equal(brief(gate(run('find . -name "*.ts"'))), 'allow/allow-pattern');
    });

    it('an allow pattern on paths needs every path to match', () => {
      const config = cfg({ allowPaths: [{ pattern: '/opt/...', access: 'rw' }], allow: ['edit:/opt/app/**'] });
      assert.equal(brief(decide({ request: edit('/opt/app/x/y'), mode: 'ask', config })), 'allow/allow-pattern');
      assert.equal(brief(decide({ request: edit('/opt/other'), mode: 'ask', config })), 'ask/mode');
      assert.equal(
        brief(decide({ request: edit(`${ROOT}/a`), mode: 'ask', config: cfg({ allow: ['edit:src/**'] }) })),
        'ask/mode',
      );
      assert.equal(
        brief(decide({ request: edit(`${ROOT}/src/a`), mode: 'ask', config: cfg({ allow: ['edit:src/**'] }) })),
        'allow/allow-pattern',
      );
    });

    it('session grants: exact, verb and tool', () => {
      const verb = { grants: [{ scope: 'verb' as const, verb: 'git' }] };
      assert.equal(brief(gate(run('git status'), { session: verb })), 'allow/grant');
      assert.match(gate(run('git status'), { session: verb }).reason, /every "git" command/);
      assert.equal(brief(gate(run('git status; make'), { session: verb })), 'ask/mode');
      assert.equal(brief(gate(run('FOO=1 git status'), { session: verb })), 'ask/mode');
      assert.equal(brief(gate(run('git log $(rm x)'), { session: verb })), 'ask/unreadable');
      assert.equal(brief(gate(run('git log > out'), { session: verb })), 'ask/mode');
      // An exact grant covers exactly the line the user approved, compound or not, but never a substitution.
      const line = { grants: [{ scope: 'exact' as const, kind: 'execute', key: 'npm ci && make' }] };
      assert.equal(brief(gate(run('  npm ci && make '), { session: line })), 'allow/grant');
      assert.equal(brief(gate(run('npm ci && make && rm x'), { session: line })), 'ask/mode');
      const sub = { grants: [{ scope: 'exact' as const, kind: 'execute', key: 'echo $(id)' }] };
      assert.equal(brief(gate(run('echo $(id)'), { session: sub })), 'ask/unreadable');
      const exact = { grants: [{ scope: 'exact' as const, kind: 'execute', key: 'make test' }] };
      assert.equal(brief(gate(run('make test'), { session: exact })), 'allow/grant');
      assert.equal(brief(gate(run('make test2'), { session: exact })), 'ask/mode');
      const tool = { grants: [{ scope: 'tool' as const, kind: 'fetch' }] };
      assert.equal(brief(gate({ kind: 'fetch', url: 'https://x.test' }, { session: tool })), 'allow/grant');
      assert.equal(brief(gate(run('make'), { session: tool })), 'ask/mode');
      const editAll = { grants: [{ scope: 'tool' as const, kind: 'edit' }] };
      assert.equal(brief(gate(edit(`${ROOT}/a`), { session: editAll })), 'allow/grant');
      assert.equal(brief(gate(edit('/etc/a'), { session: editAll })), 'ask/path-scope');
    });
  });

  describe('6. policy and 7. mode', () => {
    it('policy: title, then kind, then default; ask falls to the mode', () => {
      const config = cfg({ policy: { execute: 'auto_deny', 'make deploy': 'auto_allow' } });
      assert.equal(brief(decide({ request: run('make'), mode: 'yolo', config })), 'deny/policy');
      assert.equal(brief(decide({ request: run('make deploy'), mode: 'ask', config })), 'allow/policy');
      assert.equal(brief(decide({ request: edit(`${ROOT}/a`), mode: 'ask', config })), 'ask/mode');
      assert.equal(
        brief(decide({ request: edit(`${ROOT}/a`), mode: 'ask', config: cfg({ policy: { default: 'auto_allow' } }) })),
        'allow/policy',
      );
    });

    it('modes: ask asks; acceptEdits allows edit, delete and move and asks the rest; allow denies; yolo allows', () => {
      assert.equal(brief(gate(run('make'))), 'ask/mode');
      for (const kind of ['edit', 'delete', 'move']) {
        const req = { kind, paths: [{ path: `${ROOT}/a`, access: 'write' as const }] };
        assert.equal(brief(gate(req, { mode: 'acceptEdits' })), 'allow/mode', kind);
      }
      assert.equal(brief(gate(run('make'), { mode: 'acceptEdits' })), 'ask/mode');
      assert.equal(brief(gate(run('make'), { mode: 'allow' })), 'deny/mode');
      assert.equal(brief(gate(run('make'), { mode: 'yolo' })), 'allow/mode');
    });

    it('interactive: false turns every ask into a deny with the same rule', () => {
      assert.equal(brief(gate(run('make'), { interactive: false })), 'deny/mode');
      const d = gate(read('/etc/hosts'), { interactive: false });
      assert.equal(brief(d), 'deny/path-scope');
      assert.match(d.reason, /Nobody can be asked/);
      assert.equal(brief(gate(run('ls'), { interactive: false })), 'allow/allow-pattern');
    });
  });

  describe('configuration errors', () => {
    it('an unknown bundle name disables only itself and is named, in the problems and in every reason', () => {
      // Issue 18: a bad entry used to make the whole configuration unusable, so deny patterns stopped refusing.
      const config = cfg({
        builtinAllowExtras: ['dev_tool'],
        deny: ['execute:make*'],
        policy: { execute: 'auto_deny' },
      });
      assert.deepEqual(gateConfigProblems(config), [
        'unknown allow bundle "dev_tool" (known: core_agent_tools, dev_tools, read_only)',
      ]);
      const d = gate(run('ls'), { config });
      assert.equal(brief(d), 'allow/allow-pattern');
      assert.match(d.reason, /Settings ignored: unknown allow bundle "dev_tool"/);
      assert.equal(brief(gate(run('make'), { config })), 'deny/deny-pattern');
      assert.equal(brief(gate(run('cargo build'), { config })), 'deny/policy');
    });

    it('a malformed pattern or policy key disables only itself: deny patterns and auto_deny keep refusing', () => {
      const config = cfg({
        allow: ['read_file:**'],
        deny: ['', 'execute:make*'],
        policy: { execute: 'auto_denyy', default: 'auto_allow' },
      });
      assert.equal(brief(gate(run('make'), { config })), 'deny/deny-pattern');
      // The malformed `execute` key asks rather than falling through to the looser default.
      assert.equal(brief(gate(run('cargo build'), { config })), 'ask/mode');
      assert.equal(brief(gate(run('ls'), { config })), 'allow/allow-pattern');
      assert.equal(brief(gate(run('ls'), { config: cfg({ builtinAllow: 'no' as unknown as boolean }) })), 'ask/mode');
      assert.equal(
        brief(gate(run('ls'), { config: cfg({ requirePlan: 'yes' as unknown as boolean }) })),
        'deny/plan-first',
      );
    });

    it('malformed patterns, allowPaths entries and policies are configuration errors too', () => {
      assert.equal(gateConfigProblems(cfg({ allow: ['read_file:**'] })).length, 1);
      assert.equal(gateConfigProblems(cfg({ deny: [''] })).length, 1);
      assert.equal(gateConfigProblems(cfg({ allowPaths: [{ pattern: 'rel/path', access: 'rw' }] })).length, 1);
      assert.equal(gateConfigProblems(cfg({ allowPaths: [{ pattern: '/x', access: 'x' as 'r' }] })).length, 1);
      assert.match(gateConfigProblems(cfg({ policy: { execute: 'maybe' } }))[0], /^policy: execute: unknown verdict/);
      assert.deepEqual(gateConfigProblems(cfg({ builtinAllowExtras: ['dev_tools', 'core_agent_tools'] })), []);
    });
  });
});
