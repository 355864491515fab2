// Nothing written inside the sandbox runs outside through the repository (issue 26): each case runs a shell inside
// the product's own sandbox (confine() and its bubblewrap argv, real bwrap), trying one escape an attack review
// found, and then real `git status` outside, as VS Code's git extension runs it. Every planted command would touch
// a marker file outside; the marker must not appear. The throwaway HOME and workspace live under the temp folder.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { confine, NewRepoWatch, removeBlockers } from '../../../src/local/sandbox';
import { skipOrFail } from '../../support/skipOrFail';

const BWRAP = '/usr/bin/bwrap';
const GIT_ENV = { PATH: '/usr/bin:/bin', GIT_CONFIG_NOSYSTEM: '1', LANG: 'C' };

function git(cwd: string, home: string, ...args: string[]): string {
  const r = spawnSync('git', args, { cwd, env: { ...GIT_ENV, HOME: home }, encoding: 'utf8' });
  return `${r.stdout}${r.stderr}`;
}

describe('local agents: nothing written inside the sandbox runs outside through git (real bwrap, real git)', function () {
  this.timeout(60_000);
  let root = '';
  let home = '';
  let ws = '';
  let mark = '';

  before(function () {
    if (process.platform !== 'linux' || !fs.existsSync(BWRAP)) {
      skipOrFail(this, 'bubblewrap is not installed at /usr/bin/bwrap (apt-get install bubblewrap)');
    }
  });
  beforeEach(() => {
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'fountain-unit-escape-')));
    home = path.join(root, 'home');
    ws = path.join(root, 'ws');
    mark = path.join(root, 'MARK');
    fs.mkdirSync(home);
    fs.mkdirSync(ws);
    git(ws, home, 'init', '-q');
    git(ws, home, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '--allow-empty', '-m', 'x');
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  /** Runs `script` in bash inside the sandbox of an agent working in `cwd` (workspace folders `roots`). */
  async function inside(script: string, cwd = ws, roots = [ws]): Promise<string> {
    const c = await confine(
      { setting: 'required', roots },
      { runtime: 'custom', command: '/bin/bash', cwd, env: { PATH: '/usr/bin:/bin', HOME: home } },
    );
    assert.ok(c.sandboxed);
    const r = spawnSync(c.wrap.command, [...c.wrap.prefix, '/bin/bash', '-c', script], {
      env: { PATH: '/usr/bin:/bin', HOME: home, MARK: mark },
      encoding: 'utf8',
      timeout: 20_000,
    });
    removeBlockers(c.plan);
    assert.equal(r.error, undefined);
    return `${r.stdout}${r.stderr}`;
  }

  /** `git status` outside, in each folder: nothing planted inside may have run. */
  function outsideRunsNothing(said: string, ...folders: string[]): void {
    for (const f of folders.length ? folders : [ws]) {
      git(f, home, 'status');
      git(f, home, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '--allow-empty', '-m', 'y');
    }
    assert.ok(!fs.existsSync(mark), `a command planted inside ran outside; inside said:\n${said}`);
  }

  const FSMONITOR = 'printf "[core]\\n\\tfsmonitor = \\"touch $MARK; false\\"\\n"';

  it('renaming .git and copying it back fails (a mount point cannot be renamed)', async () => {
    const said = await inside(
      `mv .git x && cp -r x .git && rm -rf x; ${FSMONITOR} >> .git/config; git config core.fsmonitor "touch $MARK; false"`,
    );
    assert.match(said, /busy|read-only/i);
    outsideRunsNothing(said);
    assert.ok(fs.statSync(path.join(ws, '.git')).isDirectory() && !fs.existsSync(path.join(ws, 'x')));
  });

  it('.git/commondir cannot be pointed at a folder the agent wrote', async () => {
    const said = await inside(
      `mkdir evil && cp -r .git/objects .git/refs .git/HEAD evil/ && ${FSMONITOR} > evil/config; echo ../evil > .git/commondir`,
    );
    assert.ok(fs.existsSync(path.join(ws, 'evil/config')), 'the workspace itself stays writable');
    outsideRunsNothing(said);
  });

  it('a linked worktree’s .git file cannot be replaced, nor its real git folder or the common folder written', async () => {
    // The main repository lies deeper in the writable folder than repositories are looked for: only git's own answer
    // for the worktree (its git folder and common folder) names it.
    const main = path.join(root, 'a/b/c/d/main');
    fs.mkdirSync(main, { recursive: true });
    git(main, home, 'init', '-q');
    git(main, home, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '--allow-empty', '-m', 'x');
    const wt = path.join(root, 'wt');
    git(main, home, 'worktree', 'add', '-q', wt);
    const said = await inside(
      [
        `${FSMONITOR} >> ${main}/.git/worktrees/wt/config.worktree`,
        `echo "[extensions]" >> ${main}/.git/config; echo "worktreeConfig = true" >> ${main}/.git/config`,
        `mkdir evil && cp -r ${main}/.git/objects ${main}/.git/refs ${main}/.git/HEAD evil/ && ${FSMONITOR} > evil/config`,
        `echo ${wt}/evil > ${main}/.git/worktrees/wt/commondir`,
        `echo "gitdir: ${wt}/evil" > .git`,
      ].join('; '),
      wt,
      [root],
    );
    outsideRunsNothing(said, wt, main);
  });

  it('a writable core.hooksPath folder is read-only inside, and blocked when it does not exist yet', async () => {
    git(ws, home, 'config', 'core.hooksPath', 'tools/hooks');
    const hook = `printf "#!/bin/sh\\ntouch $MARK\\n" > tools/hooks/pre-commit; chmod +x tools/hooks/pre-commit`;
    const said = await inside(`mkdir -p tools/hooks; ${hook}`);
    outsideRunsNothing(said);
    assert.ok(!fs.existsSync(path.join(ws, 'tools/hooks')), 'the empty blocking file is gone after the agent');
    fs.mkdirSync(path.join(ws, 'tools/hooks'), { recursive: true });
    const said2 = await inside(hook);
    outsideRunsNothing(said2);
  });

  it('a dangling link shipped in the repository does not carry a write into .git', async () => {
    fs.mkdirSync(path.join(ws, 'docs'));
    fs.symlinkSync('../.git/commondir', path.join(ws, 'docs/notes.md'));
    fs.mkdirSync(path.join(ws, 'evil'));
    const said = await inside(
      `cp -r .git/objects .git/refs .git/HEAD evil/ && ${FSMONITOR} > evil/config; echo ../evil > docs/notes.md`,
    );
    assert.ok(!fs.existsSync(path.join(ws, '.git/commondir')), said);
    outsideRunsNothing(said);
  });

  it('protected names that do not exist yet cannot be created inside; the blocking files go afterwards', async () => {
    const said = await inside(
      'echo "touch $MARK" > .envrc; mkdir -p .vscode && echo "{}" > .vscode/tasks.json; echo "{}" > .mcp.json; echo ok > plain.txt',
    );
    for (const name of ['.envrc', '.vscode', '.mcp.json']) {
      assert.ok(!fs.existsSync(path.join(ws, name)), `${name} was created inside (or its blocker was left): ${said}`);
    }
    assert.equal(fs.readFileSync(path.join(ws, 'plain.txt'), 'utf8'), 'ok\n');
  });

  it('the agent’s own settings and hooks stay read-only in its writable state folder; shell snapshots stay inside', async () => {
    const c = await confine(
      { setting: 'required', roots: [ws] },
      { runtime: 'claude', command: '/bin/bash', cwd: ws, env: { PATH: '/usr/bin:/bin', HOME: home } },
    );
    assert.ok(c.sandboxed);
    const script = [
      'echo \'{"hooks":{}}\' > ~/.claude/settings.json',
      'echo x > ~/.claude/hooks/h.sh',
      'echo "touch $MARK" > ~/.claude/shell-snapshots/snapshot-bash-1.sh',
      'echo kept > ~/.claude/todo.txt',
    ].join('; ');
    const r = spawnSync(c.wrap.command, [...c.wrap.prefix, '/bin/bash', '-c', script], {
      env: { PATH: '/usr/bin:/bin', HOME: home, MARK: mark },
      encoding: 'utf8',
    });
    removeBlockers(c.plan);
    assert.equal(fs.readFileSync(path.join(home, '.claude/settings.json'), 'utf8'), '{}\n', r.stderr);
    assert.deepEqual(fs.readdirSync(path.join(home, '.claude/hooks')), []);
    assert.deepEqual(fs.readdirSync(path.join(home, '.claude/shell-snapshots')), []);
    assert.equal(
      fs.readFileSync(path.join(home, '.claude/todo.txt'), 'utf8'),
      'kept\n',
      'the state folder is writable',
    );
  });

  it('a nested `git init` inside cannot be stopped, so it is seen at once (the repositories there at start are not)', async () => {
    fs.mkdirSync(path.join(ws, 'lib'));
    const found: string[] = [];
    const watch = new NewRepoWatch([ws], (repo) => found.push(repo));
    try {
      // The sandbox's own blockers (an empty `.git` file or folder where none was) are not repositories.
      fs.mkdirSync(path.join(ws, 'blocked-file'));
      fs.mkdirSync(path.join(ws, 'blocked-folder'));
      fs.writeFileSync(path.join(ws, 'blocked-file', '.git'), '');
      fs.mkdirSync(path.join(ws, 'blocked-folder', '.git'));
      const said = await inside(
        `mkdir -p a/b && git init -q a/b/sub && git -C a/b/sub config core.fsmonitor "touch $MARK; false"; git init -q lib`,
      );
      const until = Date.now() + 5000;
      while (found.length < 2 && Date.now() < until) {
        await new Promise((r) => setTimeout(r, 50));
      }
      assert.deepEqual(found.sort(), [path.join(ws, 'a/b/sub'), path.join(ws, 'lib')], said);
    } finally {
      watch.dispose();
    }
  });
});
