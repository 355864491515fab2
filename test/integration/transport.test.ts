/** The connection layer in the real extension host: what reaches the extension's log, and which server gets the key. */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { getApi, harnessTestServer, waitFor } from './support';

/** The extension's own log file (its LogOutputChannel), newest session first. */
function extensionLogFile(): string | undefined {
  const runDir = process.env.FOUNTAIN_TEST_RUN_DIR;
  if (!runDir) {
    return undefined;
  }
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) {
        walk(p);
      } else if (e.name === 'Fountain Approvals.log') {
        found.push(p);
      }
    }
  };
  walk(path.join(runDir, 'user-data', 'logs'));
  return found.sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs)[0];
}

describe('transport: the key in use never reaches a log line, and only its own server', function () {
  this.timeout(90_000);

  it('a 401 whose body echoes the key: the extension log says <redacted>, never the key', async function () {
    const server = harnessTestServer();
    if (!server || !process.env.FOUNTAIN_TEST_RUN_DIR) {
      this.skip();
    }
    const api = await getApi();
    // The channel's file appears once the first lines are flushed (activation logs a line).
    const logFile = await waitFor('the extension log file', () => extensionLogFile(), 30_000);
    const key = server.info.apiKey;
    const echo = {
      error: `Invalid authorization header 'Bearer ${key}'`,
      reason: `api_key_invalid: Bearer ${key}`,
      message: `The key ${key} is not valid`,
    };
    try {
      await server.control('POST', '/fail', { path: '/api/events/stream', status: 401, count: 1, body: echo });
      await api.restart();
      const state = await waitFor('the auth failure', () => {
        const s = api.connectionState();
        return s.kind === 'authFailed' ? s : undefined;
      });
      assert.ok(!JSON.stringify(state).includes(key), `the connection state holds the key: ${JSON.stringify(state)}`);
      assert.ok(!(api.viewDescription() ?? '').includes(key), 'the view description holds the key');
      // The log file is written asynchronously: wait for the refusal line, then read every line.
      const text = await waitFor(
        'the refusal in the extension log',
        () => {
          const t = fs.readFileSync(logFile, 'utf8');
          return t.includes('the server refused the key (401') ? t : undefined;
        },
        30_000,
      );
      const leaking = text.split('\n').filter((l) => l.includes(key));
      assert.deepEqual(leaking, [], 'log lines holding the key');
      assert.match(text, /the server refused the key \(401 api_key_invalid: Bearer <redacted>\)/);
    } finally {
      await server.control('DELETE', '/fail');
      await api.restart();
    }
    await waitFor('the good key to connect again', () => api.connectionState().kind === 'connected');
  });
});
