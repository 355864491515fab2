// Every preset's agent inside the OS sandbox (issue 19), in the real extension host: gemini, codex-acp, opencode
// and qwen-code (claude has its own suite, sandbox.test.ts), each started by Start Local Agent from its preset with
// fountain.local.sandbox at its default ("auto"), on the scripted loopback model, with a throwaway HOME. Each must
// start inside bubblewrap, answer a prompt, run a command the user allowed (which writes into the workspace and into
// the agent's own state folder), and write a file in the workspace with its own tool; what it wrote into its state
// folder is on the real disk afterwards (what the next session mounts again: a sign-in is kept).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import { presetAgentMissing, type FakeModel, type PresetAgent } from '../support/realAgents';
import { skipOrFail } from '../support/skipOrFail';
import { startLocalAgent } from './gestures';
import { b64, presetSourceEnv, promptAndAnswer, sessionGroup, sh, startScriptedModel, WRITTEN } from './realAgents';
import { getApi, stopLocalAgents, waitFor } from './support';

const FINAL = 'FINAL-ANSWER-from-the-scripted-model';

/** Each preset's own state folder, under HOME (the sandbox mounts it writable: src/local/sandbox/paths.ts). */
const STATE: Readonly<Record<Exclude<PresetAgent, 'claude'>, string>> = {
  gemini: '.gemini',
  codex: '.codex',
  opencode: '.local/share/opencode',
  qwen: '.qwen',
};

/** Every file under `dir` (relative paths). */
function filesUnder(dir: string): Set<string> {
  const out = new Set<string>();
  const walk = (d: string) => {
    for (const e of fs.existsSync(d) ? fs.readdirSync(d, { withFileTypes: true }) : []) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) {
        walk(p);
      } else {
        out.add(path.relative(dir, p));
      }
    }
  };
  walk(dir);
  return out;
}

describe('every preset inside the OS sandbox (bubblewrap, real agents)', function () {
  this.timeout(300_000);
  const ws = vscode.workspace.workspaceFolders![0].uri.fsPath;
  let root = '';
  let home = '';
  let model: FakeModel | undefined;
  const pids: number[] = [];
  const made: string[] = [];

  before(async function () {
    if (!fs.existsSync('/usr/bin/bwrap')) {
      skipOrFail(
        this,
        'bubblewrap is not installed (apt-get install bubblewrap; test/harness/setup-vscode-runtime.sh installs it)',
      );
    }
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'fountain-int-sandbox-presets-'));
    home = path.join(root, 'home');
    model = await startScriptedModel(FINAL);
    const api = await getApi();
    api.local.useSourceEnv(presetSourceEnv(root, model.baseUrl));
  });
  after(async () => {
    const api = await getApi();
    api.local.useSourceEnv(undefined);
    await stopLocalAgents(pids, model);
    for (const f of made) {
      fs.rmSync(f, { recursive: true, force: true });
    }
    fs.rmSync(path.join(ws, '.opencode'), { recursive: true, force: true });
    if (root) {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  for (const preset of Object.keys(STATE) as (keyof typeof STATE)[]) {
    it(`${preset}: starts sandboxed, answers, runs an allowed command, writes in the workspace, keeps its state`, async function () {
      const missing = presetAgentMissing(preset);
      if (missing) {
        skipOrFail(this, missing);
      }
      const api = await getApi();
      const state = path.join(home, STATE[preset]);
      const stateBefore = filesUnder(state);
      const id = await startLocalAgent({ agent: `preset:${preset}`, folder: ws });
      assert.ok(id, `${preset} did not start`);
      const pid = api.local.sessions().find((s) => s.id === id)!.pid!;
      pids.push(pid);
      // Before anything runs: the agent is bubblewrap's child, and HOME is the test's own temp folder.
      const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      assert.match(cmdline[0], /(^|\/)bwrap$/, cmdline.join(' '));
      assert.ok(cmdline.includes('--tmpfs') && cmdline.includes(home), 'the HOME is emptied');
      assert.ok(home.startsWith(os.tmpdir()) && path.resolve(home) !== path.resolve(os.homedir()));
      const row = await waitFor('the sandbox row', () =>
        sessionGroup(api, id)?.children.find((c) => c.label.startsWith('sandbox')),
      );
      // This tier runs local agents with fountain.local.network "open" (test/support/codeServer.ts).
      assert.equal(row.label, 'sandbox: workspace rw, home hidden, network open');

      const tag = `${preset}-${randomUUID().slice(0, 8)}`;
      const ran = path.join(ws, `sandbox-ran-${tag}`);
      const probe = path.join(state, `fountain-probe-${tag}`);
      const written = path.join(ws, `sandbox-written-${tag}.txt`);
      made.push(ran, written);
      const command = `echo ran > ${sh(ran)} && echo kept > ${sh(probe)} && touch ~/x 2>> ${sh(ran)}; true`;
      await promptAndAnswer(api, id, `Please run RUN64:${b64(command)} now.`, 'allow_once');
      const seen = await waitFor('the command to have run', () =>
        fs.existsSync(ran) && fs.readFileSync(ran, 'utf8').includes('\n') ? fs.readFileSync(ran, 'utf8') : undefined,
      );
      assert.match(seen, /^ran\n/, 'the allowed command wrote into the workspace');
      assert.match(seen, /Read-only file system/, `the home around the state folder is read-only: ${seen}`);
      assert.equal(fs.existsSync(path.join(home, 'x')), false);
      assert.equal(fs.readFileSync(probe, 'utf8'), 'kept\n', 'the state folder is writable from inside');
      await waitFor('the answer in the transcript', () => api.local.transcript(id).includes(FINAL), 30_000);

      await promptAndAnswer(api, id, `Please write WRITE64:${b64(written)} now.`, 'allow_once');
      await waitFor('the file the agent wrote', () => fs.existsSync(written), 30_000);
      assert.equal(fs.readFileSync(written, 'utf8').trimEnd(), WRITTEN.trimEnd());

      await vscode.commands.executeCommand('fountain.local.stop', id);
      await waitFor(
        'the agent to end',
        () => {
          try {
            process.kill(pid, 0);
            return false;
          } catch {
            return true;
          }
        },
        30_000,
      );
      // On the real disk after the sandbox is gone: what the agent keeps there (sign-in, sessions) survives.
      assert.equal(fs.readFileSync(probe, 'utf8'), 'kept\n');
      const added = [...filesUnder(state)].filter((f) => !stateBefore.has(f) && f !== path.basename(probe));
      assert.ok(added.length > 0, `${preset} wrote nothing of its own into ${STATE[preset]}`);
    });
  }
});
