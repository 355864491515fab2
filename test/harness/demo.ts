/**
 * `npm run demo`: the local Fountain server with its demo scenario (several agents, requests arriving over the first
 * minute, a detached request days away, a real ACP agent when installed) and a code-server with the extension
 * installed from a freshly built .vsix, pointed at that server. Prints one URL to open. Ctrl+C stops everything.
 */
import * as path from 'node:path';
import { QUIET_SETTINGS, installVsix, makeRunDir, startCodeServer, ROOT } from '../support/codeServer';
import { localServerAvailable, startLocalServer, type LocalServer } from '../support/serverFixture';
import { packageVsix } from '../support/workbench';

export async function main(): Promise<void> {
  const port = Number(process.env.PORT || 0) || undefined;
  const runDir = makeRunDir('fountain-demo-');
  console.log('demo: building the extension…');
  const vsix = path.join(runDir, 'fountain-approvals.vsix');
  packageVsix(vsix);
  installVsix(runDir, vsix);
  let server: LocalServer | undefined;
  const env: Record<string, string> = {};
  const machineSettings: Record<string, unknown> = {};
  if (localServerAvailable()) {
    server = await startLocalServer({ scenario: 'demo', logFile: path.join(runDir, 'local-server.log') });
    machineSettings['fountain.serverUrl'] = server.info.url;
    env.FOUNTAIN_API_KEY = server.info.apiKey;
    env.FOUNTAIN_BASE_URL = server.info.url; // the server the environment's key belongs to
    console.log(`demo: local Fountain server at ${server.info.url}`);
  } else {
    console.log('demo: no local server in this checkout yet; the extension starts with no server configured.');
  }
  const cs = await startCodeServer({ runDir, env, machineSettings, userSettings: QUIET_SETTINGS, port });
  const ws = path.join(ROOT, 'test/fixtures/ws');
  console.log(`\nOpen ${cs.url}/?folder=${encodeURIComponent(ws)}\n(logs in ${runDir}; Ctrl+C stops everything)`);
  let stopping = false;
  const stop = async () => {
    if (stopping) {
      return;
    }
    stopping = true;
    console.log('\ndemo: stopping…');
    await cs.stop();
    await server?.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
  await new Promise(() => undefined);
}
