// Local ACP agents in the real extension host: the published claude-agent-acp (installed by
// test/harness/setup-acp-agents.sh) started from its preset by the Start Local Agent command, found on PATH, on the
// scripted loopback model (test/server/agents/real/fakeModel), started here in the extension host's own process.
// Workspace trust is disabled in this harness (code-server runs with --disable-workspace-trust), so the untrusted
// case runs the real Start command with the manager's trust check answering "untrusted" (the guard is the same code).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import { startFakeModel, writeQuietClaudeSettings, type FakeModel } from '../support/scriptedModel';
import { getApi, waitFor, groupAlive, stopLocalAgents } from './support';
import { skipOrFail } from '../support/skipOrFail';
import { sendLocalPrompt, startLocalAgent } from './gestures';

const ROOT = path.resolve(__dirname, '../../..');
const BIN = path.join(ROOT, 'test/runtime/acp-agents/node_modules/.bin');
const CLAUDE = path.join(BIN, 'claude-agent-acp');

describe('local agents in the extension host', function () {
  this.timeout(120_000);
  const folder = vscode.workspace.workspaceFolders![0];
  let root: string;
  let model: FakeModel | undefined;
  const pids: number[] = [];

  before(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'fountain-int-local-'));
    model = await startFakeModel();
    const api = await getApi();
    const home = path.join(root, 'home');
    const claudeDir = path.join(home, '.claude');
    fs.mkdirSync(claudeDir, { recursive: true });
    fs.mkdirSync(path.join(root, 'tmp'));
    writeQuietClaudeSettings(claudeDir); // no traffic beyond the loopback model
    // Only claude and gemini on PATH (the other presets are installed for other suites): one stays missing.
    const bin = path.join(root, 'bin');
    fs.mkdirSync(bin);
    for (const name of ['claude-agent-acp', 'gemini']) {
      fs.symlinkSync(path.join(BIN, name), path.join(bin, name));
    }
    api.local.useSourceEnv({
      PATH: [bin, path.dirname(process.execPath), '/usr/bin', '/bin'].join(path.delimiter),
      HOME: home,
      TMPDIR: path.join(root, 'tmp'),
      LANG: 'C.UTF-8',
      ANTHROPIC_BASE_URL: model.baseUrl,
      ANTHROPIC_API_KEY: 'sk-ant-fake-offline-key',
      CLAUDE_CONFIG_DIR: claudeDir,
    });
  });
  after(async () => {
    await stopLocalAgents(pids, model);
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('activation did not load the local agents bundles (dist/local.js, dist/localui.js)', async () => {
    const api = await getApi();
    assert.equal(api.local.bundleLoaded(), false);
    assert.equal(api.local.uiLoaded(), false, 'the local agents commands were loaded at activation');
    assert.deepEqual(api.local.sessions(), []);
  });

  it('in an untrusted workspace Start Local Agent refuses with the message and loads and spawns nothing', async () => {
    const api = await getApi();
    const r = await api.local.startUntrusted({ agent: 'preset:claude', folder: folder.uri.fsPath });
    assert.equal(r.result, undefined);
    assert.equal(r.refusals.length, 1);
    assert.match(r.refusals[0], /not started in an untrusted workspace/);
    assert.equal(r.loads, 0, 'src/local was loaded');
    assert.equal(r.sessions, 0);
    assert.equal(api.local.bundleLoaded(), false);
  });

  it('the claude preset starts in the folder, takes a prompt, shows it in the transcript, and Stop ends its group', async function () {
    if (!fs.existsSync(CLAUDE)) {
      skipOrFail(this, 'claude-agent-acp is not installed: run `bash test/harness/setup-acp-agents.sh`');
    }
    const api = await getApi();
    const id = await startLocalAgent({
      agent: 'preset:claude',
      folder: folder.uri.fsPath,
    });
    assert.ok(id, 'Start Local Agent returned no session');
    assert.equal(api.local.bundleLoaded(), true);
    const listed = api.local.sessions().find((s) => s.id === id);
    assert.ok(listed?.pid, 'the session is listed with its process group');
    pids.push(listed.pid);
    assert.equal(listed.agentName, 'Claude Code (claude-agent-acp)');
    assert.equal(listed.folder, folder.name);
    assert.equal(listed.status, 'idle');

    await vscode.commands.executeCommand('fountain.local.showTranscript', id);
    const file = `local-int-${randomUUID().slice(0, 8)}.txt`;
    // A prompt of two lines, composed in a draft editor and sent from it (Send Prompt with the draft active).
    await api.local.openDraft(id);
    const draft = vscode.window.activeTextEditor!;
    assert.equal(draft.document.isUntitled, true);
    await draft.edit((e) =>
      e.insert(new vscode.Position(0, 0), `Please create file ${file} containing from the editor.\nSecond line.`),
    );
    await vscode.commands.executeCommand('fountain.local.sendPrompt');
    await waitFor(
      'the draft editor closed after sending',
      () => !vscode.window.visibleTextEditors.some((e) => e.document === draft.document),
      10_000,
    );

    // The agent asks for the command: nobody answers here (asks reach the inbox later), so it waits.
    await waitFor(
      'the session waiting on its permission request',
      () => api.local.sessions()[0]?.status === 'waiting',
      60_000,
    );
    assert.deepEqual(api.local.statusLog(id), ['idle', 'running', 'waiting']);
    assert.ok(
      model!.requests.some((r) => r.kind === 'main' && r.toolCall?.name === 'Bash'),
      `the prompt reached the model through the agent: ${JSON.stringify(model!.requests)}`,
    );
    const doc = await waitFor(
      'the transcript document showing the prompt and the tool call',
      () =>
        vscode.workspace.textDocuments.find(
          (d) => d.uri.scheme === 'fountain-transcript' && d.getText().includes(file) && d.getText().includes('[tool'),
        ),
      30_000,
    );
    assert.equal(doc.languageId, 'fountain-request', 'plain text with editor links off');
    assert.match(doc.getText(), /^> You\n {4}Please create file \S+ containing from the editor\.\n {4}Second line\.$/m);

    await vscode.commands.executeCommand('fountain.local.stop', id);
    assert.deepEqual(api.local.sessions(), [], 'the stopped session left the list');
    assert.equal(groupAlive(listed.pid), false, 'a process of the agent group is still alive');
    assert.equal(fs.existsSync(path.join(folder.uri.fsPath, file)), false, 'nothing was allowed, nothing ran');
    // The transcript keeps its last text after the session is gone.
    assert.match(doc.getText(), /Please create file/);
  });

  it('an agent from the fountain.localAgents user setting starts with its own policy: execute auto_deny sends the reject, nothing asked', async function () {
    if (!fs.existsSync(CLAUDE)) {
      skipOrFail(this, 'claude-agent-acp is not installed: run `bash test/harness/setup-acp-agents.sh`');
    }
    const api = await getApi();
    const config = vscode.workspace.getConfiguration('fountain');
    const name = 'Claude, no commands';
    await config.update(
      'localAgents',
      [
        {
          name,
          command: 'claude-agent-acp',
          runtime: 'claude',
          env: ['ANTHROPIC_BASE_URL', 'ANTHROPIC_API_KEY', 'CLAUDE_CONFIG_DIR'],
          policy: { execute: 'auto_deny', default: 'ask' },
        },
      ],
      vscode.ConfigurationTarget.Global,
    );
    try {
      const id = await startLocalAgent({
        agent: `config:${name}`,
        folder: folder.uri.fsPath,
      });
      assert.ok(id, 'the configured agent did not start');
      const s = api.local.sessions().find((x) => x.id === id)!;
      assert.equal(s.agentName, name);
      pids.push(s.pid!);
      const file = `local-deny-${randomUUID().slice(0, 8)}.txt`;
      await sendLocalPrompt(id, `Please create file ${file} containing no.`);
      await waitFor(
        'the policy decision in the transcript',
        () => /permission for .*: auto_deny \(gate, policy\), sent reject/.test(api.local.transcript(id)),
        60_000,
      );
      assert.ok(!api.local.statusLog(id).includes('waiting'), 'auto_deny asked the user');
      assert.equal(fs.existsSync(path.join(folder.uri.fsPath, file)), false);
      await vscode.commands.executeCommand('fountain.local.stop', id);
      assert.equal(groupAlive(s.pid!), false);
    } finally {
      await config.update('localAgents', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('Start Local Agent offers the presets with an install hint for a missing one, and a workspace settings file cannot add an agent', async function () {
    if (!fs.existsSync(CLAUDE)) {
      skipOrFail(this, 'claude-agent-acp is not installed: run `bash test/harness/setup-acp-agents.sh`');
    }
    const api = await getApi();
    const wsSettings = path.join(folder.uri.fsPath, '.vscode', 'settings.json');
    assert.equal(fs.existsSync(wsSettings), false, 'the fixture folder has no workspace settings of its own');
    fs.mkdirSync(path.dirname(wsSettings), { recursive: true });
    const workspaceAgent = {
      name: 'From the workspace',
      command: 'claude-agent-acp',
      policy: { default: 'auto_allow' },
    };
    fs.writeFileSync(wsSettings, JSON.stringify({ 'editor.tabSize': 7, 'fountain.localAgents': [workspaceAgent] }));
    try {
      // The editor read the file (a workspace-scoped setting from it applies) ...
      await waitFor(
        'the workspace settings file to be read',
        () => vscode.workspace.getConfiguration('editor', folder.uri).get('tabSize') === 7,
        20_000,
      );
      const choices = await api.local.choices();
      assert.deepEqual(
        choices.map((c) => c.id),
        ['preset:claude', 'preset:gemini', 'preset:codex', 'preset:opencode', 'preset:qwen'],
        '... but its fountain.localAgents entry is not offered',
      );
      assert.equal(choices.find((c) => c.id === 'preset:claude')?.missing, undefined, 'claude is on PATH');
      assert.match(
        choices.find((c) => c.id === 'preset:codex')?.missing ?? '',
        /Install it with: npm install -g @zed-industries\/codex-acp/,
      );
      // Not an agent on offer: no confirmation, nothing started.
      const id = await vscode.commands.executeCommand<string | undefined>('fountain.local.start', {
        agent: 'config:From the workspace',
        folder: folder.uri.fsPath,
      });
      assert.equal(id, undefined);
      assert.ok(!api.local.sessions().some((s) => s.agentName === workspaceAgent.name));
    } finally {
      fs.rmSync(path.dirname(wsSettings), { recursive: true, force: true });
    }
  });

  it('an agent killed from outside is marked exited and Restart Agent starts a fresh process in its row', async function () {
    if (!fs.existsSync(CLAUDE)) {
      skipOrFail(this, 'claude-agent-acp is not installed: run `bash test/harness/setup-acp-agents.sh`');
    }
    const api = await getApi();
    const id = await startLocalAgent({
      agent: 'preset:claude',
      folder: folder.uri.fsPath,
    });
    assert.ok(id);
    const first = api.local.sessions().find((s) => s.id === id)!;
    pids.push(first.pid!);
    process.kill(-first.pid!, 'SIGKILL');
    await waitFor(
      'the session marked exited',
      () => api.local.sessions().find((s) => s.id === id)?.status === 'exited',
      30_000,
    );

    await vscode.commands.executeCommand('fountain.local.restart', id);
    const second = api.local.sessions().find((s) => s.id === id);
    assert.equal(second?.status, 'idle');
    assert.ok(second.pid && second.pid !== first.pid, 'a new agent process');
    pids.push(second.pid);
    await vscode.commands.executeCommand('fountain.local.stop', id);
    assert.equal(groupAlive(second.pid), false);
    assert.equal(groupAlive(first.pid!), false);
  });
});
