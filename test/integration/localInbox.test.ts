// Local agents' requests in the inbox, in the real extension host: the published claude-agent-acp and Gemini CLI
// (test/harness/setup-acp-agents.sh) started by Start Local Agent on the scripted loopback model. A request reaches
// the inbox with the agent's own option ids; the answer goes through the same flow as a tree or toast click; the
// JSON-RPC lines between us and the agent (the wire tap) show exactly what was sent.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import type { InboxItem } from '../../src/domain/inbox';
import type { TestApi } from '../../src/extension';
import { startFakeModel, writeQuietClaudeSettings, type FakeModel } from '../support/scriptedModel';
import { getApi, waitFor, groupAlive, type RpcMessage, stopLocalAgents } from './support';
import { skipOrFail } from '../support/skipOrFail';
import { sendLocalPrompt, startLocalAgent } from './gestures';

const ROOT = path.resolve(__dirname, '../../..');
const BIN = path.join(ROOT, 'test/runtime/acp-agents/node_modules/.bin');
const CLAUDE = path.join(BIN, 'claude-agent-acp');
const GEMINI = path.join(BIN, 'gemini');
const CLAUDE_NAME = 'Claude Code (claude-agent-acp)';

/** The agent's session/request_permission for the item's tool call, and what we answered it (if anything). */
function wireOf(api: TestApi, item: InboxItem): { request: RpcMessage; response?: RpcMessage } {
  // JSON-RPC ids and the scripted model's tool call ids repeat across sessions: only this item's session counts.
  const lines = api.local
    .wire()
    .filter((l) => l.session === item.key.conversationId)
    .map((l) => ({ direction: l.direction, m: l.message as RpcMessage }));
  const request = lines.find(
    (l) =>
      l.direction === 'in' &&
      l.m.method === 'session/request_permission' &&
      l.m.params?.toolCall?.toolCallId === item.request.toolCallId,
  )?.m;
  assert.ok(request, `no session/request_permission on the wire for ${item.request.toolCallId}`);
  const response = lines.find(
    (l) => l.direction === 'out' && l.m.method === undefined && JSON.stringify(l.m.id) === JSON.stringify(request.id),
  )?.m;
  return { request, response };
}

describe('local agents in the inbox', function () {
  this.timeout(180_000);
  const folder = vscode.workspace.workspaceFolders![0];
  let root: string;
  let model: FakeModel | undefined;
  const pids: number[] = [];
  /** Files the prompts ask for: removed after the suite whatever happened. */
  const files: string[] = [];

  before(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'fountain-int-localinbox-'));
    model = await startFakeModel();
    const api = await getApi();
    const home = path.join(root, 'home');
    const claudeDir = path.join(home, '.claude');
    fs.mkdirSync(claudeDir, { recursive: true });
    fs.mkdirSync(path.join(home, '.gemini'), { recursive: true });
    fs.mkdirSync(path.join(root, 'tmp'));
    writeQuietClaudeSettings(claudeDir); // no traffic beyond the loopback model
    fs.writeFileSync(
      path.join(home, '.gemini', 'settings.json'),
      JSON.stringify({
        privacy: { usageStatisticsEnabled: false },
        telemetry: { enabled: false },
        general: { disableAutoUpdate: true, disableUpdateNag: true },
      }),
    );
    api.local.useSourceEnv({
      PATH: [BIN, path.dirname(process.execPath), '/usr/bin', '/bin'].join(path.delimiter),
      HOME: home,
      TMPDIR: path.join(root, 'tmp'),
      LANG: 'C.UTF-8',
      ANTHROPIC_BASE_URL: model.baseUrl,
      ANTHROPIC_API_KEY: 'sk-ant-fake-offline-key',
      CLAUDE_CONFIG_DIR: claudeDir,
      GOOGLE_GEMINI_BASE_URL: model.baseUrl,
      GEMINI_API_KEY: 'fake-offline-gemini-key',
      GEMINI_CLI_NO_RELAUNCH: 'true',
    });
    api.local.wire(); // starts the tap for the agents started from here on
  });
  after(async () => {
    await stopLocalAgents(pids, model);
    for (const f of files) {
      fs.rmSync(path.join(folder.uri.fsPath, f), { force: true });
    }
    fs.rmSync(root, { recursive: true, force: true });
  });

  async function start(agent: string): Promise<{ api: TestApi; id: string; pid: number }> {
    const api = await getApi();
    const id = await startLocalAgent({
      agent,
      folder: folder.uri.fsPath,
    });
    assert.ok(id, `${agent} did not start`);
    const pid = api.local.sessions().find((s) => s.id === id)!.pid!;
    pids.push(pid);
    return { api, id, pid };
  }

  /** Sends a prompt that makes the model run a command creating `file`; resolves with the request in the inbox. */
  async function ask(api: TestApi, id: string, file: string): Promise<InboxItem> {
    files.push(file);
    await sendLocalPrompt(id, `Please create file ${file} containing ok.`);
    return waitFor(
      'the local request in the inbox',
      () => api.items().find((i) => i.key.server === `local:${id}` && i.pending),
      90_000,
    );
  }

  const idle = (api: TestApi, id: string) =>
    waitFor('the turn to end', () => api.local.sessions().find((s) => s.id === id)?.status === 'idle', 60_000);

  it('claude: the request reaches the inbox with its option ids; Allow runs the command and the response carried that optionId; Reject runs nothing', async function () {
    if (!fs.existsSync(CLAUDE)) {
      skipOrFail(this, 'claude-agent-acp is not installed: run `bash test/harness/setup-acp-agents.sh`');
    }
    const { api, id, pid } = await start('preset:claude');
    const key = JSON.stringify([`local:${id}`, id]);
    const group = () => api.tree().find((g) => g.key === key);
    assert.equal(group()?.label, `Local · ${CLAUDE_NAME} · ${folder.name}`);
    assert.match(
      group()?.description ?? '',
      /^idle · nothing waiting · mode ask$/,
      'the session is a group while idle',
    );

    const file = `local-allow-${randomUUID().slice(0, 8)}.txt`;
    const item = await ask(api, id, file);
    const { request } = wireOf(api, item);
    assert.deepEqual(
      item.request.options.map((o) => o.optionId),
      request.params!.options!.map((o) => o.optionId),
      "the inbox offers exactly claude's option ids",
    );
    assert.equal(item.request.kind, 'execute');
    assert.equal(item.conversation.title, `Local · ${CLAUDE_NAME} · ${folder.name}`);
    await waitFor(
      'the group showing waiting',
      () => /^waiting · 1 waiting · mode ask$/.test(group()?.description ?? ''),
      5000,
    );
    const row = group()!.children.find((c) => c.tooltip.includes(item.label))!;
    assert.ok(row, 'the request is a row of the local group');
    assert.match(
      row.tooltip,
      new RegExp(`asked by "default" in the local policy of ${CLAUDE_NAME.replace(/[()]/g, '\\$&')}`),
    );
    assert.equal(api.provenance(item.id).full, `asked by "default" in the local policy of ${CLAUDE_NAME}`);
    assert.match(api.detailsText(item.id), /local policy of Claude Code/);

    const allow = item.request.options.find((o) => o.kind === 'allow_once')!;
    assert.deepEqual(await api.answer(item.id, allow.optionId), { kind: 'answered' });
    await waitFor(
      'the file the allowed command writes',
      () => fs.existsSync(path.join(folder.uri.fsPath, file)),
      60_000,
    );
    assert.deepEqual(wireOf(api, item).response?.result?.outcome, { outcome: 'selected', optionId: allow.optionId });
    assert.equal(api.items().find((i) => i.id === item.id)?.state.kind, 'answeredByYou');
    await idle(api, id);
    fs.rmSync(path.join(folder.uri.fsPath, file), { force: true });

    const denied = `local-reject-${randomUUID().slice(0, 8)}.txt`;
    const second = await ask(api, id, denied);
    const reject = second.request.options.find((o) => o.kind === 'reject_once')!;
    assert.deepEqual(await api.answer(second.id, reject.optionId), { kind: 'answered' });
    await idle(api, id);
    assert.deepEqual(wireOf(api, second).response?.result?.outcome, { outcome: 'selected', optionId: reject.optionId });
    assert.equal(fs.existsSync(path.join(folder.uri.fsPath, denied)), false, 'the rejected command ran');
    await vscode.commands.executeCommand('fountain.local.stop', id);
    assert.equal(groupAlive(pid), false);
  });

  it('gemini: the same round trip with its own option ids', async function () {
    if (!fs.existsSync(GEMINI)) {
      skipOrFail(this, 'gemini is not installed: run `bash test/harness/setup-acp-agents.sh`');
    }
    const { api, id, pid } = await start('preset:gemini');
    const file = `local-gemini-${randomUUID().slice(0, 8)}.txt`;
    const item = await ask(api, id, file);
    const { request } = wireOf(api, item);
    const ids = item.request.options.map((o) => o.optionId);
    assert.deepEqual(
      ids,
      request.params!.options!.map((o) => o.optionId),
    );
    assert.ok(!ids.includes('allow'), `gemini's own ids, not claude's: ${ids.join(', ')}`);
    assert.equal(item.conversation.title, `Local · Gemini CLI · ${folder.name}`);
    const allow = item.request.options.find((o) => o.kind === 'allow_once')!;
    assert.deepEqual(await api.answer(item.id, allow.optionId), { kind: 'answered' });
    await waitFor(
      'the file the allowed command writes',
      () => fs.existsSync(path.join(folder.uri.fsPath, file)),
      60_000,
    );
    assert.deepEqual(wireOf(api, item).response?.result?.outcome, { outcome: 'selected', optionId: allow.optionId });
    fs.rmSync(path.join(folder.uri.fsPath, file), { force: true });
    await vscode.commands.executeCommand('fountain.local.stop', id);
    assert.equal(groupAlive(pid), false);
  });

  it('a short ask timeout sends the first reject option and the item shows expired; provenance names the kind key', async function () {
    if (!fs.existsSync(CLAUDE)) {
      skipOrFail(this, 'claude-agent-acp is not installed: run `bash test/harness/setup-acp-agents.sh`');
    }
    const config = vscode.workspace.getConfiguration('fountain');
    const name = 'Claude, quick asks';
    await config.update(
      'localAgents',
      [
        {
          name,
          command: 'claude-agent-acp',
          runtime: 'claude',
          env: ['ANTHROPIC_BASE_URL', 'ANTHROPIC_API_KEY', 'CLAUDE_CONFIG_DIR'],
          policy: { execute: 'ask', default: 'auto_deny', ask_timeout: 3 },
        },
      ],
      vscode.ConfigurationTarget.Global,
    );
    try {
      const { api, id, pid } = await start(`config:${name}`);
      const file = `local-timeout-${randomUUID().slice(0, 8)}.txt`;
      const item = await ask(api, id, file);
      assert.equal(api.provenance(item.id).full, `asked by kind "execute" in the local policy of ${name}`);
      assert.equal(await api.provenance(item.id).toast, `asked by kind "execute" in the local policy of ${name}`);
      const firstReject = item.request.options.find((o) => o.kind.startsWith('reject_'))!;
      const expired = await waitFor(
        'the item expired with the reject option sent',
        () => {
          const s = api.items().find((i) => i.id === item.id)?.state;
          return s?.kind === 'expired' && s.optionId === firstReject.optionId ? s : undefined;
        },
        30_000,
      );
      assert.equal(expired.source, 'server');
      assert.deepEqual(wireOf(api, item).response?.result?.outcome, {
        outcome: 'selected',
        optionId: firstReject.optionId,
      });
      const row = api
        .tree()
        .flatMap((g) => g.children)
        .find((c) => c.tooltip.includes(item.label));
      assert.match(row?.description ?? '', /expired/);
      await idle(api, id);
      assert.equal(fs.existsSync(path.join(folder.uri.fsPath, file)), false);
      await vscode.commands.executeCommand('fountain.local.stop', id);
      assert.equal(groupAlive(pid), false);
    } finally {
      await config.update('localAgents', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('Stop with a request open sends cancelled and the item closes', async function () {
    if (!fs.existsSync(CLAUDE)) {
      skipOrFail(this, 'claude-agent-acp is not installed: run `bash test/harness/setup-acp-agents.sh`');
    }
    const { api, id, pid } = await start('preset:claude');
    const file = `local-stop-${randomUUID().slice(0, 8)}.txt`;
    const item = await ask(api, id, file);
    await vscode.commands.executeCommand('fountain.local.stop', id);
    assert.deepEqual(wireOf(api, item).response?.result?.outcome, { outcome: 'cancelled' });
    const after = api.items().find((i) => i.id === item.id);
    assert.equal(after?.pending, false);
    assert.equal(after?.state.kind, 'turnEnded');
    assert.equal(groupAlive(pid), false);
    assert.equal(fs.existsSync(path.join(folder.uri.fsPath, file)), false);
  });

  it('the agent killed from outside: the item shows "agent exited", nothing was sent, no process is left', async function () {
    if (!fs.existsSync(CLAUDE)) {
      skipOrFail(this, 'claude-agent-acp is not installed: run `bash test/harness/setup-acp-agents.sh`');
    }
    const { api, id, pid } = await start('preset:claude');
    const file = `local-kill-${randomUUID().slice(0, 8)}.txt`;
    const item = await ask(api, id, file);
    process.kill(-pid, 'SIGKILL');
    await waitFor(
      'the item closed as agent exited',
      () => api.items().find((i) => i.id === item.id)?.state.kind === 'conversationEnded',
      30_000,
    );
    const state = api.items().find((i) => i.id === item.id)!.state;
    assert.equal(state.kind === 'conversationEnded' && state.reason, 'agent_exited');
    await waitFor(
      'the tree row saying agent exited',
      () =>
        api
          .tree()
          .flatMap((g) => g.children)
          .find((c) => c.tooltip.includes(item.label) && /agent exited/.test(c.description)),
      5000,
    );
    assert.equal(wireOf(api, item).response, undefined, 'something was sent to the killed agent');
    const group = api.tree().find((g) => g.children.some((c) => c.tooltip.includes(item.label)));
    assert.match(group?.description ?? '', /^exited · nothing waiting · mode ask$/);
    // The group is gone once the killed processes are reaped (the request closed when the agent's output ended).
    await waitFor('no process of the agent left', () => !groupAlive(pid), 10_000);
    await vscode.commands.executeCommand('fountain.local.stop', id);
  });
});
