// Runs after localAgents.test.ts (files load in name order): that suite checks that activation loaded no local bundle.
// Start Local Agent, a mode change that allows more, and Send Prompt act only on a user gesture: called with
// arguments alone (what a keybinding, a `command:` link or another extension can do) they show their prompt with the
// argument preselected or prefilled, and nothing happens until the user accepts it. The prompts are the real ones,
// answered with the workbench's Enter and Escape commands (test/integration/gestures.ts). Real effects are read from
// the process list (agent processes with this suite's HOME), the agent's JSON-RPC wire and its transcript.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { startFakeModel, writeQuietClaudeSettings, type FakeModel } from '../support/scriptedModel';
import { answerGesture } from './gestures';
import { getApi, stopLocalAgents, waitFor, type RpcMessage } from './support';
import { skipOrFail } from '../support/skipOrFail';

const ROOT = path.resolve(__dirname, '../../..');
const BIN = path.join(ROOT, 'test/runtime/acp-agents/node_modules/.bin');
const CLAUDE = path.join(BIN, 'claude-agent-acp');

/** Pids of live processes whose environment has HOME=`home` (the agents this suite started, and their children). */
function processesWithHome(home: string): number[] {
  const out: number[] = [];
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) {
      continue;
    }
    try {
      const env = fs.readFileSync(`/proc/${d}/environ`, 'utf8').split('\0');
      if (env.includes(`HOME=${home}`)) {
        out.push(Number(d));
      }
    } catch {
      // gone, or not ours to read
    }
  }
  return out;
}

describe('local commands act on a user gesture, never on arguments alone', function () {
  this.timeout(120_000);
  const folder = vscode.workspace.workspaceFolders![0];
  let root: string;
  let home: string;
  let model: FakeModel | undefined;
  let id = '';
  const pids: number[] = [];
  const args = () => ({ agent: 'preset:claude', folder: folder.uri.fsPath });
  const outgoing = (method: string) =>
    getApi().then((api) =>
      api.local
        .wire()
        .filter((l) => l.session === id && l.direction === 'out' && (l.message as RpcMessage).method === method),
    );

  before(async function () {
    if (!fs.existsSync(CLAUDE)) {
      skipOrFail(this, 'claude-agent-acp is not installed: run `bash test/harness/setup-acp-agents.sh`');
    }
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'fountain-int-gestures-'));
    home = path.join(root, 'home');
    model = await startFakeModel();
    const api = await getApi();
    fs.mkdirSync(path.join(root, 'tmp'));
    writeQuietClaudeSettings(path.join(home, '.claude'));
    api.local.useSourceEnv({
      PATH: [BIN, path.dirname(process.execPath), '/usr/bin', '/bin'].join(path.delimiter),
      HOME: home,
      TMPDIR: path.join(root, 'tmp'),
      LANG: 'C.UTF-8',
      ANTHROPIC_BASE_URL: model.baseUrl,
      ANTHROPIC_API_KEY: 'sk-ant-fake-offline-key',
      CLAUDE_CONFIG_DIR: path.join(home, '.claude'),
    });
    api.local.wire(); // the tap, for every agent started from here on
  });
  after(async () => {
    await stopLocalAgents(pids, model);
    if (root) {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  it('Start Local Agent with arguments shows a confirmation naming the agent and folder; Escape starts nothing, Enter starts it', async () => {
    const api = await getApi();
    // Earlier suites' sessions and wire lines stay listed: only what this test adds counts.
    const sessionsBefore = api.local.sessions().length;
    const wireBefore = api.local.wire().length;
    const nothingStarted = () => {
      assert.deepEqual(api.local.sessions().slice(sessionsBefore), [], 'no session');
      assert.deepEqual(processesWithHome(home), [], 'no agent process');
      assert.deepEqual(api.local.wire().slice(wireBefore), [], 'nothing on any agent wire');
    };
    const refused = await answerGesture(
      'start',
      () => vscode.commands.executeCommand<string | undefined>('fountain.local.start', args()),
      'escape',
      undefined,
      nothingStarted,
    );
    assert.equal(refused.result, undefined);
    assert.equal(refused.shown.title, 'Start Local Agent');
    assert.deepEqual(refused.shown.items, [
      `Start Claude Code (claude-agent-acp) in ${folder.name}`,
      'Choose another agent…',
    ]);
    assert.equal(refused.shown.active, refused.shown.items[0], 'the argument preselects the agent');
    nothingStarted();

    const started = await answerGesture(
      'start',
      () => vscode.commands.executeCommand<string | undefined>('fountain.local.start', args()),
      'enter',
      (label) => label.startsWith('Start Claude Code'),
    );
    assert.ok(started.result, 'Enter on the confirmation started no session');
    id = started.result;
    const listed = api.local.sessions().find((s) => s.id === id);
    assert.ok(listed?.pid);
    pids.push(listed.pid);
    assert.ok(processesWithHome(home).includes(listed.pid), 'the agent process runs');
    const initialize = api.local
      .wire()
      .slice(wireBefore)
      .filter((l) => l.direction === 'out' && (l.message as RpcMessage).method === 'initialize');
    assert.equal(initialize.length, 1, 'one agent was initialized over the wire');
  });

  it('Change Local Agent Mode to a mode that allows more only preselects it; Escape keeps the mode, Enter changes it; narrowing applies at once', async () => {
    assert.ok(id, 'the previous test started the agent');
    const api = await getApi();
    const mode = () => api.local.gate.state(id)?.mode;
    const modeLines = () => api.local.gate.logLines().filter((l) => /gate mode: /.test(l)).length;
    const setModes = (await outgoing('session/set_mode')).length;
    const lines = modeLines();
    assert.equal(mode(), 'ask');
    for (const wider of ['acceptEdits', 'allow', 'yolo'] as const) {
      const r = await answerGesture(
        'mode',
        () => vscode.commands.executeCommand('fountain.local.changeMode', id, wider),
        'escape',
        (label) => label === wider,
      );
      assert.equal(r.result, undefined, `${wider}: nothing changed`);
      assert.equal(r.shown.active, wider, 'the argument is preselected');
      assert.equal(mode(), 'ask', `${wider} was applied without the pick being accepted`);
    }
    assert.equal(modeLines(), lines, 'no mode change in the log');
    assert.equal((await outgoing('session/set_mode')).length, setModes, 'no mode sent to the agent');

    const accepted = await answerGesture(
      'mode',
      () => vscode.commands.executeCommand('fountain.local.changeMode', id, 'acceptEdits'),
      'enter',
      (label) => label === 'acceptEdits',
    );
    assert.deepEqual(accepted.result, { ok: true, mode: 'acceptEdits' });
    assert.equal(mode(), 'acceptEdits');
    await waitFor('the mode change in the log', () => modeLines() > lines);

    // Narrowing needs no gesture: no prompt is shown and the mode changes.
    const shown = api.local.gestureCount();
    assert.deepEqual(await vscode.commands.executeCommand('fountain.local.changeMode', id, 'ask'), {
      ok: true,
      mode: 'ask',
    });
    assert.equal(mode(), 'ask');
    assert.equal(api.local.gestureCount(), shown, 'a narrowing change showed a prompt');
  });

  it('Send Prompt with a text only prefills the input box (a draft for several lines); Escape sends nothing, Enter sends it', async () => {
    assert.ok(id, 'the first test started the agent');
    const api = await getApi();
    const text = 'Say hello, gesture test.';
    const prompts = async () => (await outgoing('session/prompt')).length;
    const before = await prompts();
    const turns = model!.requests.filter((r) => r.kind === 'main').length;
    const dismissed = await answerGesture(
      'prompt',
      () => vscode.commands.executeCommand('fountain.local.sendPrompt', id, text),
      'escape',
    );
    assert.equal(dismissed.shown.value, text, 'the argument prefills the input box');
    assert.equal(await prompts(), before, 'no session/prompt went to the agent');
    assert.equal(model!.requests.filter((r) => r.kind === 'main').length, turns, 'the model saw no turn');
    assert.ok(!api.local.transcript(id).includes(text), 'nothing in the transcript');
    assert.ok(!api.local.statusLog(id).includes('running'), 'no turn ran');

    // Several lines: a draft with the text opens; nothing is sent until its Send Prompt.
    await vscode.commands.executeCommand('fountain.local.sendPrompt', id, 'First line.\nSecond line.');
    const draft = await waitFor('the prefilled draft', () =>
      vscode.window.activeTextEditor?.document.getText() === 'First line.\nSecond line.'
        ? vscode.window.activeTextEditor
        : undefined,
    );
    assert.equal(await prompts(), before, 'the draft sent nothing');
    await vscode.commands.executeCommand('fountain.local.sendPrompt', vscode.Uri.parse('untitled:Untitled-999'));
    assert.equal(await prompts(), before, 'a URI that is not the active draft sends nothing');
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    assert.ok(draft.document.isClosed || !vscode.window.visibleTextEditors.includes(draft));
    assert.equal(await prompts(), before);

    const sent = await answerGesture(
      'prompt',
      () => vscode.commands.executeCommand('fountain.local.sendPrompt', id, text),
      'enter',
    );
    assert.equal(sent.shown.value, text);
    await waitFor('the prompt on the wire', async () => (await prompts()) === before + 1);
    await waitFor('the prompt in the transcript', () => api.local.transcript(id).includes(text), 30_000);
    await waitFor('the turn to end', () => api.local.sessions().find((s) => s.id === id)?.status === 'idle', 60_000);
  });
});
