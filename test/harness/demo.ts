/**
 * `npm run demo`: the local Fountain server with its demo scenario (several agents, requests arriving over the first
 * minute, a detached request days away, a real ACP agent when installed) and a code-server with the extension
 * installed from a freshly built .vsix, pointed at that server. Prints one URL to open. Ctrl+C stops everything.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { startFakeModel, writeQuietClaudeSettings, type FakeModel } from '../support/scriptedModel';
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
  const model = await localAgentEntry(runDir, env, machineSettings);
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
    await model?.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
  await new Promise(() => undefined);
}

/** The local agent the demo offers in Start Local Agent…: the installed claude-agent-acp on the scripted model. */
const DEMO_AGENT = 'Claude Code on the scripted model (demo)';

/**
 * When the real ACP agents are installed, starts the scripted loopback model and adds a `fountain.localAgents` entry
 * for claude-agent-acp on it (by absolute path: code-server's extension host does not keep this process's PATH), with
 * the model's URL passed through code-server's environment. Start it with Fountain: Start Local Agent….
 */
async function localAgentEntry(
  runDir: string,
  env: Record<string, string>,
  machineSettings: Record<string, unknown>,
): Promise<FakeModel | undefined> {
  const bin = path.join(ROOT, 'test/runtime/acp-agents/node_modules/.bin/claude-agent-acp');
  if (!fs.existsSync(bin)) {
    console.log('demo: the real ACP agents are not installed (bash test/harness/setup-acp-agents.sh): no local agent.');
    return undefined;
  }
  const claudeDir = path.join(runDir, 'claude');
  fs.mkdirSync(claudeDir, { recursive: true });
  writeQuietClaudeSettings(claudeDir);
  const model = await startFakeModel();
  machineSettings['fountain.localAgents'] = [
    {
      name: DEMO_AGENT,
      command: bin,
      runtime: 'claude',
      env: ['ANTHROPIC_BASE_URL', 'ANTHROPIC_API_KEY', 'CLAUDE_CONFIG_DIR'],
    },
  ];
  Object.assign(env, {
    ANTHROPIC_BASE_URL: model.baseUrl,
    ANTHROPIC_API_KEY: 'sk-ant-fake-offline-key',
    CLAUDE_CONFIG_DIR: claudeDir,
  });
  console.log(
    `demo: local agent "${DEMO_AGENT}" (Fountain: Start Local Agent…, then Send Prompt… e.g. "create file hello.txt containing hi")`,
  );
  return model;
}
