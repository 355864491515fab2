// Local agents in the OS sandbox (issue 19), in the real extension host: the published claude-agent-acp started by
// Start Local Agent on the scripted loopback model, inside bubblewrap (fountain.local.sandbox "auto", the default).
// Its HOME is a throwaway folder under the test's temp root holding canary files; the prompts carry the command in
// base64url (`RUN64:`), which the scripted model turns into claude's Bash call, and each command writes what it saw
// into the workspace (writable inside) so the test reads it on the host.
//
// Safety: before any command runs, the test asserts that HOME is its own temp folder (never the machine's home) and
// that the agent's process is bubblewrap (its /proc command line). There is no guard `rm` on PATH: the sandbox is the
// guard for the yolo removal of the home.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import type { TestApi } from '../../src/extension';
import { writeQuietClaudeSettings, type FakeModel } from '../support/scriptedModel';
import { sendLocalPrompt, startLocalAgent } from './gestures';
import {
  b64,
  openItems as openOf,
  promptAndAnswer,
  sessionGroup,
  sh,
  startScriptedModel,
  turnEnded,
} from './realAgents';
import { getApi, stopLocalAgents, waitFor } from './support';
import { skipOrFail } from '../support/skipOrFail';

const ROOT = path.resolve(__dirname, '../../..');
const BIN = path.join(ROOT, 'test/runtime/acp-agents/node_modules/.bin');
const CLAUDE = path.join(BIN, 'claude-agent-acp');

describe('local agents in the OS sandbox (bubblewrap)', function () {
  this.timeout(240_000);
  const folder = vscode.workspace.workspaceFolders![0];
  const ws = folder.uri.fsPath;
  let root = '';
  let home = '';
  let model: FakeModel | undefined;
  let id = '';
  let pid = 0;
  const made: string[] = [];
  let gitConfigBefore = '';

  before(async function () {
    if (!fs.existsSync(CLAUDE)) {
      skipOrFail(this, 'claude-agent-acp is not installed: run `bash test/harness/setup-acp-agents.sh`');
    }
    if (!fs.existsSync('/usr/bin/bwrap')) {
      skipOrFail(
        this,
        'bubblewrap is not installed (apt-get install bubblewrap; test/harness/setup-vscode-runtime.sh installs it)',
      );
    }
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'fountain-int-sandbox-'));
    home = path.join(root, 'home');
    fs.mkdirSync(path.join(home, '.ssh'), { recursive: true });
    fs.writeFileSync(path.join(home, '.ssh/id_canary'), 'canary-secret\n');
    fs.writeFileSync(path.join(home, 'canary.txt'), 'still here\n');
    fs.mkdirSync(path.join(root, 'tmp'));
    // A workspace .git/config (removed afterwards): protected files are read-only when they exist at start.
    if (!fs.existsSync(path.join(ws, '.git'))) {
      fs.mkdirSync(path.join(ws, '.git'));
      made.push('.git');
    }
    if (!fs.existsSync(path.join(ws, '.git/config'))) {
      fs.writeFileSync(path.join(ws, '.git/config'), '[core]\n\tbare = false\n');
    }
    gitConfigBefore = fs.readFileSync(path.join(ws, '.git/config'), 'utf8');
    model = await startScriptedModel();
    const claudeDir = path.join(home, '.claude');
    writeQuietClaudeSettings(claudeDir);
    const api = await getApi();
    api.local.useSourceEnv({
      PATH: [BIN, path.dirname(process.execPath), '/usr/bin', '/bin'].join(path.delimiter),
      HOME: home,
      TMPDIR: path.join(root, 'tmp'),
      LANG: 'C.UTF-8',
      ANTHROPIC_BASE_URL: model.baseUrl,
      ANTHROPIC_API_KEY: 'sk-ant-fake-offline-key',
      CLAUDE_CONFIG_DIR: claudeDir,
    });
    const started = await startLocalAgent({
      agent: 'preset:claude',
      folder: ws,
    });
    assert.ok(started, 'claude did not start');
    id = started;
    pid = api.local.sessions().find((s) => s.id === id)!.pid!;
  });
  after(async () => {
    await stopLocalAgents(pid ? [pid] : [], model);
    for (const f of made) {
      fs.rmSync(path.join(ws, f), { recursive: true, force: true });
    }
    if (root) {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  const group = (api: TestApi) => sessionGroup(api, id);
  const openItems = (api: TestApi) => openOf(api, id);
  const fresh = (prefix: string) => {
    const name = `${prefix}-${randomUUID().slice(0, 8)}`;
    made.push(name);
    return name;
  };
  const idle = (api: TestApi) => turnEnded(api, id);

  /** Asks for `command` and allows it once (the user's answer); waits for the turn to end. */
  async function runAllowed(api: TestApi, command: string): Promise<void> {
    await promptAndAnswer(api, id, `RUN64:${b64(command)}`, 'allow_once');
  }

  it('runs the agent inside bubblewrap with a throwaway HOME, and its tree group says so', async () => {
    const api = await getApi();
    assert.ok(home.startsWith(fs.realpathSync(os.tmpdir())) || home.startsWith(os.tmpdir()), home);
    assert.notEqual(path.resolve(home), path.resolve(os.homedir()));
    assert.notEqual(path.resolve(home), path.resolve(os.userInfo().homedir));
    const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    assert.match(cmdline[0], /(^|\/)bwrap$/, cmdline.join(' '));
    assert.ok(cmdline.includes('--tmpfs') && cmdline.includes(home), 'the HOME is emptied');
    assert.ok(cmdline.includes('--die-with-parent') && cmdline.includes('--unshare-all'));
    assert.ok(cmdline.includes('--share-net'), 'network open: the host network is shared');
    const row = await waitFor('the sandbox row', () => group(api)?.children.find((c) => c.label.startsWith('sandbox')));
    // This tier runs local agents with fountain.local.network "open" (test/support/codeServer.ts).
    assert.equal(row.label, 'sandbox: workspace rw, home hidden, network open');
    assert.match(row.tooltip, /Network: the host's, not confined \(fountain\.local\.network is open\)/);
  });

  it('an allowed command cannot read ~/.ssh, write the home or /etc, or write .git/config; the workspace it can', async () => {
    const api = await getApi();
    const out = fresh('sandbox-out');
    const wrote = fresh('sandbox-wrote');
    const o = sh(path.join(ws, out));
    const command = [
      `cat ~/.ssh/id_canary > ${o} 2>&1`,
      `touch ~/x 2>> ${o}`,
      `touch /etc/fountain-sandbox-x 2>> ${o}`,
      `echo evil >> .git/config 2>> ${o}`,
      `echo ok > ${sh(path.join(ws, wrote))}`,
    ].join('; ');
    await runAllowed(api, command);
    const seen = await waitFor('the command output', () => {
      const t = fs.existsSync(path.join(ws, out)) ? fs.readFileSync(path.join(ws, out), 'utf8') : '';
      return t.split('\n').length >= 4 ? t : undefined;
    });
    assert.match(seen, /id_canary: No such file or directory/);
    assert.doesNotMatch(seen, /canary-secret/);
    assert.match(seen, /touch: cannot touch '.*\/x': Read-only file system/);
    assert.match(seen, /cannot touch '\/etc\/fountain-sandbox-x': Read-only file system/);
    assert.equal(fs.readFileSync(path.join(ws, wrote), 'utf8'), 'ok\n', 'the workspace write went through');
    assert.equal(fs.existsSync(path.join(home, 'x')), false);
    assert.equal(fs.existsSync('/etc/fountain-sandbox-x'), false);
    assert.equal(fs.readFileSync(path.join(ws, '.git/config'), 'utf8'), gitConfigBefore);
  });

  it('a request for a path outside the sandbox says so, with the allowPaths entry that would make it work', async () => {
    const api = await getApi();
    const target = path.join(home, 'notes', 'todo.md');
    await sendLocalPrompt(id, `WRITE64:${b64(target)}`);
    const item = await waitFor('the write request', () => openItems(api)[0], 90_000);
    const why = api.provenance(item.id);
    assert.match(why.full, /outside the sandbox: it will fail unless you add `~\/notes\/todo\.md`/);
    assert.match(why.full, /fountain\.local\.allowPaths .*and restart the agent/);
    assert.match((await why.toast) ?? '', /outside the sandbox/);
    const reject = item.request.options.find((o) => o.kind === 'reject_once')!;
    assert.deepEqual(await api.answer(item.id, reject.optionId), { kind: 'answered' });
    await idle(api);
  });

  it("yolo: the agent's own removal of its whole home (no guard rm) leaves the real folder's canary intact", async () => {
    const api = await getApi();
    // Again, before anything destructive: the sandbox is on and HOME is the test's own temp folder.
    assert.match(fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0], /(^|\/)bwrap$/);
    assert.ok(home.startsWith(root) && root.startsWith(os.tmpdir()) && root.length > os.tmpdir().length + 5);
    assert.deepEqual(await api.local.gate.setMode(id, 'yolo', true), { ok: true, mode: 'yolo' });
    const done = fresh('sandbox-rm-done');
    // Not `rm -rf ~` (the denylist refuses that even in yolo): the same removal of the agent's HOME by its absolute
    // path, which the gate reads completely and yolo allows (the denylist names the user's home, not this folder).
    const command = `rm -rf -- ${sh(home)} ; ls -A ${sh(home)} > ${sh(path.join(ws, done))} 2>&1`;
    const seen = api.local.statusLog(id).length;
    await sendLocalPrompt(id, `RUN64:${b64(command)}`);
    await waitFor('the yolo turn', () => api.local.statusLog(id).slice(seen).includes('running'), 30_000);
    await idle(api);
    assert.equal(openItems(api).length, 0, 'yolo ran it unasked');
    await waitFor('the command to have run', () => fs.existsSync(path.join(ws, done)), 10_000);
    assert.equal(fs.readFileSync(path.join(home, 'canary.txt'), 'utf8'), 'still here\n');
    assert.equal(fs.readFileSync(path.join(home, '.ssh/id_canary'), 'utf8'), 'canary-secret\n');
    assert.deepEqual(await api.local.gate.setMode(id, 'ask'), { ok: true, mode: 'ask' });
  });
});
