// Every preset asks through the gate: the five published agents (test/harness/setup-acp-agents.sh) started by Start
// Local Agent from their presets, found on PATH, on the scripted loopback model, in the real extension host. For
// each, a shell command and a new file reach the inbox as requests (rejected here: nothing runs, nothing is written).
// The picker marks what an agent runs unasked (codex), and the tree shows the mode the agent itself reports.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import type { TestApi } from '../../src/extension';
import type { InboxItem } from '../../src/domain/inbox';
import { PRESET_AGENTS, presetAgentMissing, type FakeModel } from '../support/realAgents';
import { skipOrFail } from '../support/skipOrFail';
import { sendLocalPrompt, startLocalAgent } from './gestures';
import { b64, presetSourceEnv, startScriptedModel } from './realAgents';
import { getApi, waitFor, stopLocalAgents, type RpcMessage } from './support';

describe('every preset asks through the gate (real agents in the extension host)', function () {
  this.timeout(240_000);
  const folder = vscode.workspace.workspaceFolders![0];
  let root = '';
  let model: FakeModel | undefined;
  const pids: number[] = [];
  const made: string[] = [];

  before(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'fountain-int-presets-'));
    model = await startScriptedModel();
    const api = await getApi();
    api.local.useSourceEnv(presetSourceEnv(root, model.baseUrl));
    api.local.wire(); // the tap for the agents started from here on
  });
  after(async () => {
    const api = await getApi();
    api.local.useSourceEnv(undefined);
    await stopLocalAgents(pids, model);
    for (const f of made) {
      fs.rmSync(f, { recursive: true, force: true });
    }
    fs.rmSync(path.join(folder.uri.fsPath, '.opencode'), { recursive: true, force: true });
    if (root) {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  const group = (api: TestApi, id: string) => api.tree().find((g) => g.key === JSON.stringify([`local:${id}`, id]));

  async function request(api: TestApi, id: string, prompt: string, seen: Set<string>): Promise<InboxItem> {
    await sendLocalPrompt(id, prompt);
    return waitFor(
      'the request in the inbox',
      () => api.items().find((i) => i.key.server === `local:${id}` && i.pending && !seen.has(i.id)),
      90_000,
    );
  }

  async function reject(api: TestApi, id: string, item: InboxItem): Promise<void> {
    const option =
      item.request.options.find((o) => o.kind === 'reject_once') ??
      item.request.options.find((o) => o.kind.startsWith('reject'));
    assert.ok(option, `no reject option: ${JSON.stringify(item.request.options)}`);
    assert.deepEqual(await api.answer(item.id, option.optionId), { kind: 'answered' });
    await waitFor('the turn to end', () => api.local.sessions().find((s) => s.id === id)?.status === 'idle', 60_000);
  }

  it('the picker says what an agent runs without asking: codex its "safe" commands; the others ask about everything', async () => {
    const api = await getApi();
    const choices = await api.local.choices();
    const asking = Object.fromEntries(choices.map((c) => [c.id, c.asking]));
    assert.match(asking['preset:codex'] ?? '', /Not everything is asked .*: commands codex deems safe and read-only/);
    for (const p of ['claude', 'gemini', 'opencode', 'qwen']) {
      assert.equal(asking[`preset:${p}`], undefined, `${p} is marked as not asking`);
    }
  });

  for (const preset of PRESET_AGENTS) {
    it(`${preset}: a shell command and a new file each reach the inbox as a request, and nothing runs unasked`, async function () {
      const missing = presetAgentMissing(preset);
      if (missing) {
        skipOrFail(this, missing);
      }
      const api = await getApi();
      const id = await startLocalAgent({
        agent: `preset:${preset}`,
        folder: folder.uri.fsPath,
      });
      assert.ok(id, `${preset} did not start`);
      const pid = api.local.sessions().find((s) => s.id === id)!.pid!;
      pids.push(pid);
      const tag = `${preset}-${randomUUID().slice(0, 8)}`;
      const marker = path.join(folder.uri.fsPath, `ran-${tag}`);
      const written = path.join(folder.uri.fsPath, `written-${tag}.txt`);
      made.push(marker, written);
      const seen = new Set<string>();

      const command = await request(api, id, `Please run RUN64:${b64(`touch ${marker}`)} now.`, seen);
      seen.add(command.id);
      assert.equal(command.request.kind, 'execute', JSON.stringify(command.request));
      assert.match(
        JSON.stringify(command.request),
        new RegExp(`touch ${marker.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}`),
      );
      assert.match(group(api, id)?.description ?? '', /mode ask$/, 'the agent is in a mode where it asks');
      await reject(api, id, command);

      const edit = await request(api, id, `Please write WRITE64:${b64(written)} now.`, seen);
      assert.equal(edit.request.kind, 'edit', JSON.stringify(edit.request));
      assert.match(JSON.stringify(edit.request), new RegExp(path.basename(written).replace(/[.]/g, '\\.')));
      await reject(api, id, edit);

      // Every request of the session went to the inbox: none was answered on the agent's or anyone's account.
      const asked = api.local
        .wire()
        .filter(
          (l) =>
            l.session === id &&
            l.direction === 'in' &&
            (l.message as RpcMessage).method === 'session/request_permission',
        );
      assert.equal(asked.length, 2, `requests on the wire: ${asked.length}`);
      assert.equal(fs.existsSync(marker), false, 'the rejected command ran');
      assert.equal(fs.existsSync(written), false, 'the rejected file was written');
      await vscode.commands.executeCommand('fountain.local.stop', id);
    });
  }
});
