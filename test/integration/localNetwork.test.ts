// A sandboxed agent's network asks in the real extension host (issue 28), before the proxy is merged: the published
// claude-agent-acp runs on the scripted loopback model (started by Start Local Agent), and the test hands its
// session's network decider ConnectAttempts through the test API, exactly as the proxy will
// (src/local/network/contract.ts). Each ask is a request in the real inbox; answers go through the same answer flow
// as a toast or tree click. The sandboxed `curl` end to end comes with the proxy and the network namespace.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { TestApi } from '../../src/extension';
import type { ConnectAttempt } from '../../src/local';
import { startFakeModel, writeQuietClaudeSettings, type FakeModel } from '../support/scriptedModel';
import { getApi, waitFor, stopLocalAgents } from './support';
import { skipOrFail } from '../support/skipOrFail';
import { startLocalAgent } from './gestures';
import * as local from '../../src/local';
import { networkAlways } from '../../src/ui/local/networkPicks';
import { waitingInfo } from '../../src/ui/always/alwaysContext';

const ROOT = path.resolve(__dirname, '../../..');
const BIN = path.join(ROOT, 'test/runtime/acp-agents/node_modules/.bin');
const CLAUDE = path.join(BIN, 'claude-agent-acp');

const attempt = (host: string, port = 443, addresses = ['151.101.0.223']): ConnectAttempt => ({
  host,
  port,
  via: 'connect',
  addresses,
});

describe('local agents: network asks in the inbox', function () {
  this.timeout(180_000);
  const folder = vscode.workspace.workspaceFolders![0];
  let root: string;
  let model: FakeModel | undefined;
  const pids: number[] = [];
  let api: TestApi;
  let id: string;

  before(async function () {
    if (!fs.existsSync(CLAUDE)) {
      skipOrFail(this, 'claude-agent-acp is not installed: run `bash test/harness/setup-acp-agents.sh`');
    }
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'fountain-int-network-'));
    model = await startFakeModel();
    api = await getApi();
    const claudeDir = path.join(root, 'home', '.claude');
    fs.mkdirSync(claudeDir, { recursive: true });
    fs.mkdirSync(path.join(root, 'tmp'));
    writeQuietClaudeSettings(claudeDir);
    api.local.useSourceEnv({
      PATH: [BIN, path.dirname(process.execPath), '/usr/bin', '/bin'].join(path.delimiter),
      HOME: path.join(root, 'home'),
      TMPDIR: path.join(root, 'tmp'),
      LANG: 'C.UTF-8',
      ANTHROPIC_BASE_URL: model.baseUrl,
      ANTHROPIC_API_KEY: 'sk-ant-fake-offline-key',
      CLAUDE_CONFIG_DIR: claudeDir,
    });
    const started = await startLocalAgent({ agent: 'preset:claude', folder: folder.uri.fsPath });
    assert.ok(started, 'claude did not start');
    id = started;
    pids.push(api.local.sessions().find((s) => s.id === id)!.pid!);
  });
  after(async () => {
    await vscode.workspace
      .getConfiguration('fountain.local')
      .update('allowHosts', undefined, vscode.ConfigurationTarget.Global);
    await stopLocalAgents(pids, model);
    if (root) {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  const pending = (host: string) =>
    api.items().filter((i) => i.key.server === `local:${id}` && i.pending && i.label.includes(host));

  it('an unknown host is one request in the inbox (shared by concurrent attempts); Reject refuses every waiting attempt', async () => {
    const a = api.local.network.submit(id, attempt('pypi.org'))!;
    const b = api.local.network.submit(id, attempt('pypi.org'))!;
    const item = await waitFor('the network ask in the inbox', () => pending('pypi.org')[0], 10_000);
    assert.equal(pending('pypi.org').length, 1, 'two attempts, one request');
    assert.equal(item.label, 'Connect to pypi.org:443');
    assert.equal(item.conversation.title, `Local · Claude Code (claude-agent-acp) · ${folder.name}`);
    assert.deepEqual(
      item.request.options.map((o) => o.name),
      ['Allow Once', 'Allow pypi.org for This Session', 'Reject'],
    );
    assert.match(api.provenance(item.id).full, /not in fountain\.local\.allowHosts/);
    assert.match(api.detailsText(item.id), /This session then connects to pypi\.org without asking/);
    assert.deepEqual(await api.answer(item.id, 'reject'), { kind: 'answered' });
    for (const v of await Promise.all([a.verdict, b.verdict])) {
      assert.deepEqual(v, {
        allow: false,
        rule: 'user: Reject',
        reason: 'not an allowed host; the user was asked and rejected',
      });
    }
    assert.equal(api.items().find((i) => i.id === item.id)?.state.kind, 'answeredByYou');
    await waitFor(
      'the transcript line',
      () => /network: pypi\.org:443 refused \(asked: user: Reject\)/.test(api.local.transcript(id)),
      5000,
    );
  });

  it('"Allow <host> for This Session": the next attempt to that host is allowed unasked', async () => {
    const first = api.local.network.submit(id, attempt('files.example.org'))!;
    const item = await waitFor('the ask', () => pending('files.example.org')[0], 10_000);
    assert.deepEqual(await api.answer(item.id, 'allow_session'), { kind: 'answered' });
    assert.equal((await first.verdict).rule, 'user: Allow for This Session');
    assert.deepEqual(api.local.network.grants(id), ['files.example.org']);
    const before = api.items().length;
    const next = await api.local.network.submit(id, attempt('files.example.org', 80))!.verdict;
    assert.deepEqual(next, { allow: true, rule: 'grant: files.example.org', address: '151.101.0.223' });
    assert.equal(api.items().length, before, 'no new request');
  });

  it('refused without asking: a name resolving to loopback; the base URL of the model on loopback allowed unasked', async () => {
    const rebind = await api.local.network.submit(id, attempt('files.example.org', 443, ['127.0.0.1']))!.verdict;
    assert.equal(rebind.rule, 'deny: loopback');
    const port = Number(new URL(model!.baseUrl).port);
    const m = await api.local.network.submit(id, attempt('127.0.0.1', port, ['127.0.0.1']))!.verdict;
    assert.deepEqual(m, { allow: true, rule: 'baseUrl: ANTHROPIC_BASE_URL', address: '127.0.0.1' });
    assert.equal(pending('127.0.0.1').length, 0);
  });

  it('fountain.local.allowHosts is read at each attempt; an attempt that gives up withdraws its ask', async () => {
    await vscode.workspace
      .getConfiguration('fountain.local')
      .update('allowHosts', ['*.pythonhosted.org'], vscode.ConfigurationTarget.Global);
    const v = await api.local.network.submit(id, attempt('files.pythonhosted.org'))!.verdict;
    assert.equal(v.rule, 'allowHosts: *.pythonhosted.org');
    const gone = api.local.network.submit(id, attempt('crates.io'))!;
    const item = await waitFor('the ask', () => pending('crates.io')[0], 10_000);
    gone.abort();
    assert.equal((await gone.verdict).rule, 'withdrawn');
    await waitFor('the request withdrawn', () => !api.items().find((i) => i.id === item.id)?.pending, 5000);
  });

  it('Always…: the rule is checked (it must parse and cover this connection) and covers the waiting network asks it names', async () => {
    const a = api.local.network.submit(id, attempt('a.pypi.org'))!;
    const b = api.local.network.submit(id, attempt('b.pypi.org'))!;
    const itemB = await waitFor(
      'both asks',
      () => (pending('.pypi.org').length === 2 ? pending('b.pypi.org')[0] : undefined),
      10_000,
    );
    const ask = api.local.network.asks(id).find((x) => x.network?.host === 'a.pypi.org')!;
    const req = networkAlways(local, ask, ask.network!, (hp) => `Connect to ${hp}`);
    assert.equal(req.rule, 'a.pypi.org');
    assert.equal(req.setting, 'fountain.local.allowHosts');
    assert.deepEqual(req.check('a.pypi.org'), { warnings: [] });
    assert.match((req.check('https://a.pypi.org') as { problem: string }).problem, /scheme/);
    assert.match((req.check('b.pypi.org') as { problem: string }).problem, /does not cover the connection/);
    assert.match(
      (req.check('*.org') as { problem: string }).problem,
      /does not cover the connection/,
      'a * is one label',
    );
    assert.deepEqual(req.check('*.pypi.org'), { warnings: [] });
    const w = waitingInfo(itemB);
    assert.equal(req.matcher('a.pypi.org').waiting(w), false);
    assert.equal(req.matcher('*.pypi.org').waiting(w), true, 'the wider rule covers the other waiting ask');
    assert.equal(w.allowOnce?.optionId, 'allow_once', 'which the confirmation would answer with its Allow Once');
    const past = {
      at: 1,
      server: `local:${id}`,
      conversationId: id,
      kind: 'fetch',
      label: 'Connect to c.pypi.org:443',
      optionId: 'reject',
      outcome: 'answered' as const,
    };
    assert.equal(req.matcher('*.pypi.org').entry(past), true, 'the dry run reads a past network ask');
    assert.equal(req.matcher('a.pypi.org').entry(past), false);
    for (const x of api.local.network.asks(id)) {
      x.answer('reject');
    }
    await Promise.all([a.verdict, b.verdict]);
  });
});
