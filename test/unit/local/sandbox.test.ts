// The sandbox plan, its bubblewrap argv and its macOS profile, from a fake file system (pure: no bwrap runs here;
// test/unit/local/sandboxRun.test.ts runs the real one).
import * as assert from 'node:assert/strict';
import {
  bwrapArgs,
  outsideSandbox,
  planSandbox,
  sandboxView,
  seatbeltProfile,
  SeatbeltPathError,
  SEATBELT_SERVICES,
  type SandboxInput,
} from '../../../src/local/sandbox';
import { PROTECTED_NAMES, protectedWrite } from '../../../src/policy';
import { fakeFs, type Entry } from './fakeFs';

const HOME = '/home/u';
const WS = '/home/u/my project';
const base = (over: Partial<SandboxInput> = {}): SandboxInput => ({
  home: HOME,
  roots: [WS],
  cwd: WS,
  agent: 'claude',
  command: '/usr/bin/claude-agent-acp',
  env: { HOME, PATH: '/usr/bin:/bin' },
  allowPaths: [],
  ...over,
});
const FS: Record<string, Entry> = {
  '/home/u/my project/src/a.ts': 'file',
  '/home/u/my project/.git/config': 'file',
  '/home/u/my project/.git/hooks': 'dir',
  '/home/u/.ssh/id_rsa': 'file',
  '/home/u/.netrc': 'file',
  '/home/u/.claude': 'dir',
  '/home/u/.claude.json': 'file',
  '/home/u/.gitconfig': 'file',
  '/home/u/notes/todo.md': 'file',
  '/home/u/.config/Code/User/settings.json': 'file',
  '/root': 'dir',
  '/usr/bin/claude-agent-acp': 'file',
  '/etc/passwd': 'file',
};

/** The argument triples `flag src dest` (and pairs `flag dest`) of an argv, for order checks. */
const indexOf = (args: string[], ...seq: string[]) => args.findIndex((_, i) => seq.every((s, j) => args[i + j] === s));
/** Blocked as a folder: an empty tmpfs there, made read-only. */
const blockedFolder = (args: string[], p: string) =>
  indexOf(args, '--tmpfs', p) > 0 && indexOf(args, '--remount-ro', p) > indexOf(args, '--tmpfs', p);

describe('local agents: sandbox plan and bubblewrap arguments', () => {
  it('keeps a workspace path with spaces as one argument, writable, and runs the agent there', () => {
    const args = bwrapArgs(planSandbox(base(), fakeFs(FS)));
    assert.ok(indexOf(args, '--bind', WS, WS) >= 0, args.join(' | '));
    assert.ok(indexOf(args, '--chdir', WS, '--') === args.length - 3);
    assert.deepEqual(args.slice(0, 4), ['--die-with-parent', '--new-session', '--unshare-all', '--ro-bind']);
    assert.ok(indexOf(args, '--ro-bind', '/', '/') >= 0 && indexOf(args, '--tmpfs', '/tmp') >= 0);
    assert.ok(indexOf(args, '--dev', '/dev') >= 0 && indexOf(args, '--proc', '/proc') >= 0);
  });

  it('empties every home read-only, then mounts the workspace and the state folders into it', () => {
    const args = bwrapArgs(planSandbox(base(), fakeFs(FS)));
    const emptied = indexOf(args, '--tmpfs', HOME);
    assert.ok(emptied > 0);
    assert.ok(indexOf(args, '--tmpfs', '/home') < emptied && indexOf(args, '--tmpfs', '/root') > 0);
    assert.ok(indexOf(args, '--bind', WS, WS) > emptied);
    assert.ok(indexOf(args, '--bind', '/home/u/.claude', '/home/u/.claude') > emptied);
    assert.ok(indexOf(args, '--bind', '/home/u/.claude.json', '/home/u/.claude.json') > emptied);
    assert.ok(indexOf(args, '--ro-bind', '/home/u/.gitconfig', '/home/u/.gitconfig') > emptied);
    const remount = indexOf(args, '--remount-ro', HOME);
    assert.ok(remount > indexOf(args, '--bind', WS, WS), 'the home is made read-only after what is mounted into it');
    // Nothing else of the home is mounted: ~/notes and ~/.ssh are simply not there.
    assert.equal(indexOf(args, '--ro-bind', '/home/u/notes', '/home/u/notes'), -1);
    assert.ok(!args.some((a) => a.startsWith('/home/u/.ssh')), 'the emptied home already hides ~/.ssh');
  });

  it('makes the whole .git and every protected name read-only over the writable workspace, blocking missing ones', () => {
    const plan = planSandbox(base(), fakeFs({ ...FS, [`${WS}/.npmrc`]: 'file' }));
    const args = bwrapArgs(plan);
    const git = `${WS}/.git`;
    assert.ok(indexOf(args, '--ro-bind', git, git) > indexOf(args, '--bind', WS, WS), args.join(' | '));
    assert.equal(indexOf(args, '--ro-bind', `${git}/hooks`, `${git}/hooks`), -1, 'inside the read-only .git already');
    assert.ok(indexOf(args, '--ro-bind', `${WS}/.npmrc`, `${WS}/.npmrc`) > 0);
    // Missing: blocked at the first missing component, a file by an empty read-only file, a folder (.vscode for
    // .vscode/tasks.json, .opencode) by an empty read-only folder, so a program looking inside finds nothing there.
    for (const name of ['.envrc', '.mcp.json', '.gitattributes', 'opencode.jsonc', '.pre-commit-config.yaml']) {
      assert.ok(indexOf(args, '--ro-bind', '/dev/null', `${WS}/${name}`) > 0, name);
      assert.ok(plan.blocked.includes(`${WS}/${name}`), name);
    }
    // opencode creates its .opencode folder at its start and cannot run without it: not blocked when missing.
    assert.ok(!plan.blocked.includes(`${WS}/.opencode`), plan.blocked.join(' '));
    for (const name of ['.vscode', '.codex', '.claude']) {
      assert.ok(blockedFolder(args, `${WS}/${name}`), `${name}: ${args.join(' | ')}`);
      assert.equal(indexOf(args, '--ro-bind', '/dev/null', `${WS}/${name}`), -1, name);
      assert.ok(plan.blocked.includes(`${WS}/${name}`), name);
      assert.equal(sandboxView(plan, `${WS}/${name}/x.json`), 'absent', name);
    }
    // Shell start files are blocked only in a home; nothing is blocked in the read-only system or the emptied home.
    assert.ok(!plan.blocked.includes(`${WS}/.bashrc`) && !plan.blocked.includes(`${WS}/.ssh`));
    const inState = (p: string) => p.startsWith('/home/u/.claude/');
    assert.ok(
      plan.blocked.every((p) => p.startsWith(`${WS}/`) || inState(p)),
      plan.blocked.join(' '),
    );
  });

  it('protects the same names as the gate (one list): a home opened as the workspace keeps ~/.bashrc and ~/.local/bin', () => {
    const plan = planSandbox(
      base({ roots: [HOME], cwd: HOME }),
      fakeFs({ ...FS, '/home/u/.bashrc': 'file', '/home/u/.local/bin/git': 'file', '/home/u/.profile': 'file' }),
    );
    const args = bwrapArgs(plan);
    // Missing ones are blocked in a home: `.bash_profile` (it would shadow ~/.profile) and ~/.config/git.
    assert.ok(indexOf(args, '--ro-bind', '/dev/null', '/home/u/.bash_profile') > 0);
    assert.ok(blockedFolder(args, '/home/u/.config/git'), args.join(' | '));
    for (const p of ['/home/u/.bashrc', '/home/u/.local/bin', '/home/u/.profile']) {
      assert.ok(indexOf(args, '--ro-bind', p, p) > indexOf(args, '--bind', HOME, HOME), p);
      assert.ok(protectedWrite(`${p}/x`) ?? protectedWrite(p), p);
    }
    for (const rel of PROTECTED_NAMES) {
      const p = `${HOME}/${rel}`;
      assert.ok(protectedWrite(p), `the gate protects ${rel} too`);
      if (rel !== '.opencode') {
        // (.opencode: opencode creates it at its start; read-only when it exists, the gate asks for writes there)
        assert.notEqual(sandboxView(plan, p), 'rw', `${rel} is not writable inside`);
      }
    }
  });

  it('keeps a linked worktree’s .git file, its real git folder, the common folder and the hooks folder read-only', () => {
    const main = '/home/u/my project';
    const wt = '/home/u/wt';
    const plan = planSandbox(
      base({
        roots: [main, wt],
        cwd: wt,
        git: [`${wt}/.git`, `${main}/.git/worktrees/wt`, `${main}/.git`, `${wt}/tools/hooks`],
      }),
      fakeFs({
        ...FS,
        [`${wt}/.git`]: 'file',
        [`${main}/.git/worktrees/wt/commondir`]: 'file',
        [`${wt}/tools/a`]: 'file',
      }),
    );
    const args = bwrapArgs(plan);
    assert.ok(indexOf(args, '--ro-bind', `${wt}/.git`, `${wt}/.git`) > indexOf(args, '--bind', wt, wt));
    assert.ok(indexOf(args, '--ro-bind', `${main}/.git`, `${main}/.git`) > 0);
    // The hooks folder does not exist yet: blocked, so nothing can be put there.
    assert.ok(indexOf(args, '--ro-bind', '/dev/null', `${wt}/tools/hooks`) > 0, args.join(' | '));
    // Git paths outside every writable folder are left as they are.
    const outside = planSandbox(base({ git: ['/srv/repo/.git'] }), fakeFs({ ...FS, '/srv/repo/.git/config': 'file' }));
    assert.ok(!outside.layers.some((l) => l.type === 'mount' && l.at === '/srv/repo/.git'));
  });

  it('follows a link at a protected name to where a write would land; a dangling one blocks its target', () => {
    const facts = fakeFs({ ...FS, [`${WS}/.envrc`]: { link: `${WS}/docs/env.sh` }, [`${WS}/docs/env.sh`]: 'file' });
    const dangling = { ...facts, link: (p: string) => (p === `${WS}/.mcp.json` ? 'gone/mcp.json' : undefined) };
    const plan = planSandbox(base(), dangling);
    const args = bwrapArgs(plan);
    assert.ok(indexOf(args, '--ro-bind', `${WS}/docs/env.sh`, `${WS}/.envrc`) > 0, args.join(' | '));
    assert.ok(indexOf(args, '--ro-bind', `${WS}/docs/env.sh`, `${WS}/docs/env.sh`) > 0);
    assert.ok(blockedFolder(args, `${WS}/gone`), args.join(' | '));
    assert.equal(indexOf(args, '--ro-bind', '/dev/null', `${WS}/.mcp.json`), -1, 'not at the link itself');
  });

  it('makes the agent’s settings and hooks read-only in its writable state folder and keeps shell snapshots private', () => {
    const files = { ...FS, '/home/u/.claude/settings.json': 'file', '/home/u/.claude/hooks': 'dir' } as const;
    const args = bwrapArgs(planSandbox(base(), fakeFs(files)));
    const state = indexOf(args, '--bind', '/home/u/.claude', '/home/u/.claude');
    for (const p of ['/home/u/.claude/settings.json', '/home/u/.claude/hooks']) {
      assert.ok(indexOf(args, '--ro-bind', p, p) > state, p);
    }
    assert.ok(indexOf(args, '--tmpfs', '/home/u/.claude/shell-snapshots') > state);
    const codex = bwrapArgs(
      planSandbox(
        base({ agent: 'codex', env: { HOME, PATH: '/usr/bin', CODEX_HOME: '/srv/codex' } }),
        fakeFs({ ...FS, '/srv/codex/config.toml': 'file' }),
      ),
    );
    assert.ok(indexOf(codex, '--ro-bind', '/srv/codex/config.toml', '/srv/codex/config.toml') > 0, codex.join(' | '));
  });

  it('mounts allowPaths entries read-only (r) or writable (w, rw); globs and entries inside the workspace are not mounted', () => {
    const plan = planSandbox(
      base({
        allowPaths: [
          { pattern: '/home/u/notes', access: 'r' },
          { pattern: '/srv/data/...', access: 'rw' },
          { pattern: '/srv/out', access: 'w' },
          { pattern: '/srv/*.log', access: 'r' },
          { pattern: `${WS}/src`, access: 'r' },
          { pattern: '/srv/missing', access: 'r' },
        ],
      }),
      fakeFs({ ...FS, '/srv/data/x': 'file', '/srv/out': 'dir' }),
    );
    const args = bwrapArgs(plan);
    assert.ok(indexOf(args, '--ro-bind', '/home/u/notes', '/home/u/notes') > indexOf(args, '--tmpfs', HOME));
    assert.ok(indexOf(args, '--bind', '/srv/data', '/srv/data') >= 0);
    assert.ok(indexOf(args, '--bind', '/srv/out', '/srv/out') >= 0);
    assert.deepEqual(
      plan.skipped.map((s) => `${s.path}:${s.reason}`),
      ['/srv/*.log:glob', `${WS}/src:inWorkspace`, '/srv/missing:missing'],
    );
  });

  it('hidden wins over allowPaths: an entry inside a hidden folder is dropped, one around it gets the folder covered', () => {
    const plan = planSandbox(
      base({
        allowPaths: [
          { pattern: '/home/u/.ssh', access: 'r' },
          { pattern: '/home/u/.ssh/...', access: 'rw' },
          { pattern: '/home/u/.config/...', access: 'r' },
          { pattern: '/home/u', access: 'rw' },
        ],
      }),
      fakeFs(FS),
    );
    assert.deepEqual(
      plan.skipped.filter((s) => s.reason === 'hidden').map((s) => s.path),
      ['/home/u/.ssh', '/home/u/.ssh'],
    );
    const args = bwrapArgs(plan);
    const home = indexOf(args, '--bind', HOME, HOME);
    assert.ok(home > 0, 'the home itself is allowed');
    assert.equal(indexOf(args, '--remount-ro', HOME), -1, 'an allowed home stays writable');
    // ...but its secrets are covered after every mount: a read-only empty folder, /dev/null for a file.
    const ssh = indexOf(args, '--tmpfs', '/home/u/.ssh', '--remount-ro', '/home/u/.ssh');
    assert.ok(ssh > home && ssh > indexOf(args, '--bind', WS, WS), args.join(' | '));
    assert.ok(indexOf(args, '--ro-bind', '/dev/null', '/home/u/.netrc') > home);
    assert.ok(indexOf(args, '--tmpfs', '/home/u/.config/Code') > home, 'VS Code storage inside ~/.config');
  });

  it('hides the storage paths passed in even inside the workspace, and drops a workspace inside them', () => {
    const plan = planSandbox(
      base({ hidden: [`${WS}/.fountain-store`, '/var/lib/code'], roots: [WS, '/var/lib/code/ws'] }),
      fakeFs({ ...FS, '/home/u/my project/.fountain-store/keys': 'file', '/var/lib/code/ws/a': 'file' }),
    );
    const args = bwrapArgs(plan);
    assert.ok(indexOf(args, '--tmpfs', `${WS}/.fountain-store`) > indexOf(args, '--bind', WS, WS));
    assert.ok(indexOf(args, '--tmpfs', '/var/lib/code') > 0, 'visible through the read-only system: covered');
    assert.deepEqual(plan.skipped, [{ path: '/var/lib/code/ws', reason: 'hidden' }]);
  });

  it('gives each agent its own state folders, following CLAUDE_CONFIG_DIR and CODEX_HOME', () => {
    const facts = fakeFs({
      ...FS,
      '/home/u/.gemini': 'dir',
      '/home/u/.codex': 'dir',
      '/cfg/claude': 'dir',
      '/cfg/codex': 'dir',
      '/home/u/.local/share/opencode': 'dir',
      '/home/u/.local/state/opencode': 'dir',
      '/home/u/.config/opencode': 'dir',
      '/home/u/.cache/opencode': 'dir',
    });
    const state = (over: Partial<SandboxInput>) =>
      planSandbox(base(over), facts)
        .layers.filter((l) => l.type === 'mount' && l.why === 'state')
        .map((l) => (l.type === 'mount' ? `${l.at}:${l.access}` : ''));
    assert.deepEqual(state({}), ['/home/u/.claude:rw', '/home/u/.claude.json:rw']);
    assert.deepEqual(state({ env: { HOME, CLAUDE_CONFIG_DIR: '/cfg/claude' } }), ['/cfg/claude:rw']);
    assert.deepEqual(state({ agent: 'gemini' }), ['/home/u/.gemini:rw']);
    assert.deepEqual(state({ agent: 'codex-acp', env: { HOME, CODEX_HOME: '/cfg/codex' } }), ['/cfg/codex:rw']);
    assert.deepEqual(state({ agent: 'opencode' }), [
      '/home/u/.config/opencode:rw',
      '/home/u/.cache/opencode:rw',
      '/home/u/.local/share/opencode:rw',
      '/home/u/.local/state/opencode:rw',
    ]);
    assert.deepEqual(state({ agent: 'some-other-agent' }), []);
  });

  it('mounts programs on PATH that live in the home read-only (prefix/bin and prefix/lib)', () => {
    const facts = fakeFs({ ...FS, '/home/u/.nvm/v20/bin/node': 'file', '/home/u/.nvm/v20/lib/node_modules': 'dir' });
    const args = bwrapArgs(planSandbox(base({ env: { HOME, PATH: '/home/u/.nvm/v20/bin:/usr/bin' } }), facts));
    assert.ok(indexOf(args, '--ro-bind', '/home/u/.nvm/v20/bin', '/home/u/.nvm/v20/bin') > 0);
    assert.ok(indexOf(args, '--ro-bind', '/home/u/.nvm/v20/lib', '/home/u/.nvm/v20/lib') > 0);
  });

  it('mounts the command back when it is run from a link in the private /tmp (the link and the file it leads to)', () => {
    const facts = fakeFs({
      ...FS,
      '/tmp/t/bin/agent': { link: '/opt/agent/bin/agent' },
      '/opt/agent/bin/agent': 'file',
    });
    const args = bwrapArgs(planSandbox(base({ command: '/tmp/t/bin/agent' }), facts));
    const tmp = args.indexOf('/tmp');
    const bind = indexOf(args, '--ro-bind', '/tmp/t/bin', '/tmp/t/bin');
    assert.ok(tmp > 0 && bind > tmp, "the link's folder is bound read-only over the private /tmp");
  });

  it('gives a TMPDIR of its own a private folder too, and covers XDG_RUNTIME_DIR', () => {
    const facts = fakeFs({ ...FS, '/var/tmp/u': 'dir', '/run/user/1000/bus': 'other' });
    const args = bwrapArgs(
      planSandbox(base({ env: { HOME, TMPDIR: '/var/tmp/u', XDG_RUNTIME_DIR: '/run/user/1000' } }), facts),
    );
    assert.ok(indexOf(args, '--tmpfs', '/var/tmp/u') > 0);
    assert.ok(indexOf(args, '--tmpfs', '/run/user', '--remount-ro', '/run/user') > 0);
  });
});

describe('local agents: sandbox as a scope (one scope, two enforcers)', () => {
  const plan = planSandbox(base({ allowPaths: [{ pattern: '/home/u/notes', access: 'r' }] }), fakeFs(FS));

  it('reads each path as the agent finds it', () => {
    assert.equal(sandboxView(plan, `${WS}/src/a.ts`), 'rw');
    assert.equal(sandboxView(plan, `${WS}/.git/config`), 'ro');
    assert.equal(sandboxView(plan, '/home/u/notes/todo.md'), 'ro');
    assert.equal(sandboxView(plan, '/home/u/other.txt'), 'absent');
    assert.equal(sandboxView(plan, '/home/u/.ssh/id_rsa'), 'absent');
    assert.equal(sandboxView(plan, '/etc/passwd'), 'ro');
    assert.equal(sandboxView(plan, '/tmp/x'), 'private');
  });

  it('says what to add to fountain.local.allowPaths for a path outside, and nothing for one inside', () => {
    assert.equal(outsideSandbox(plan, [{ path: `${WS}/src/a.ts`, access: 'write' }]), undefined);
    assert.equal(outsideSandbox(plan, [{ path: '/home/u/notes/todo.md', access: 'read' }]), undefined);
    const read = outsideSandbox(plan, [{ path: '/home/u/diary/x.md', access: 'read' }]);
    assert.equal(
      read?.sentence,
      'outside the sandbox: it will fail unless you add `~/diary/x.md` to fountain.local.allowPaths ' +
        '({"pattern":"/home/u/diary/x.md","access":"r"}) and restart the agent',
    );
    const write = outsideSandbox(plan, [{ path: '/home/u/notes/todo.md', access: 'write' }]);
    assert.match(write?.sentence ?? '', /"access":"rw"/);
    assert.equal(write?.fixable, true);
  });

  it('never offers allowPaths for a hidden path or a protected workspace file', () => {
    const ssh = outsideSandbox(plan, [{ path: '/home/u/.ssh/id_rsa', access: 'read' }]);
    assert.equal(ssh?.fixable, false);
    assert.match(ssh?.sentence ?? '', /`~\/\.ssh\/id_rsa` is never visible/);
    const cfg = outsideSandbox(plan, [{ path: `${WS}/.git/config`, access: 'write' }]);
    assert.equal(cfg?.fixable, false);
    assert.match(cfg?.sentence ?? '', /read-only there/);
  });
});

describe('local agents: macOS sandbox-exec profile (generated only; macOS is not tested here)', () => {
  const facts = fakeFs({ ...FS, '/Users/u/link': { link: '/Users/u/real "repo"' }, '/Users/u/real "repo"/a': 'file' });
  const input = base({
    home: '/Users/u',
    roots: ['/Users/u/link'],
    cwd: '/Users/u/link',
    allowPaths: [
      { pattern: '/Users/u', access: 'r' },
      { pattern: '/Users/u/.ssh', access: 'r' },
    ],
    env: { HOME: '/Users/u', PATH: '/usr/bin' },
  });
  const profile = seatbeltProfile(planSandbox(input, facts));
  const lines = profile.trim().split('\n');

  it('starts from (deny default), then lets the system be read, forbids writes, and lets each layer decide', () => {
    assert.deepEqual(lines.slice(0, 2), ['(version 1)', '(deny default)']);
    assert.ok(!lines.includes('(allow default)'), profile);
    const noWrites = lines.indexOf('(deny file-write*)');
    const system = lines.indexOf('(allow file-read*)');
    const emptied = lines.indexOf('(deny file-read* file-write* (subpath "/Users/u"))');
    const allowed = lines.indexOf('(allow file-read* (subpath "/Users/u"))');
    assert.ok(noWrites > 1 && system > noWrites && emptied > system && allowed > emptied, profile);
    assert.ok(lines.includes('(allow file-read* file-write* (subpath "/tmp"))'));
  });

  it('allows what the agents need (programs, own processes) and only the listed services', () => {
    for (const rule of ['(allow process-exec)', '(allow process-fork)', '(allow signal (target same-sandbox))']) {
      assert.ok(lines.includes(rule), rule);
    }
    // Signals and process information reach only the sandbox's own processes.
    assert.ok(!lines.some((l) => /^\(allow (signal|process-info\*)\)$/.test(l)), profile);
    const mach = lines.filter((l) => l.includes('mach-lookup'));
    assert.equal(mach.length, 1, profile);
    const services = [...mach[0].matchAll(/\(global-name "([^"]+)"\)/g)].map((m) => m[1]);
    assert.deepEqual(services, [...SEATBELT_SERVICES]);
    // What `open`, Apple Events and the window server go through is never reachable.
    for (const closed of [
      'com.apple.coreservices.launchservicesd',
      'com.apple.coreservices.appleevents',
      'com.apple.windowserver.active',
      'com.apple.pasteboard.1',
    ]) {
      assert.ok(!services.includes(closed), closed);
    }
    assert.ok(!lines.some((l) => /\(allow mach-lookup\)$|\(allow mach\*\)/.test(l)), profile);
  });

  it('writes both the link and the target of a symlinked workspace, with quotes escaped', () => {
    assert.ok(
      lines.includes('(allow file-read* file-write* (subpath "/Users/u/link") (subpath "/Users/u/real \\"repo\\""))'),
      profile,
    );
  });

  it('denies the hidden paths last (SBPL: the last matching rule wins), even under an allowed home', () => {
    const hidden = lines.at(-1)!;
    assert.match(hidden, /^\(deny file-read\* file-write\* .*\(subpath "\/Users\/u\/\.ssh"\)/);
    assert.match(hidden, /\(subpath "\/Users\/u\/Library\/Keychains"\)/);
    assert.ok(!lines.some((l) => l.startsWith('(allow') && l.includes('"/Users/u/.ssh"')));
  });

  it('refuses a path it cannot write into a profile', () => {
    assert.throws(
      () => seatbeltProfile(planSandbox(base({ roots: ['/w/a\nb'], cwd: '/w/a\nb' }), fakeFs({ '/w/a\nb/x': 'file' }))),
      SeatbeltPathError,
    );
  });

  const network = (l: readonly string[]) => l.filter((x) => x.includes('network-'));
  const proxy = {
    socketPath: '/private/var/folders/x/fountain-net-1/proxy.sock',
    port: 51234,
    forwarder: { node: '/Users/u/.vscode/bin/node', electron: false, script: '/Users/u/.vscode/ext/dist/forwarder.js' },
  };

  it('network ask: only the forwarder port on localhost and the proxy socket; the forwarder readable after the home', () => {
    const withProxy = seatbeltProfile(planSandbox(input, facts), proxy).trim().split('\n');
    assert.deepEqual(network(withProxy), [
      '(allow network-bind network-inbound (local ip "localhost:51234"))',
      '(allow network-outbound (remote ip "localhost:51234") (remote unix-socket (path-literal "/private/var/folders/x/fountain-net-1/proxy.sock")))',
    ]);
    const reads = withProxy.indexOf(
      '(allow file-read* (subpath "/Users/u/.vscode/ext/dist/forwarder.js") (subpath "/Users/u/.vscode/bin"))',
    );
    const emptied = withProxy.indexOf('(deny file-read* file-write* (subpath "/Users/u"))');
    assert.ok(emptied > 0 && reads > emptied, withProxy.join('\n'));
    assert.ok(!withProxy.includes('(allow network-outbound)'));
  });

  it('network open: the host network; no network given: none at all', () => {
    const open = seatbeltProfile(planSandbox(input, facts), 'open').trim().split('\n');
    assert.deepEqual(network(open), [
      '(allow network-outbound)',
      '(allow network-bind (local ip "localhost:*"))',
      '(allow network-inbound (local ip "localhost:*"))',
    ]);
    assert.deepEqual(network(lines), []);
  });

  it('refuses a proxy socket path it cannot write into a profile', () => {
    assert.throws(
      () => seatbeltProfile(planSandbox(input, facts), { ...proxy, socketPath: '/tmp/a\nb.sock' }),
      SeatbeltPathError,
    );
  });
});
