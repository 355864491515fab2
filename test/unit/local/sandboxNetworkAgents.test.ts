// Every preset's REAL agent (test/runtime/acp-agents) inside the real sandbox with `fountain.local.network` `ask`:
// it has no network but the forwarder, so its model (the scripted model on the host's loopback at 127.0.0.2, outside
// the agent's NO_PROXY; the namespace's own loopback is not the host's) is reached only through the session's real
// proxy, whose decider (the test's) allows the model's host:port and nothing else. Each connection is recorded and
// logged.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  LocalAgentSession,
  presetById,
  specFromPreset,
  type ConnectionRecord,
  type HostDecider,
} from '../../../src/local';
import { bundleForwarder } from '../../support/forwarderBundle';
import {
  PRESET_AGENTS,
  presetAgentMissing,
  presetBin,
  presetModelEnv,
  QUIET_CLAUDE_ENV,
  startFakeModel,
  type FakeModel,
} from '../../support/realAgents';
import { skipOrFail } from '../../support/skipOrFail';

describe('local agents: every preset reaches its model only through the proxy (real bwrap, real agents)', function () {
  this.timeout(180_000);
  let root = '';
  let model: FakeModel;
  let modelPort = 0;

  before(async function () {
    if (process.platform !== 'linux' || !fs.existsSync('/usr/bin/bwrap')) {
      skipOrFail(this, 'bubblewrap is not installed at /usr/bin/bwrap (apt-get install bubblewrap)');
    }
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'fountain-unit-netagents-')));
    // 127.0.0.2: not the agent's own loopback (NO_PROXY), so it goes to the proxy, which reaches the host's.
    model = await startFakeModel({ finalText: 'hello through the proxy', host: '127.0.0.2' });
    modelPort = Number(new URL(model.baseUrl).port);
  });
  after(async () => {
    await model?.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  for (const preset of PRESET_AGENTS.filter((p) => !process.env.ONLY || p === process.env.ONLY)) {
    it(`${preset}: answers a prompt; its model traffic went through the proxy, allowed by the decider`, async function () {
      const missing = presetAgentMissing(preset);
      if (missing) {
        skipOrFail(this, missing);
      }
      const dir = path.join(root, preset);
      const home = path.join(dir, 'home');
      const ws = path.join(dir, 'ws');
      for (const d of [home, ws, path.join(dir, 'tmp')]) {
        fs.mkdirSync(d, { recursive: true });
      }
      const attempts: string[] = [];
      const decide: HostDecider = (a) => {
        attempts.push(`${a.via} ${a.host}:${a.port}`);
        return Promise.resolve(
          a.host === '127.0.0.2' && a.port === modelPort && a.addresses.length
            ? { allow: true, rule: 'test: the model', address: a.addresses[0] }
            : { allow: false, rule: 'test', reason: 'not the model' },
        );
      };
      const records: ConnectionRecord[] = [];
      const log: string[] = [];
      const before = model.requests.length;
      const session = await LocalAgentSession.start({
        spec: specFromPreset(presetById(preset)!, { env: [...Object.keys(QUIET_CLAUDE_ENV), 'CI'] }),
        cwd: ws,
        ask: () => undefined,
        sourceEnv: {
          PATH: [presetBin(dir), path.dirname(process.execPath), '/usr/bin', '/bin'].join(path.delimiter),
          HOME: home,
          TMPDIR: path.join(dir, 'tmp'),
          LANG: 'C.UTF-8',
          CI: '1',
          ...QUIET_CLAUDE_ENV,
          ...presetModelEnv(home, model.baseUrl),
        },
        sandbox: () => ({ setting: 'required', roots: [ws], network: 'ask' }),
        decideHost: decide,
        onConnection: (r) => records.push(r),
        forwarder: bundleForwarder(dir),
        log: (l) => log.push(l),
        startTimeoutMs: 90_000,
      }).catch((e: unknown) => {
        throw new Error(`${String(e)}\nattempts: ${attempts.join(', ')}\n${log.slice(-40).join('\n')}`);
      });
      const diag = () => `attempts: ${attempts.join(', ')}\n${log.slice(-30).join('\n')}`;
      try {
        assert.equal(session.confinement.sandboxed && session.confinement.network, 'proxy');
        const stop = await session.prompt('Say hello.');
        assert.equal(stop, 'end_turn', diag());
        assert.ok(
          model.requests.slice(before).some((r) => r.kind === 'main'),
          `the model saw the turn\n${diag()}`,
        );
        // A tunnel (CONNECT: the Node agents' undici) or a forwarded request (codex's reqwest), never around it.
        assert.ok(
          attempts.some((a) => a.endsWith(` 127.0.0.2:${modelPort}`)),
          diag(),
        );
      } finally {
        await session.stop();
      }
      const toModel = records.filter((r) => r.verdict.allow && r.attempt.port === modelPort);
      assert.ok(toModel.length > 0 && toModel.every((r) => r.bytesIn > 0), diag());
      assert.ok(
        log.some((l) => l.startsWith(`[fountain] network: allowed 127.0.0.2:${modelPort} (test: the model)`)),
        diag(),
      );
    });
  }
});
