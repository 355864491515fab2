// fountain.local.sandbox on a machine where the agent finds no bubblewrap, in the real extension host: the agents are
// started from an environment whose PATH holds the preset's command and Node but not /usr/bin (where bwrap is), so
// the product's own detection (src/local/sandbox/detect.ts, bwrap looked up on the agent's PATH) finds none.
// `required` refuses to start, with a message that says why and how to install it; `auto` starts the agent
// unsandboxed, warns once with the install command, and the session's tree group says "not sandboxed". The messages
// are read by wrapping vscode.window's show*Message functions (each still shows its message; nothing is answered).
// The `off` modal and the status bar item are clicked and read in the real workbench: test/ui/sandbox.test.ts.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { presetAgentMissing, presetBin, presetModelEnv, type FakeModel } from '../support/realAgents';
import { skipOrFail } from '../support/skipOrFail';
import { sendLocalPrompt, startLocalAgent } from './gestures';
import { b64, openItems, sessionGroup, startScriptedModel } from './realAgents';
import { getApi, stopLocalAgents, waitFor } from './support';

type Show = (message: string, ...rest: unknown[]) => Thenable<unknown>;

describe('fountain.local.sandbox without bubblewrap on the agent’s PATH', function () {
  this.timeout(180_000);
  const ws = vscode.workspace.workspaceFolders![0].uri.fsPath;
  const config = () => vscode.workspace.getConfiguration('fountain.local');
  let root = '';
  let model: FakeModel | undefined;
  const pids: number[] = [];
  const shown: { kind: 'error' | 'warning' | 'info'; message: string }[] = [];
  const window = vscode.window as unknown as Record<
    'showErrorMessage' | 'showWarningMessage' | 'showInformationMessage',
    Show
  >;
  const original = {
    error: window.showErrorMessage,
    warning: window.showWarningMessage,
    info: window.showInformationMessage,
  };

  before(async function () {
    const missing = presetAgentMissing('claude');
    if (missing) {
      skipOrFail(this, missing);
    }
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'fountain-int-sandbox-settings-'));
    const home = path.join(root, 'home');
    fs.mkdirSync(path.join(root, 'tmp'));
    model = await startScriptedModel();
    const PATH = [presetBin(root), path.dirname(process.execPath)].join(path.delimiter);
    assert.ok(
      PATH.split(path.delimiter).every((d) => !fs.existsSync(path.join(d, 'bwrap'))),
      `bwrap is on ${PATH}`,
    );
    const api = await getApi();
    api.local.useSourceEnv({
      PATH,
      HOME: home,
      TMPDIR: path.join(root, 'tmp'),
      LANG: 'C.UTF-8',
      ...presetModelEnv(home, model.baseUrl),
    });
    window.showErrorMessage = (message, ...rest) => {
      shown.push({ kind: 'error', message });
      return original.error.call(vscode.window, message, ...rest);
    };
    window.showWarningMessage = (message, ...rest) => {
      shown.push({ kind: 'warning', message });
      return original.warning.call(vscode.window, message, ...rest);
    };
    window.showInformationMessage = (message, ...rest) => {
      shown.push({ kind: 'info', message });
      return original.info.call(vscode.window, message, ...rest);
    };
  });
  after(async () => {
    window.showErrorMessage = original.error;
    window.showWarningMessage = original.warning;
    window.showInformationMessage = original.info;
    await config().update('sandbox', undefined, vscode.ConfigurationTarget.Global);
    const api = await getApi();
    api.local.useSourceEnv(undefined);
    await stopLocalAgents(pids, model);
    if (root) {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  it('"required": the agent is not started, and the error says why and how to install bubblewrap', async () => {
    await config().update('sandbox', 'required', vscode.ConfigurationTarget.Global);
    const api = await getApi();
    const before = api.local.sessions().length;
    const from = shown.length;
    const id = await startLocalAgent({ agent: 'preset:claude', folder: ws });
    assert.equal(id, undefined, 'it started');
    assert.equal(api.local.sessions().length, before, 'a session was listed');
    const error = await waitFor('the error', () => shown.slice(from).find((s) => s.kind === 'error'));
    assert.equal(
      error.message,
      'The local agent did not start: fountain.local.sandbox is "required" and no sandbox is available ' +
        "(bubblewrap (bwrap) is not on the agent's PATH). Install it with: sudo apt-get install bubblewrap",
    );
  });

  it('"auto": the agent starts unsandboxed, one warning gives the install command, and its tree group says so', async () => {
    await config().update('sandbox', 'auto', vscode.ConfigurationTarget.Global);
    const api = await getApi();
    const from = shown.length;
    const id = await startLocalAgent({ agent: 'preset:claude', folder: ws });
    assert.ok(id, 'it did not start');
    const pid = api.local.sessions().find((s) => s.id === id)!.pid!;
    pids.push(pid);
    const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    assert.doesNotMatch(cmdline[0], /(^|\/)bwrap$/, cmdline.join(' '));
    const warnings = shown.slice(from).filter((s) => s.kind === 'warning');
    assert.deepEqual(
      warnings.map((w) => w.message),
      [
        'Local agents run without a sandbox (bubblewrap not installed): they can read your secrets and write ' +
          'anywhere you can. Install it with: sudo apt-get install bubblewrap',
      ],
    );
    const row = await waitFor('the confinement row', () =>
      sessionGroup(api, id)?.children.find((c) => c.label.includes('sandbox')),
    );
    assert.equal(row.label, 'not sandboxed: bubblewrap not installed');
    // Every request toast of this session says where it runs, not only the warning at its start.
    const file = `outside-${Date.now()}.txt`;
    await sendLocalPrompt(id, `RUN64:${b64(`touch ${file}`)}`);
    const item = await waitFor('the request in the inbox', () => openItems(api, id)[0], 90_000).catch((e: Error) => {
      throw new Error(`${e.message}; transcript:\n${api.local.transcript(id)}`);
    });
    const toast = await waitFor(
      'its toast',
      () => shown.slice(from).find((s) => s.kind !== 'error' && s.message.includes(item.label.slice(0, 40)))?.message,
    ).catch((e: Error) => {
      throw new Error(`${e.message}; shown: ${JSON.stringify(shown.slice(from))}`);
    });
    assert.match(toast, / · runs outside any sandbox/, toast);
    await vscode.commands.executeCommand('fountain.local.stop', id);
  });
});
