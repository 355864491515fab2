import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import * as path from 'node:path';
import { parseScript } from './agents/scripted';
import type { RunningServer } from './server';
import { answerPath, api, createAndAsk, isStage, waitEvent } from '../support/serverClient';
import { startInProcess as start } from '../support/serverFixture';

const ids = (opts: unknown) => (opts as { optionId: string }[]).map((o) => o.optionId);

describe('test server: scripted agents replay real request shapes', function () {
  let server: RunningServer;
  before(async () => {
    server = await start();
  });
  after(async () => {
    await server.close();
  });

  it('claude: title = the command, allow_always/allow/reject, rawInput + text content; summary previews rawInput', async () => {
    const { block, line } = await createAndAsk(server, 'claude', 'run: git push --force');
    const params = line.params as { toolCall: Record<string, unknown>; options: unknown };
    assert.equal(params.toolCall.title, 'git push --force');
    assert.equal(params.toolCall.kind, 'execute');
    assert.deepEqual((params.toolCall.rawInput as { command: string }).command, 'git push --force');
    assert.deepEqual(ids(params.options), ['allow_always', 'allow', 'reject']);
    assert.equal(block.name, 'git push --force');
    assert.match(String(block.summary), /^command=git push --force/);
    assert.deepEqual(block.options, params.options, 'options verbatim in the block');
  });

  it('gemini: proceed_always/proceed_once/cancel, no rawInput (empty summary)', async () => {
    const { block, line } = await createAndAsk(server, 'gemini', 'run: rm -rf build');
    const params = line.params as { toolCall: Record<string, unknown>; options: unknown };
    assert.equal('rawInput' in params.toolCall, false);
    assert.deepEqual(ids(params.options), ['proceed_always', 'proceed_once', 'cancel']);
    assert.equal(block.name, 'rm -rf build');
    assert.equal(block.summary, '');
  });

  it('codex 1.x: no title (name falls back to the kind), rawInput {command, cwd}, options with _meta', async () => {
    const { block, line } = await createAndAsk(server, 'codex', 'run: npm publish');
    const params = line.params as { toolCall: Record<string, unknown>; options: { _meta?: unknown }[] };
    assert.equal('title' in params.toolCall, false);
    assert.equal(block.name, 'execute');
    assert.deepEqual(Object.keys(params.toolCall.rawInput as object), ['command', 'cwd']);
    assert.ok(params.options.every((o) => o._meta));
  });

  it('qwen: four options, two of them allow_always', async () => {
    const { line } = await createAndAsk(server, 'qwen', 'run: touch a b');
    const opts = (line.params as { options: { kind: string }[] }).options;
    assert.equal(opts.length, 4);
    assert.equal(opts.filter((o) => o.kind === 'allow_always').length, 2);
  });

  it('edit carries diff content and a location (summary = the path); plan is switch_mode "Ready to code?"', async () => {
    const e = await createAndAsk(server, 'claude', 'edit: src/app.ts => new text');
    const tc = (e.line.params as { toolCall: { content: { type: string; newText: string }[]; kind: string } }).toolCall;
    assert.equal(tc.kind, 'edit');
    assert.equal(tc.content[0].type, 'diff');
    assert.equal(tc.content[0].newText, 'new text');
    assert.equal(e.block.summary, path.join(server.cwdOf(e.id)!, 'src/app.ts'));
    const p = await createAndAsk(server, 'claude', 'plan: step one');
    const ptc = (p.line.params as { toolCall: { kind: string; title: string }; options: unknown }).toolCall;
    assert.equal(ptc.kind, 'switch_mode');
    assert.equal(ptc.title, 'Ready to code?');
    assert.deepEqual(ids((p.line.params as { options: unknown }).options), ['acceptEdits', 'default', 'plan']);
  });

  it('hostile titles and option names pass through verbatim (markdown, command: links, HTML, bidi and control chars)', async () => {
    const title =
      '**Allow** [click](command:workbench.action.terminal.new) <img src=x onerror=alert(1)> \u202Eexe.txt\u0007\u001b[31m';
    const spec = {
      toolCall: { title, kind: 'execute', rawInput: { command: 'rm -rf ~' } },
      options: [
        { optionId: 'ok', name: '<b>Allow</b> ✅', kind: 'allow_once' },
        { optionId: 'no', name: 'Reject\u202E', kind: 'reject_once' },
      ],
    };
    const { id, requestId, block, line } = await createAndAsk(server, 'claude', `ask: ${JSON.stringify(spec)}`);
    assert.equal(block.name, title);
    assert.equal((line.params as { toolCall: { title: string } }).toolCall.title, title);
    assert.deepEqual(block.options, spec.options);
    assert.equal((await api(server, 'POST', answerPath(id, requestId), { body: { option_id: 'no' } })).status, 200);
    await waitEvent(server, id, isStage('turn', 'done'), 'turn done');
  });

  it('the summary is cut at 120 bytes without splitting a character', async () => {
    const long = 'é'.repeat(200);
    const { block } = await createAndAsk(
      server,
      'claude',
      `ask: ${JSON.stringify({ toolCall: { title: 't', rawInput: { command: long } } })}`,
    );
    const s = String(block.summary);
    assert.ok(Buffer.byteLength(s) <= 120);
    assert.ok(s.startsWith('command=éé'));
    assert.ok(!s.includes('\uFFFD'));
  });

  it('parses the DSL', () => {
    assert.deepEqual(parseScript('wait(60): deploy\nedit: a.txt => hi\nsay: x'), [
      { op: 'run', command: 'deploy', wait: 60 },
      { op: 'edit', file: 'a.txt', newText: 'hi', wait: undefined },
      { op: 'say', text: 'x' },
    ]);
    assert.equal(parseScript('hello there'), undefined);
  });
});

describe('test server: CLI and control API over HTTP', function () {
  it('prints one ready line, serves the API, obeys the control token, and exits on SIGTERM', async () => {
    const child = spawn(
      process.execPath,
      [path.join(__dirname, 'main.mjs'), '--port', '0', '--no-real', '--quiet', '--manual-clock'],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    try {
      const rl = createInterface({ input: child.stdout });
      const first = await Promise.race([
        new Promise<string>((r) => rl.once('line', r)),
        new Promise<string>((_, rej) => setTimeout(() => rej(new Error('no ready line')), 15_000)),
      ]);
      const ready = JSON.parse(first) as { url: string; apiKey: string; controlUrl: string; controlToken: string };
      assert.match(ready.url, /^http:\/\/127\.0\.0\.1:\d+$/);
      const me = await fetch(`${ready.url}/api/auth/me`, { headers: { authorization: `Bearer ${ready.apiKey}` } });
      assert.equal(me.status, 200);
      const ctl = (p: string, body: unknown, token = ready.controlToken) =>
        fetch(`${ready.controlUrl}${p}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
      assert.equal((await ctl('/clock/advance', { ms: 1000 }, 'wrong')).status, 401);
      const before = (await (
        await fetch(`${ready.controlUrl}/state`, { headers: { authorization: `Bearer ${ready.controlToken}` } })
      ).json()) as {
        now_ms: number;
      };
      const adv = (await (await ctl('/clock/advance', { ms: 90_000 })).json()) as { now_ms: number };
      assert.equal(adv.now_ms - before.now_ms, 90_000);
      const back = (await (await ctl('/clock/rewind', { seconds: 30 })).json()) as { now_ms: number };
      assert.equal(back.now_ms - before.now_ms, 60_000, 'rewind takes time off again');
      assert.equal((await ctl('/clock/rewind', { ms: -5 })).status, 422);
      assert.equal(
        (await ctl('/fail', { route: 'me', status: 503, retry_after: 30, body: { error: 'sandbox_unavailable' } }))
          .status,
        200,
      );
      const failed = await fetch(`${ready.url}/api/auth/me`, { headers: { authorization: `Bearer ${ready.apiKey}` } });
      assert.equal(failed.status, 503);
      assert.equal(failed.headers.get('retry-after'), '30');
      const created = await ctl('/conversations', { agent_id: 'claude', prompt: 'run: ls' });
      assert.equal(created.status, 201);
      const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
      child.kill('SIGTERM');
      assert.equal(await exited, 0);
    } finally {
      if (child.exitCode === null) {
        child.kill('SIGKILL');
      }
    }
  });
});
