/**
 * Tier 2: runs test/integration (bundled to out/test/integration) with mocha inside the real extension host of
 * code-server, loaded through the smoke-test-driver payload. Prints the ext host's mocha output and exits with its code.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { format } from 'node:util';
import { ROOT, launchBrowser, makeRunDir, startCodeServer } from '../support/codeServer';
import { TestServer, type ServerInfo } from '../support/serverClient';
import { localServerAvailable, startLocalServer, type LocalServer } from '../support/serverFixture';

/** Opens one detached and one in-turn request on the server before VS Code starts. */
async function preseed(server: TestServer): Promise<{ detached: string; inTurn: string }> {
  const start = (agentId: string, prompt: string) =>
    server.startConversation(agentId, prompt, { title: `preseeded ${agentId}` });
  return {
    detached: await start('waiter', 'wait: touch preseeded-detached.txt'),
    inTurn: await start('claude', 'run: touch preseeded-in-turn.txt'),
  };
}

/** Workbench log lines that are not test output. */
const NOISE =
  /^\[(AgentHost|AgentHost:remote|ChatModelSelection|Extension Host|AccountPolicyGate|Service Worker|reconnection-grace-time)\]|^(Resolving|Resolved) connection token|^Creating a socket|^Updating additional builtin|open-vsx|ENOTFOUND/;

export async function main(): Promise<void> {
  const runDir = makeRunDir('fountain-int-');
  let server: LocalServer | undefined;
  let code: number;
  try {
    const env: Record<string, string> = { FOUNTAIN_TEST_RUN_DIR: runDir };
    const machineSettings: Record<string, unknown> = {};
    if (localServerAvailable()) {
      server = await startLocalServer({ scenario: 'empty', logFile: path.join(runDir, 'local-server.log') });
    }
    if (server) {
      // Requests opened while the extension is not running: the extension must find them by backfill.
      env.FOUNTAIN_TEST_PRESEEDED = JSON.stringify(await preseed(server.client));
    }
    // Without a local server the extension still gets a configuration to read (nothing listens on port 9).
    const info: Pick<ServerInfo, 'url' | 'apiKey'> = server?.info ?? {
      url: 'http://127.0.0.1:9',
      apiKey: 'ftn_test_no_server',
    };
    machineSettings['fountain.serverUrl'] = info.url;
    env.FOUNTAIN_API_KEY = info.apiKey;
    // The environment's key belongs to the server FOUNTAIN_BASE_URL names (the configured one, here).
    env.FOUNTAIN_BASE_URL = info.url;
    env.FOUNTAIN_TEST_SERVER = JSON.stringify(info);
    const cs = await startCodeServer({ runDir, smokeTestDriver: true, env, machineSettings });
    const browser = await launchBrowser(runDir);
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      let finish!: (c: number) => void;
      const done = new Promise<number>((r) => (finish = r));
      await page.exposeFunction('codeAutomationLog', (_type: string, args: unknown[]) => {
        const text = format(...(args as [unknown, ...unknown[]]));
        // The workbench forwards its own noise too; keep the extension host's test output.
        if (!NOISE.test(text)) {
          console.log(text);
        }
      });
      await page.exposeFunction('codeAutomationExit', (c: number) => finish(c));
      const remote = (p: string) => `vscode-remote://127.0.0.1:${cs.port}${encodeURI(p)}`;
      const payload = [
        ['extensionDevelopmentPath', remote(ROOT)],
        ['extensionTestsPath', remote(path.join(ROOT, 'out/test/integration/index.js'))],
        ['skipWelcome', 'true'],
      ];
      const ws = path.join(ROOT, 'test/fixtures/ws');
      await page.goto(
        `${cs.url}/?folder=${encodeURIComponent(ws)}&payload=${encodeURIComponent(JSON.stringify(payload))}`,
      );
      const timer = setTimeout(() => finish(124), 300_000);
      code = await done;
      clearTimeout(timer);
      if (code !== 0) {
        await page.screenshot({ path: path.join(runDir, 'failure.png') }).catch(() => undefined);
        console.log(`integration: exit ${code}; logs and screenshot in ${runDir}`);
      }
    } finally {
      await browser.close();
      await cs.stop();
    }
  } catch (err) {
    console.error('integration harness failed:', err);
    code = 1;
  } finally {
    await server?.stop();
  }
  if (code === 0 && !process.env.FOUNTAIN_KEEP_RUN_DIR) {
    fs.rmSync(runDir, { recursive: true, force: true });
  }
  process.exit(code);
}
