// Real child processes (node scripts in a temp folder): process groups, stop by group, stderr tail, environment.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { AgentProcess } from '../../../src/local/agentProcess';
import { AgentNotFoundError, BASE_ENV_NAMES, buildAgentEnv, resolveCommand } from '../../../src/local';
import { resolveAgentCommand } from '../../../src/local/launch';
import { groupAlive } from './realHarness';
import { skipOrFail } from '../../support/skipOrFail';

// A leader that ignores stdin EOF and SIGTERM, with a grandchild that does the same: only SIGKILL to the group ends it.
const STUBBORN = `
const { spawn } = require('node:child_process');
process.on('SIGTERM', () => {});
const child = spawn(process.execPath, ['-e', "process.on('SIGTERM',()=>{}); setInterval(()=>{}, 1000)"], { stdio: 'ignore' });
process.stderr.write('child ' + child.pid + '\\n');
setInterval(() => {}, 1000);
`;
// Exits 0 on stdin EOF.
const POLITE = `process.stdin.resume(); process.stdin.on('end', () => process.exit(0));`;
// Writes 60 stderr lines and its environment, then crashes.
const CRASHER = `
for (let i = 1; i <= 60; i++) process.stderr.write('line ' + i + '\\n');
process.stderr.write('env ' + JSON.stringify(process.env) + '\\n');
setTimeout(() => process.exit(3), 10);
`;

const readStat = (pid: number): string => {
  try {
    return fs.readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^\d+ \(.*\) /, ' ');
  } catch {
    return '';
  }
};

describe('local agents: agent process', function () {
  this.timeout(20_000);
  let dir: string;
  const script = (name: string, body: string) => {
    const p = path.join(dir, name);
    fs.writeFileSync(p, body);
    return p;
  };
  const spawnScript = (file: string, graceMs = 100, termMs = 200, extra: { onStderrLine?: (l: string) => void } = {}) =>
    AgentProcess.spawn({
      command: process.execPath,
      args: [file],
      cwd: dir,
      env: { PATH: process.env.PATH ?? '' },
      graceMs,
      termMs,
      ...extra,
    });

  // Even when a test fails (or the code under test is broken on purpose), no process it started is left behind.
  const started: number[] = [];
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fountain-local-proc-'));
  });
  afterEach(() => {
    for (const pid of started.splice(0)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('runs in its own process group and stop() ends the whole group, escalating to SIGKILL', async () => {
    let childPid = 0;
    const lines: string[] = [];
    const proc = await spawnScript(script('stubborn.js', STUBBORN), 100, 200, {
      onStderrLine: (l) => {
        lines.push(l);
        const m = /^child (\d+)$/.exec(l);
        if (m) {
          childPid = Number(m[1]);
          started.push(childPid);
        }
      },
    });
    started.push(proc.pid);
    while (!childPid) {
      await new Promise((r) => setTimeout(r, 20));
    }
    assert.equal(
      fs.readFileSync(`/proc/${childPid}/stat`, 'utf8').split(' ')[4],
      String(proc.pid),
      'grandchild is in the agent group',
    );
    assert.notEqual(proc.pid, process.pid);
    const exit = await proc.stop();
    assert.equal(exit.signal, 'SIGKILL');
    assert.equal(exit.requested, true);
    assert.equal(groupAlive(proc.pid), false, 'no process of the group is left');
    assert.equal(fs.existsSync(`/proc/${childPid}`), false);
    assert.equal(await proc.stop(), exit, 'stop is idempotent');
  });

  it('a watchdog ends the agent group when the host process dies without stopping it (SIGKILL: no exit hook)', async () => {
    const stubborn = script('stubborn.js', STUBBORN);
    // The "extension host": spawns the agent through AgentProcess, prints the agent's pid, then waits to be killed.
    const host = script(
      'host.ts',
      `import { AgentProcess } from ${JSON.stringify(path.resolve('src/local/agentProcess.ts'))};
AgentProcess.spawn({ command: process.execPath, args: [${JSON.stringify(stubborn)}], cwd: ${JSON.stringify(dir)},
  env: { PATH: process.env.PATH ?? '' }, graceMs: 100, termMs: 200 }).then((p) => {
  process.stdout.write(p.pid + ' ' + p.watchdogPid + '\\n');
  setInterval(() => {}, 1000);
});`,
    );
    const { spawn } = await import('node:child_process');
    const hostProc = spawn(process.execPath, ['--import', 'tsx', host], { stdio: ['ignore', 'pipe', 'inherit'] });
    started.push(hostProc.pid!);
    const line = await new Promise<string>((resolve) =>
      hostProc.stdout.once('data', (b: Buffer) => resolve(String(b))),
    );
    const [agentPid, dogPid] = line.trim().split(' ').map(Number);
    started.push(agentPid, dogPid);
    assert.ok(groupAlive(agentPid), 'the agent runs');
    assert.ok(dogPid > 0, 'a watchdog was started');
    hostProc.kill('SIGKILL');
    // The agent ignores stdin EOF and SIGTERM: only the watchdog's SIGKILL to the group ends it (about 2 s).
    const deadline = Date.now() + 15_000;
    while (groupAlive(agentPid) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(groupAlive(agentPid), false, 'the agent group outlived its host');
  });

  it('a normal stop disarms the watchdog: it exits by itself', async () => {
    const proc = await spawnScript(script('polite.js', POLITE), 5000, 200);
    const dog = proc.watchdogPid!;
    started.push(dog);
    assert.ok(fs.existsSync(`/proc/${dog}`), 'the watchdog runs while the agent does');
    await proc.stop();
    const deadline = Date.now() + 5_000;
    while (fs.existsSync(`/proc/${dog}`) && !/ Z /.test(readStat(dog)) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.ok(!fs.existsSync(`/proc/${dog}`) || / Z /.test(readStat(dog)), 'the watchdog is still running');
  });

  it('an agent that exits on stdin EOF ends within the grace period, without a signal', async () => {
    const proc = await spawnScript(script('polite.js', POLITE), 5000, 200);
    const exit = await proc.stop();
    assert.deepEqual([exit.code, exit.signal], [0, null]);
    assert.equal(groupAlive(proc.pid), false);
  });

  it('reports a crash with its code and the last stderr lines; the environment is exactly what it was given', async () => {
    const lines: string[] = [];
    const proc = await AgentProcess.spawn({
      command: process.execPath,
      args: [script('crash.js', CRASHER)],
      cwd: dir,
      env: { PATH: process.env.PATH ?? '', ONLY_THIS: 'yes' },
      graceMs: 100,
      termMs: 100,
      tailLines: 5,
      onStderrLine: (l) => lines.push(l),
    });
    const fired = new Promise((r) => proc.onDidExit(r));
    const exit = await proc.exited;
    assert.equal(await fired, exit);
    assert.deepEqual([exit.code, exit.signal, exit.requested], [3, null, false]);
    assert.deepEqual(exit.stderrTail.slice(0, 4), ['line 57', 'line 58', 'line 59', 'line 60']);
    assert.equal(exit.stderrTail.length, 5);
    assert.equal(lines.length, 61, 'the log callback gets every line');
    const env = JSON.parse(lines[60].slice(4)) as Record<string, string>;
    assert.equal(env.ONLY_THIS, 'yes');
    assert.equal(env.HOME, undefined, 'nothing is inherited');
  });

  it('rejects when the agent cannot be spawned (missing cwd)', async () => {
    await assert.rejects(
      AgentProcess.spawn({
        command: process.execPath,
        args: [],
        cwd: path.join(dir, 'missing'),
        env: {},
        graceMs: 1,
        termMs: 1,
      }),
      /ENOENT/,
    );
  });

  it('with a bubblewrap wrapper, stop() ends the agent and its children inside the sandbox too', async function () {
    const bwrap = ['/usr/bin/bwrap', '/usr/local/bin/bwrap'].find((p) => fs.existsSync(p));
    if (!bwrap) {
      skipOrFail(
        this,
        'bubblewrap is not installed (apt-get install bubblewrap; test/harness/setup-vscode-runtime.sh installs it)',
      );
    }
    const marker = `fountain-sbx-${process.pid}-${Date.now()}`;
    const loop = "trap '' TERM; while :; do sleep 1; done";
    const proc = await AgentProcess.spawn({
      command: '/bin/sh',
      // A child that ignores SIGTERM and a leader that ignores stdin EOF: only the sandbox ending ends them.
      args: ['-c', `trap '' TERM; /bin/sh -c "${loop}" ${marker} & exec /bin/sh -c "${loop}" ${marker}`],
      cwd: dir,
      env: { PATH: '/usr/bin:/bin' },
      graceMs: 100,
      termMs: 200,
      sandbox: {
        command: bwrap,
        prefix: [
          '--die-with-parent',
          '--new-session',
          '--unshare-all',
          '--share-net',
          '--ro-bind',
          '/',
          '/',
          '--dev',
          '/dev',
          '--proc',
          '/proc',
          '--',
        ],
      },
    });
    started.push(proc.pid);
    const withMarker = () =>
      fs.readdirSync('/proc').filter((p) => {
        try {
          return /^\d+$/.test(p) && fs.readFileSync(`/proc/${p}/cmdline`, 'utf8').includes(marker);
        } catch {
          return false;
        }
      });
    const deadline = Date.now() + 5000;
    // bwrap itself, its init and the two sleeps (the command line of bwrap names the marker too).
    while (withMarker().length < 3 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.ok(withMarker().length >= 3, `the sandboxed processes run: ${withMarker().join(' ')}`);
    assert.match(fs.readFileSync(`/proc/${proc.pid}/cmdline`, 'utf8'), /bwrap/);
    await proc.stop();
    const gone = Date.now() + 3000;
    while (withMarker().length && Date.now() < gone) {
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.deepEqual(withMarker(), [], 'nothing of the sandbox is left');
  });
});

describe('local agents: command and environment', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fountain-local-path-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('finds an executable on PATH without a shell, and not a file that is not executable', async () => {
    fs.writeFileSync(path.join(dir, 'my-agent'), '#!/bin/sh\n', { mode: 0o755 });
    fs.writeFileSync(path.join(dir, 'not-exec'), '#!/bin/sh\n', { mode: 0o644 });
    const PATH = `/nonexistent${path.delimiter}${dir}`;
    assert.equal(await resolveCommand('my-agent', PATH), path.join(dir, 'my-agent'));
    assert.equal(await resolveCommand('not-exec', PATH), undefined);
    assert.equal(await resolveCommand('nowhere-agent', PATH), undefined);
    assert.equal(await resolveCommand('$(touch pwned)', PATH), undefined);
    assert.equal(fs.existsSync('pwned'), false);
  });

  it('a missing preset command says how to install it', async () => {
    const spec = {
      name: 'Gemini CLI',
      command: 'gemini',
      args: ['--acp'],
      env: [],
      runtime: 'gemini',
      policy: { default: 'ask' },
      graceMs: 1,
      termMs: 1,
      install: 'npm install -g @google/gemini-cli',
    };
    await assert.rejects(resolveAgentCommand(spec, { PATH: dir }), (e: unknown) => {
      assert.ok(e instanceof AgentNotFoundError);
      assert.equal(e.message, 'gemini was not found on PATH. Install it with: npm install -g @google/gemini-cli');
      return true;
    });
  });

  it('passes the base variables and the named ones only', () => {
    const source = {
      PATH: '/bin',
      HOME: '/home/u',
      LANG: 'C.UTF-8',
      ANTHROPIC_API_KEY: 'k',
      FOUNTAIN_TOKEN: 'secret',
      FOUNTAIN_API_KEY: 'secret2',
      VSCODE_IPC_HOOK: 'x',
      ELECTRON_RUN_AS_NODE: '1',
      NODE_OPTIONS: '--inspect',
    };
    assert.deepEqual(buildAgentEnv(source, ['ANTHROPIC_API_KEY', 'NOT_SET']), {
      PATH: '/bin',
      HOME: '/home/u',
      LANG: 'C.UTF-8',
      ANTHROPIC_API_KEY: 'k',
    });
    assert.ok(BASE_ENV_NAMES.includes('PATH') && !BASE_ENV_NAMES.some((n) => /TOKEN|KEY|SECRET/.test(n)));
  });
});
