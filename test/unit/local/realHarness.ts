// Test-only harness: a real published agent (installed by test/harness/setup-acp-agents.sh) started through the
// product's own presets (src/local), pointed at the scripted loopback model of test/server/agents/real/fakeModel.
// The agent is found on PATH like a user's would be: PATH = the runtime's node_modules/.bin + node's directory.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  startFakeModel,
  realAgentsInstalled,
  REAL_AGENTS_SETUP_HINT,
  QUIET_CLAUDE_ENV,
  type FakeModel,
  type FakeModelOptions,
} from '../../support/realAgents';
import {
  LocalAgentSession,
  presetById,
  specFromPreset,
  type AskInbox,
  type LocalSessionOptions,
  type PendingAsk,
} from '../../../src/local';

export { realAgentsInstalled, REAL_AGENTS_SETUP_HINT };

const RUNTIME_BIN = path.resolve(__dirname, '../../runtime/acp-agents/node_modules/.bin');

export interface WireLine {
  readonly direction: 'out' | 'in';
  readonly msg: Record<string, unknown>;
}

export interface Harness {
  readonly cwd: string;
  readonly home: string;
  readonly model: FakeModel;
  readonly wire: WireLine[];
  readonly asks: PendingAsk[];
  readonly stderr: string[];
  /** Resolves with the next ask the inbox receives. */
  nextAsk(): Promise<PendingAsk>;
  start(
    overrides?: Partial<LocalSessionOptions> & { policy?: Record<string, unknown>; defaultMode?: string },
  ): Promise<LocalAgentSession>;
  /** Our JSON-RPC responses to the agent's request `id`. */
  responsesTo(id: unknown): Record<string, unknown>[];
  /** The agent's session/request_permission requests, in order. */
  permissionRequests(): Record<string, unknown>[];
  readonly diag: () => string;
  cleanup(): Promise<void>;
}

const AGENT_ENV: Record<'claude' | 'gemini', (home: string, baseUrl: string) => Record<string, string>> = {
  claude: (home, baseUrl) => ({
    ANTHROPIC_BASE_URL: baseUrl,
    ANTHROPIC_API_KEY: 'sk-ant-fake-offline-key',
    CLAUDE_CONFIG_DIR: path.join(home, '.claude'),
    ...QUIET_CLAUDE_ENV,
  }),
  gemini: (_home, baseUrl) => ({
    GOOGLE_GEMINI_BASE_URL: baseUrl,
    GEMINI_API_KEY: 'fake-offline-gemini-key',
    GEMINI_CLI_NO_RELAUNCH: 'true',
  }),
};

function prepareHome(preset: 'claude' | 'gemini', home: string): void {
  if (preset === 'claude') {
    fs.mkdirSync(path.join(home, '.claude'), { recursive: true });
    fs.writeFileSync(path.join(home, '.claude', 'settings.json'), JSON.stringify({ skipWebFetchPreflight: true }));
  } else {
    fs.mkdirSync(path.join(home, '.gemini'), { recursive: true });
    const settings = {
      privacy: { usageStatisticsEnabled: false },
      telemetry: { enabled: false },
      general: { disableAutoUpdate: true, disableUpdateNag: true },
    };
    fs.writeFileSync(path.join(home, '.gemini', 'settings.json'), JSON.stringify(settings));
  }
}

export async function createHarness(preset: 'claude' | 'gemini', modelOptions?: FakeModelOptions): Promise<Harness> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), `fountain-local-${preset}-`));
  const cwd = path.join(root, 'work');
  const home = path.join(root, 'home');
  const tmp = path.join(root, 'tmp');
  for (const d of [cwd, home, tmp]) {
    fs.mkdirSync(d);
  }
  prepareHome(preset, home);
  const model = await startFakeModel(modelOptions);
  const agentEnv = AGENT_ENV[preset](home, model.baseUrl);
  const wire: WireLine[] = [];
  const asks: PendingAsk[] = [];
  const stderr: string[] = [];
  const waiters: ((a: PendingAsk) => void)[] = [];
  const inbox: AskInbox = (ask) => {
    asks.push(ask);
    waiters.shift()?.(ask);
  };
  const sessions: LocalAgentSession[] = [];
  const h: Harness = {
    cwd,
    home,
    model,
    wire,
    asks,
    stderr,
    nextAsk: () => new Promise((resolve) => waiters.push(resolve)),
    async start(overrides = {}) {
      const { policy, defaultMode, ...rest } = overrides;
      const spec = specFromPreset(presetById(preset)!, {
        env: [
          'CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC',
          'DISABLE_TELEMETRY',
          'DISABLE_AUTOUPDATER',
          'DISABLE_ERROR_REPORTING',
          'DISABLE_BUG_COMMAND',
          'NO_COLOR',
          'CI',
        ],
        ...(policy ? { policy } : {}),
        ...(defaultMode !== undefined ? { defaultMode } : {}),
      });
      const session = await LocalAgentSession.start({
        spec,
        cwd,
        ask: inbox,
        sourceEnv: {
          PATH: `${RUNTIME_BIN}${path.delimiter}${path.dirname(process.execPath)}${path.delimiter}/usr/bin:/bin`,
          HOME: home,
          TMPDIR: tmp,
          LANG: 'C.UTF-8',
          TERM: 'dumb',
          NO_COLOR: '1',
          CI: '1',
          // Must never reach the agent: not named by the preset.
          FOUNTAIN_TOKEN: 'must-not-leak',
          ...agentEnv,
        },
        log: (line) => stderr.push(line),
        onWire: (direction, line) => {
          try {
            wire.push({ direction, msg: JSON.parse(line) as Record<string, unknown> });
          } catch {
            // agents' stray stdout
          }
        },
        ...rest,
      });
      sessions.push(session);
      return session;
    },
    responsesTo: (id) =>
      wire.filter((w) => w.direction === 'out' && w.msg.method === undefined && w.msg.id === id).map((w) => w.msg),
    permissionRequests: () =>
      wire.filter((w) => w.direction === 'in' && w.msg.method === 'session/request_permission').map((w) => w.msg),
    diag: () => `model: ${JSON.stringify(model.requests)}\nlog tail:\n${stderr.slice(-30).join('\n')}`,
    async cleanup() {
      await Promise.all(sessions.map((s) => s.stop()));
      await model.close();
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
  return h;
}

export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

export function withTimeout<T>(p: Promise<T>, ms: number, what: () => string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms: ${what()}`)), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}
