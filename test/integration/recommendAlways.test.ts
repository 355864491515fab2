// Recommend Local Allow Patterns…, honest (issue 20), in the real extension host with the published
// claude-agent-acp on the scripted loopback model: two `git init` requests allowed by hand make "execute:git init*"
// a recommendation; a third waits in the inbox. The preview (the test's stand-in for the modal, same code) shows the
// setting before and after, the dry run over the history and the waiting request it covers; declined, nothing is
// written and the request still waits; confirmed, the setting is written and the waiting request is answered with its
// own allow-once through the inbox (one answer, read from the agent's side of the wire), and its command runs.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import type { TestApi } from '../../src/extension';
import { startFakeModel, writeQuietClaudeSettings, type FakeModel } from '../support/scriptedModel';
import { getApi, waitFor, groupAlive, type RpcMessage } from './support';
import { skipOrFail } from '../support/skipOrFail';
import { sendLocalPrompt, startLocalAgent } from './gestures';

const ROOT = path.resolve(__dirname, '../../..');
const BIN = path.join(ROOT, 'test/runtime/acp-agents/node_modules/.bin');
const CLAUDE = path.join(BIN, 'claude-agent-acp');
const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64url');

describe('Recommend Local Allow Patterns… with the dry run and the waiting requests it covers', function () {
  this.timeout(240_000);
  const folder = vscode.workspace.workspaceFolders![0];
  const tag = randomUUID().slice(0, 8);
  const dirs = [1, 2, 3].map((n) => `rec-always-${tag}-${n}`);
  let root = '';
  let model: FakeModel | undefined;
  let id = '';
  let pid = 0;

  before(async function () {
    if (!fs.existsSync(CLAUDE)) {
      skipOrFail(this, 'claude-agent-acp is not installed: run `bash test/harness/setup-acp-agents.sh`');
    }
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'fountain-int-recalways-'));
    model = await startFakeModel({
      deriveCommand: (text) => {
        const m = /RUN64:([A-Za-z0-9_-]+)/.exec(text);
        return m ? { command: Buffer.from(m[1], 'base64url').toString('utf8'), description: 'Run it' } : undefined;
      },
    });
    const api = await getApi();
    const home = path.join(root, 'home');
    const claudeDir = path.join(home, '.claude');
    fs.mkdirSync(path.join(root, 'tmp'), { recursive: true });
    writeQuietClaudeSettings(claudeDir);
    api.local.useSourceEnv({
      PATH: [BIN, path.dirname(process.execPath), '/usr/bin', '/bin'].join(path.delimiter),
      HOME: home,
      TMPDIR: path.join(root, 'tmp'),
      LANG: 'C.UTF-8',
      ANTHROPIC_BASE_URL: model.baseUrl,
      ANTHROPIC_API_KEY: 'sk-ant-fake-offline-key',
      CLAUDE_CONFIG_DIR: claudeDir,
    });
    api.local.wire();
    const started = await startLocalAgent({ agent: 'preset:claude', folder: folder.uri.fsPath });
    assert.ok(started, 'claude did not start');
    id = started;
    pid = api.local.sessions().find((s) => s.id === id)!.pid!;
  });
  after(async () => {
    const api = await getApi();
    api.local.useSourceEnv(undefined);
    await vscode.workspace
      .getConfiguration('fountain.local')
      .update('allow', undefined, vscode.ConfigurationTarget.Global);
    if (id) {
      await vscode.commands.executeCommand('fountain.local.stop', id);
    }
    if (pid && groupAlive(pid)) {
      process.kill(-pid, 'SIGKILL');
    }
    await model?.close();
    for (const d of dirs) {
      fs.rmSync(path.join(folder.uri.fsPath, d), { recursive: true, force: true });
    }
    if (root) {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  const waiting = (api: TestApi) => api.items().filter((i) => i.key.server === `local:${id}` && i.pending);
  /** The kinds of the options we sent on the wire for this session's permission requests, oldest first. */
  function sent(api: TestApi): string[] {
    const lines = api.local
      .wire()
      .filter((l) => l.session === id)
      .map((l) => ({ direction: l.direction, m: l.message as RpcMessage }));
    return lines
      .filter((l) => l.direction === 'in' && l.m.method === 'session/request_permission')
      .map(({ m }) => {
        const r = lines.find(
          (l) => l.direction === 'out' && l.m.method === undefined && JSON.stringify(l.m.id) === JSON.stringify(m.id),
        )?.m;
        const chosen = r?.result?.outcome?.optionId;
        return (m.params?.options ?? []).find((o) => o.optionId === chosen)?.kind ?? 'none';
      });
  }
  async function ask(api: TestApi, dir: string) {
    await sendLocalPrompt(id, `Run it: RUN64:${b64(`git init -q ${dir}`)}`);
    return waitFor('the request in the inbox', () => waiting(api)[0], 90_000);
  }

  it('shows the dry run and the covered waiting request; declined keeps and sends nothing; confirmed answers it once', async () => {
    const api = await getApi();
    for (const d of dirs.slice(0, 2)) {
      const item = await ask(api, d);
      const allow = item.request.options.find((o) => o.kind === 'allow_once')!;
      assert.deepEqual(await api.answer(item.id, allow.optionId), { kind: 'answered' });
      await waitFor('the turn to end', () => api.local.sessions().find((s) => s.id === id)?.status === 'idle', 60_000);
    }
    const third = await ask(api, dirs[2]);
    const answeredBefore = sent(api);
    assert.deepEqual(answeredBefore, ['allow_once', 'allow_once', 'none']);

    const declined = await api.local.gate.recommend(id, 'execute:git init*', false);
    assert.equal(declined.result?.kind, 'cancelled');
    const detail = declined.preview?.detail ?? '';
    assert.match(detail, /Now: \[\]\nAfter: \["execute:git init\*"\]/);
    assert.match(
      detail,
      /Dry run: it would have allowed \d+ past requests? in \d+ conversations?, none of which you rejected\./,
    );
    for (const d of dirs.slice(0, 2)) {
      assert.ok(detail.includes(`git init -q ${d}`), `the dry run lists ${d}:\n${detail}`);
    }
    assert.match(detail, /It would allow 1 waiting request now, answered when you confirm:/);
    assert.ok(detail.includes(`git init -q ${dirs[2]}`), detail);
    await new Promise((r) => setTimeout(r, 1000));
    assert.equal(vscode.workspace.getConfiguration('fountain.local').inspect('allow')?.globalValue, undefined);
    assert.deepEqual(sent(api), answeredBefore, 'nothing was sent');
    assert.ok(
      waiting(api).some((i) => i.id === third.id),
      'the request still waits',
    );

    const applied = await api.local.gate.recommend(id, 'execute:git init*', true);
    assert.equal(applied.result?.kind, 'applied');
    assert.deepEqual(vscode.workspace.getConfiguration('fountain.local').inspect('allow')?.globalValue, [
      'execute:git init*',
    ]);
    await waitFor(
      'the covered request to run',
      () => fs.existsSync(path.join(folder.uri.fsPath, dirs[2], '.git')),
      90_000,
    );
    assert.deepEqual(sent(api), ['allow_once', 'allow_once', 'allow_once'], 'one allow-once for it, no more');
    assert.equal(
      api.history().filter((h) => h.server === `local:${id}` && h.optionKind === 'allow_once').length,
      3,
      'recorded like any answer',
    );
  });
});
