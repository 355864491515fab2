/**
 * Built-in launch presets for published ACP agents. Each names the command to find on PATH, the arguments that put
 * it in ACP mode and make it ask before it acts, the exact npm command that installs it, how much of what it does
 * reaches the gate, and how long it takes to end (measured with the real runtimes: claude-agent-acp and codex-acp
 * never exit on stdin EOF, so waiting long for that only delays Stop).
 *
 * What makes each ask (checked against the published agents on a scripted model, see test/integration/presets*):
 * - claude-agent-acp: its `default` mode (where it is kept, see agentModes.ts) asks for every command, edit and fetch (it reads workspace files unasked).
 * - gemini: `--approval-mode default` (a user's settings may default to yolo or auto_edit otherwise).
 * - codex-acp: `-c approval_policy="untrusted"` asks for every command and patch, except the commands codex itself
 *   deems safe and read-only (ls, cat, grep, ...), which it runs unasked, anywhere on disk; the sandbox
 *   `workspace-write` keeps what runs after an allow to the workspace (it needs bubblewrap on Linux).
 * - opencode: asks for nothing by default; an `OPENCODE_CONFIG_CONTENT` with `permission` "ask" for every tool is
 *   merged into the user's own (see opencodeConfig.ts).
 * - qwen: `--approval-mode default` (its own default, `auto`, lets a model approve commands).
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
  /** How much of what the agent does it asks about (and so reaches the gate). */
  readonly asks: AgentAsking;
}

/**
 * `all`: every command, edit and fetch is asked (reads inside the workspace may not be); `partial`: some calls run
 * unasked (`unasked` says which, in English for the log; the UI has its own words); `never`: the agent does not ask,
 * the gate sees nothing.
 */
export type AgentAsking =
  { readonly level: 'all' } | { readonly level: 'partial'; readonly unasked: string } | { readonly level: 'never' };

const ALL: AgentAsking = Object.freeze({ level: 'all' });

function preset(p: Omit<AgentPreset, 'install' | 'asks'> & { asks?: AgentAsking }): AgentPreset {
  return Object.freeze({
    asks: ALL,
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
    args: ['--acp', '--approval-mode', 'default'],
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
    args: ['-c', 'approval_policy="untrusted"', '-c', 'sandbox_mode="workspace-write"'],
    npmPackage: '@zed-industries/codex-acp',
    env: ['OPENAI_API_KEY', 'CODEX_HOME'],
    // Does not exit on stdin EOF.
    graceMs: 250,
    termMs: 1000,
    asks: {
      level: 'partial',
      unasked: 'commands codex deems safe and read-only (ls, cat, grep, ...), anywhere on disk',
    },
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
    args: ['--acp', '--approval-mode', 'default'],
    npmPackage: '@qwen-code/qwen-code',
    env: ['OPENAI_API_KEY', 'OPENAI_BASE_URL', 'OPENAI_MODEL', 'DASHSCOPE_API_KEY'],
    graceMs: 2500,
    termMs: 2000,
  }),
]);

export function presetById(id: string): AgentPreset | undefined {
  return PRESETS.find((p) => p.id === id);
}

/** What a runtime label says about asking: a preset's own, else unknown (a custom command: nobody checked). */
export function askingOf(runtime: string): AgentAsking | undefined {
  return presetById(runtime)?.asks;
}

/** Grace periods for a command nobody measured: a short EOF wait, then SIGTERM, then SIGKILL. */
export const DEFAULT_GRACE_MS = 1500;
export const DEFAULT_TERM_MS = 2000;
