// The gate holds against real claude (claude-agent-acp from test/harness/setup-acp-agents.sh, started by its preset
// on the scripted loopback model) in the real extension host, in mode ask with default settings: a read of a canary
// outside the workspace, a read through a symlink in the workspace that leads out of it, and `sort
// --compress-program=sh` (which runs its input) are each asked, never allowed on the gate's own account. Each is
// rejected here; a gate that allowed one shows as no inbox request, the canary's text reaching the model, or the
// marker that the sort command would create.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import type { TestApi } from '../../src/extension';
import type { InboxItem } from '../../src/domain/inbox';
import { presetAgentMissing, presetBin, presetModelEnv, startFakeModel, type FakeModel } from '../support/realAgents';
import { skipOrFail } from '../support/skipOrFail';
import { sendLocalPrompt, startLocalAgent } from './gestures';
import { getApi, waitFor, stopLocalAgents } from './support';

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64url');
const unb64 = (s: string) => Buffer.from(s, 'base64url').toString('utf8');
const CANARY = `canary-${randomUUID()}`;

describe('the gate holds with real claude: reads out of the workspace and commands that run others are asked', function () {
  this.timeout(240_000);
  const folder = vscode.workspace.workspaceFolders![0];
  let root = '';
  let model: FakeModel | undefined;
  let id = '';
  const pids: number[] = [];
  const made: string[] = [];

  before(async function () {
    const missing = presetAgentMissing('claude');
    if (missing) {
      skipOrFail(this, missing);
    }
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'fountain-int-holds-'));
    fs.mkdirSync(path.join(root, 'outside'), { recursive: true });
    fs.writeFileSync(path.join(root, 'outside', 'secret.txt'), `${CANARY}\n`);
    model = await startFakeModel({
      deriveCommand: (text) => {
        const m = /RUN64:([A-Za-z0-9_-]+)/.exec(text);
        return m ? { command: unb64(m[1]), description: 'Run it' } : undefined;
      },
    });
    const home = path.join(root, 'home');
    fs.mkdirSync(path.join(root, 'tmp'), { recursive: true });
    const api = await getApi();
    api.local.useSourceEnv({
      PATH: [presetBin(root), path.dirname(process.execPath), '/usr/bin', '/bin'].join(path.delimiter),
      HOME: home,
      TMPDIR: path.join(root, 'tmp'),
      LANG: 'C.UTF-8',
      ...presetModelEnv(home, model.baseUrl),
    });
    const started = await startLocalAgent({
      agent: 'preset:claude',
      folder: folder.uri.fsPath,
    });
    assert.ok(started, 'claude did not start');
    id = started;
    pids.push(api.local.sessions().find((s) => s.id === id)!.pid!);
  });
  after(async () => {
    const api = await getApi();
    api.local.useSourceEnv(undefined);
    if (id) {
      await vscode.commands.executeCommand('fountain.local.stop', id);
    }
    await stopLocalAgents(pids, model);
    for (const f of made) {
      fs.rmSync(f, { recursive: true, force: true });
    }
    if (root) {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  const status = (api: TestApi) => api.local.sessions().find((s) => s.id === id)?.status;

  /** Sends `command` through the model; the request must reach the inbox (the turn must not end first). */
  async function mustAsk(api: TestApi, command: string): Promise<InboxItem> {
    const before = new Set(api.items().map((i) => i.id));
    const seenTurns = model!.requests.length;
    await sendLocalPrompt(id, `Please run RUN64:${b64(command)} now.`);
    await waitFor('the turn to start', () => status(api) !== 'idle' || model!.requests.length > seenTurns, 30_000);
    const found = await waitFor(
      'the request in the inbox, or the turn ending without one',
      () => {
        const item = api.items().find((i) => i.key.server === `local:${id}` && i.pending && !before.has(i.id));
        return item ?? (status(api) === 'idle' ? ('ended' as const) : undefined);
      },
      90_000,
    );
    assert.notEqual(found, 'ended', `"${command}" was not asked: ${api.local.transcript(id).slice(-600)}`);
    const item = found as InboxItem;
    assert.match(JSON.stringify(item.request), /RUN64|sort|cat/);
    const reject = item.request.options.find((o) => o.kind === 'reject_once')!;
    assert.deepEqual(await api.answer(item.id, reject.optionId), { kind: 'answered' });
    await waitFor('the turn to end', () => status(api) === 'idle', 60_000);
    return item;
  }

  const canaryReachedModel = () => model!.requests.some((r) => (r.lastMessage ?? '').includes(CANARY));

  it('cat of a canary outside the workspace is asked', async () => {
    const api = await getApi();
    const item = await mustAsk(api, `cat ${path.join(root, 'outside', 'secret.txt')}`);
    assert.match(JSON.stringify(item.request), /secret\.txt/);
    assert.equal(canaryReachedModel(), false, 'the canary reached the model');
  });

  it('a read through a symlink in the workspace that leads out of it is asked', async () => {
    const api = await getApi();
    const link = path.join(folder.uri.fsPath, `link-${randomUUID().slice(0, 8)}`);
    fs.symlinkSync(path.join(root, 'outside'), link);
    made.push(link);
    await mustAsk(api, `cat ${path.basename(link)}/secret.txt`);
    assert.equal(canaryReachedModel(), false, 'the canary reached the model');
  });

  it('sort --compress-program=sh (it runs its input) is asked', async () => {
    const api = await getApi();
    const marker = path.join(root, `sort-ran-${randomUUID().slice(0, 8)}`);
    await mustAsk(api, `printf 'touch ${marker}\\n' | sort -S 1K --compress-program=sh`);
    assert.equal(fs.existsSync(marker), false, 'the sort command ran its input');
  });
});
