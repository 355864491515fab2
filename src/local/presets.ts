/**
 * Built-in launch presets for published ACP agents. Each names the command to find on PATH, the arguments that put
 * it in ACP mode, the exact npm command that installs it, and how long it takes to end (measured with the real
 * runtimes: claude-agent-acp and codex-acp never exit on stdin EOF, so waiting long for that only delays Stop).
 */

export type PresetId = 'claude' | 'gemini' | 'codex' | 'opencode' | 'qwen';

export interface AgentPreset {
  readonly id: PresetId;
  /** Shown in pickers and as the session's agent name. */
  readonly name: string;
  /** Looked up on PATH (never through a shell). */
  readonly command: string;
  readonly args: readonly string[];
  /** The npm package that provides `command`. */
  readonly npmPackage: string;
  /** The exact command that installs it, shown when `command` is missing. */
  readonly install: string;
  /** Environment variables passed through by name (credentials and endpoints the agent reads); never values. */
  readonly env: readonly string[];
  /** After stdin is closed, how long to wait for a clean exit before SIGTERM to the group. */
  readonly graceMs: number;
  /** After SIGTERM, how long before SIGKILL. */
  readonly termMs: number;
}

function preset(p: Omit<AgentPreset, 'install'>): AgentPreset {
  return Object.freeze({
    ...p,
    args: Object.freeze([...p.args]),
    env: Object.freeze([...p.env]),
    install: `npm install -g ${p.npmPackage}`,
  });
}

export const PRESETS: readonly AgentPreset[] = Object.freeze([
  preset({
    id: 'claude',
    name: 'Claude Code (claude-agent-acp)',
    command: 'claude-agent-acp',
    args: [],
    npmPackage: '@zed-industries/claude-agent-acp',
    env: ['ANTHROPIC_API_KEY', 'ANTHROPIC_BASE_URL', 'CLAUDE_CONFIG_DIR'],
    // Never exits on stdin EOF; its `claude` child outlives SIGTERM by more than 2 s.
    graceMs: 250,
    termMs: 1000,
  }),
  preset({
    id: 'gemini',
    name: 'Gemini CLI',
    command: 'gemini',
    args: ['--acp'],
    npmPackage: '@google/gemini-cli',
    env: [
      'GEMINI_API_KEY',
      'GOOGLE_API_KEY',
      'GOOGLE_GEMINI_BASE_URL',
      'GOOGLE_CLOUD_PROJECT',
      'GEMINI_CLI_NO_RELAUNCH',
    ],
    // Exits 0 about 1.6 s after stdin EOF.
    graceMs: 2500,
    termMs: 2000,
  }),
  preset({
    id: 'codex',
    name: 'Codex (codex-acp)',
    command: 'codex-acp',
    args: [],
    npmPackage: '@zed-industries/codex-acp',
    env: ['OPENAI_API_KEY', 'CODEX_HOME'],
    // Does not exit on stdin EOF.
    graceMs: 250,
    termMs: 1000,
  }),
  preset({
    id: 'opencode',
    name: 'opencode',
    command: 'opencode',
    args: ['acp'],
    npmPackage: 'opencode-ai',
    env: ['OPENCODE_CONFIG', 'OPENCODE_CONFIG_CONTENT', 'ANTHROPIC_API_KEY', 'OPENAI_API_KEY'],
    graceMs: 2500,
    termMs: 2000,
  }),
  preset({
    id: 'qwen',
    name: 'Qwen Code',
    command: 'qwen',
    args: ['--acp'],
    npmPackage: '@qwen-code/qwen-code',
    env: ['OPENAI_API_KEY', 'OPENAI_BASE_URL', 'OPENAI_MODEL', 'DASHSCOPE_API_KEY'],
    graceMs: 2500,
    termMs: 2000,
  }),
]);

export function presetById(id: string): AgentPreset | undefined {
  return PRESETS.find((p) => p.id === id);
}

/** Grace periods for a command nobody measured: a short EOF wait, then SIGTERM, then SIGKILL. */
export const DEFAULT_GRACE_MS = 1500;
export const DEFAULT_TERM_MS = 2000;
