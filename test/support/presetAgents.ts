/**
 * The five presets' agents (test/runtime/acp-agents, installed by test/harness/setup-acp-agents.sh) set up to be
 * started by the product's own presets, found on PATH, on the scripted loopback model: a bin folder with each
 * preset's command, and the environment and config files that point each agent at the model. Everything lives in
 * the test's temp root (HOME included); nothing reaches the network but the loopback model.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { QUIET_CLAUDE_ENV } from './scriptedModel';

export type PresetAgent = 'claude' | 'gemini' | 'codex' | 'opencode' | 'qwen';
export const PRESET_AGENTS: readonly PresetAgent[] = ['claude', 'gemini', 'codex', 'opencode', 'qwen'];

/** test/runtime/acp-agents/node_modules, found from here whether this runs from source or bundled into out/. */
function runtimeModules(): string {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'test', 'runtime', 'acp-agents');
    if (fs.existsSync(path.join(candidate, 'package.json'))) {
      return path.join(candidate, 'node_modules');
    }
    if (path.dirname(dir) === dir) {
      return path.resolve(__dirname, '../runtime/acp-agents/node_modules');
    }
  }
}

const NM = runtimeModules();
const PLATFORM = `${process.platform}-${process.arch}`;

/** The file each preset's command runs (opencode's own bin is a stub without its postinstall: the binary itself). */
export const AGENT_ENTRIES: Readonly<Record<PresetAgent, { command: string; file: string }>> = {
  claude: { command: 'claude-agent-acp', file: path.join(NM, '@zed-industries/claude-agent-acp/dist/index.js') },
  gemini: { command: 'gemini', file: path.join(NM, '@google/gemini-cli/bundle/gemini.js') },
  codex: { command: 'codex-acp', file: path.join(NM, `@zed-industries/codex-acp-${PLATFORM}/bin/codex-acp`) },
  opencode: {
    command: 'opencode',
    file: path.join(NM, `opencode-${PLATFORM.replace('win32', 'windows')}/bin/opencode`),
  },
  qwen: { command: 'qwen', file: path.join(NM, '@qwen-code/qwen-code/cli-entry.js') },
};

/** What is missing for `preset` (for skipOrFail), or undefined when it is installed. */
export function presetAgentMissing(preset: PresetAgent): string | undefined {
  const f = AGENT_ENTRIES[preset].file;
  return fs.existsSync(f)
    ? undefined
    : `${preset} is not installed (${f} is missing): run \`bash test/harness/setup-acp-agents.sh\``;
}

/** A bin folder under `root` with a link named after each installed preset's command. */
export function presetBin(root: string): string {
  const bin = path.join(root, 'bin');
  fs.mkdirSync(bin, { recursive: true });
  for (const p of PRESET_AGENTS) {
    const { command, file } = AGENT_ENTRIES[p];
    if (fs.existsSync(file) && !fs.existsSync(path.join(bin, command))) {
      fs.symlinkSync(file, path.join(bin, command));
    }
  }
  return bin;
}

/**
 * The variables (beyond PATH, HOME, TMPDIR, LANG) that point every preset at the model at `baseUrl`, after writing
 * their config files under `home`. Only variables the presets pass through by name are used (see presets.ts), so
 * this is what a user's own environment would have to hold.
 */
export function presetModelEnv(home: string, baseUrl: string): Record<string, string> {
  const write = (file: string, value: unknown) => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value, null, 2));
  };
  const claudeDir = path.join(home, '.claude');
  write(path.join(claudeDir, 'settings.json'), { skipWebFetchPreflight: true, env: QUIET_CLAUDE_ENV });
  const quiet = { privacy: { usageStatisticsEnabled: false }, telemetry: { enabled: false } };
  write(path.join(home, '.gemini', 'settings.json'), {
    ...quiet,
    general: { disableAutoUpdate: true, disableUpdateNag: true },
  });
  write(path.join(home, '.qwen', 'settings.json'), {
    ...quiet,
    security: { auth: { selectedType: 'openai' } },
    general: { disableAutoUpdate: true },
  });
  const codexHome = path.join(home, '.codex');
  write(
    path.join(codexHome, 'config.toml'),
    [
      'model = "gpt-5.3-codex"',
      'model_provider = "fake"',
      'check_for_update_on_startup = false',
      '',
      '[model_providers.fake]',
      'name = "fake"',
      `base_url = "${baseUrl}/v1"`,
      'env_key = "OPENAI_API_KEY"',
      'wire_api = "responses"',
      'request_max_retries = 0',
      'stream_max_retries = 0',
      '',
    ].join('\n'),
  );
  const opencode = {
    model: 'fake/fake-model',
    small_model: 'fake/fake-model',
    autoupdate: false,
    share: 'disabled',
    provider: {
      fake: {
        npm: '@ai-sdk/openai-compatible',
        name: 'Fake',
        options: { baseURL: `${baseUrl}/v1`, apiKey: 'fake-offline-key' },
        models: { 'fake-model': { name: 'Fake model', tool_call: true } },
      },
    },
    // The user's own permission: the preset keeps this deny and asks for the rest (an allow included).
    permission: { bash: { 'rm -rf *': 'deny', '*': 'allow' }, edit: 'allow' },
  };
  return {
    ANTHROPIC_BASE_URL: baseUrl,
    ANTHROPIC_API_KEY: 'sk-ant-fake-offline-key',
    CLAUDE_CONFIG_DIR: claudeDir,
    GOOGLE_GEMINI_BASE_URL: baseUrl,
    GEMINI_API_KEY: 'fake-offline-gemini-key',
    GEMINI_CLI_NO_RELAUNCH: 'true',
    CODEX_HOME: codexHome,
    OPENAI_API_KEY: 'fake-offline-key',
    OPENAI_BASE_URL: `${baseUrl}/v1`,
    OPENAI_MODEL: 'fake-model',
    OPENCODE_CONFIG_CONTENT: JSON.stringify(opencode),
  };
}
