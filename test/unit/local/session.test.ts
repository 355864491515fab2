// LocalAgentSession start failures, with small fake agents on a temp PATH (real processes, no ACP runtime needed).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { AgentNotFoundError, AgentStartError, LocalAgentSession, presetById, specFromPreset } from '../../../src/local';
import { specFromConfig, parseLocalAgents } from '../../../src/local/config';
import { groupAlive } from './realHarness';

describe('local agents: session start', function () {
  this.timeout(20_000);
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fountain-local-session-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));
  const sourceEnv = () => ({ PATH: `${dir}${path.delimiter}${path.dirname(process.execPath)}`, HOME: dir });
  const agentScript = (name: string, body: string) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, `#!${process.execPath}\n${body}`, { mode: 0o755 });
    return name;
  };

  it('a preset whose command is not installed fails with its install command and spawns nothing', async () => {
    const asks: unknown[] = [];
    await assert.rejects(
      LocalAgentSession.start({
        spec: specFromPreset(presetById('qwen')!),
        cwd: dir,
        ask: (a) => asks.push(a),
        sourceEnv: sourceEnv(),
      }),
      (e: unknown) => {
        assert.ok(e instanceof AgentNotFoundError);
        assert.match(e.message, /qwen was not found on PATH\. Install it with: npm install -g @qwen-code\/qwen-code/);
        assert.deepEqual(e.failure, {
          kind: 'notFound',
          command: 'qwen',
          install: 'npm install -g @qwen-code/qwen-code',
        });
        return true;
      },
    );
  });

  it('an agent that dies before session/new fails with its last stderr lines, and leaves no process', async () => {
    const name = agentScript('dies-early', `process.stderr.write('boom: no credentials\\n'); process.exit(7);`);
    const [config] = parseLocalAgents([{ name: 'early', command: name }]).agents;
    const lines: string[] = [];
    await assert.rejects(
      LocalAgentSession.start({
        spec: specFromConfig(config),
        cwd: dir,
        ask: () => undefined,
        sourceEnv: sourceEnv(),
        log: (l) => lines.push(l),
      }),
      (e: unknown) => {
        assert.ok(e instanceof AgentStartError);
        assert.match(e.message, /^early did not start: early exited with code 7/);
        assert.deepEqual(e.stderrTail, ['boom: no credentials']);
        assert.deepEqual(e.failure, { kind: 'exited', how: 'code 7' });
        return true;
      },
    );
    assert.ok(lines.includes('boom: no credentials'), 'stderr went to the log');
    const pgid = Number(/process group (\d+)/.exec(lines.join('\n'))?.[1]);
    assert.ok(pgid > 0);
    assert.equal(groupAlive(pgid), false);
  });

  it('an agent that cannot load a package it imports fails as a missing module, naming it', async () => {
    const file = path.join(dir, 'missing.mjs');
    fs.writeFileSync(file, `#!${process.execPath}\nimport '@fountain-fixture/not-installed';\n`, { mode: 0o755 });
    const [config] = parseLocalAgents([{ name: 'missing', command: file }]).agents;
    await assert.rejects(
      LocalAgentSession.start({ spec: specFromConfig(config), cwd: dir, ask: () => undefined, sourceEnv: sourceEnv() }),
      (e: unknown) => {
        assert.ok(e instanceof AgentStartError);
        assert.deepEqual(e.failure, {
          kind: 'missingModule',
          sandboxed: false,
          module: '@fountain-fixture/not-installed',
        });
        assert.ok(
          e.stderrTail.some((l) => l.includes('ERR_MODULE_NOT_FOUND')),
          e.stderrTail.join('\n'),
        );
        return true;
      },
    );
  });

  it('a spawn the OS refuses (its folder is gone) fails as cannotRun with the error code', async () => {
    const name = agentScript('fine', 'process.stdin.resume();');
    const [config] = parseLocalAgents([{ name: 'gone', command: name }]).agents;
    const cwd = path.join(dir, 'no-such-folder');
    await assert.rejects(
      LocalAgentSession.start({ spec: specFromConfig(config), cwd, ask: () => undefined, sourceEnv: sourceEnv() }),
      (e: unknown) => {
        assert.ok(e instanceof AgentStartError);
        assert.deepEqual(e.failure, { kind: 'cannotRun', command: path.join(dir, name), code: 'ENOENT' });
        return true;
      },
    );
  });

  it('an agent that never answers initialize is stopped after the start timeout', async () => {
    const name = agentScript(
      'silent',
      `process.stdin.resume(); process.on('SIGTERM', () => {}); setInterval(() => {}, 1000);`,
    );
    const [config] = parseLocalAgents([{ name: 'silent', command: name }]).agents;
    const lines: string[] = [];
    await assert.rejects(
      LocalAgentSession.start({
        spec: { ...specFromConfig(config), graceMs: 50, termMs: 50 },
        cwd: dir,
        ask: () => undefined,
        sourceEnv: sourceEnv(),
        startTimeoutMs: 300,
        log: (l) => lines.push(l),
      }),
      (e: unknown) => {
        assert.ok(e instanceof AgentStartError);
        assert.match(e.message, /silent did not start: starting silent took longer than 300 ms/);
        assert.deepEqual(e.failure, { kind: 'timeout', seconds: 0 });
        return true;
      },
    );
    const pgid = Number(/process group (\d+)/.exec(lines.join('\n'))?.[1]);
    assert.equal(groupAlive(pgid), false);
  });
});
