/**
 * The fixed lists the sandbox is built from: each agent's own state folders (keyed by preset id and by command
 * basename) with the settings and hooks in them that stay read-only, the read-only configuration that commands
 * need, and the secrets that are never visible. The workspace files that make later commands run code are the one
 * protected list of src/policy/protectedPaths.ts. Home-relative paths are written without the leading `~/`.
 */

/** One agent's own state: folders (created when missing, so sign-in survives) and files (bound when they exist). */
export interface AgentState {
  readonly dirs: readonly string[];
  readonly files: readonly string[];
  /** A variable that, when set, replaces `dirs` and `files` with the one folder it names. */
  readonly envOverride?: string;
  /**
   * Inside the first of `dirs` (or the override): the agent's settings and hooks, read-only although the folder is
   * writable (a command inside could otherwise add a hook that runs when the agent next starts outside). Created
   * before the start when missing (a folder when written with a trailing `/`, a `.json` file as `{}`).
   */
  readonly readOnly?: readonly string[];
  /** Inside the first of `dirs` (or the override): folders the agent writes only for itself, private inside. */
  readonly private?: readonly string[];
}

const CLAUDE: AgentState = {
  dirs: ['.claude'],
  files: ['.claude.json'],
  envOverride: 'CLAUDE_CONFIG_DIR',
  readOnly: ['settings.json', 'settings.local.json', 'hooks/', 'commands/', 'agents/', 'plugins/'],
  // Claude sources a snapshot of the shell from here before each command: one written inside stays inside.
  private: ['shell-snapshots'],
};
const GEMINI: AgentState = { dirs: ['.gemini'], files: [], readOnly: ['settings.json', 'commands/', 'extensions/'] };
const CODEX: AgentState = { dirs: ['.codex'], files: [], envOverride: 'CODEX_HOME', readOnly: ['config.toml'] };
const OPENCODE: AgentState = {
  dirs: ['.config/opencode', '.local/share/opencode', '.local/state/opencode', '.cache/opencode'],
  files: [],
  readOnly: ['opencode.json', 'opencode.jsonc', 'config.json', 'plugin/', 'command/', 'agent/'],
};
const QWEN: AgentState = { dirs: ['.qwen'], files: [], readOnly: ['settings.json', 'commands/'] };

/** By preset id and by command basename (a custom entry running `gemini` gets gemini's folder). */
export const AGENT_STATE: Readonly<Record<string, AgentState>> = Object.freeze({
  claude: CLAUDE,
  'claude-agent-acp': CLAUDE,
  gemini: GEMINI,
  codex: CODEX,
  'codex-acp': CODEX,
  opencode: OPENCODE,
  qwen: QWEN,
});

/** Read-only inside the sandbox when they exist: what `git` and similar commands read. */
export const READ_ONLY_HOME: readonly string[] = Object.freeze(['.gitconfig', '.config/git']);

/**
 * Never visible, even when a workspace folder, an allowPaths entry or a state folder contains them (hidden wins):
 * keys and tokens, cloud and cluster credentials, password stores, browser profiles, VS Code's own storage.
 */
export const HIDDEN_HOME: readonly string[] = Object.freeze([
  '.ssh',
  '.aws',
  '.gnupg',
  '.netrc',
  '.docker',
  '.kube',
  '.config/gh',
  '.config/hub',
  '.git-credentials',
  '.config/git/credentials',
  '.npmrc',
  '.pypirc',
  '.cargo/credentials.toml',
  '.config/gcloud',
  '.azure',
  '.oci',
  '.config/doctl',
  '.terraform.d/credentials.tfrc.json',
  '.password-store',
  '.local/share/keyrings',
  '.pki',
  // Browser profiles.
  '.mozilla',
  '.config/google-chrome',
  '.config/chromium',
  '.config/BraveSoftware',
  '.config/microsoft-edge',
  '.config/vivaldi',
  '.var/app',
  '.cache/google-chrome',
  '.cache/chromium',
  '.cache/mozilla',
  // VS Code and its relatives (settings, global state, SecretStorage).
  '.vscode',
  '.vscode-server',
  '.vscode-insiders',
  '.vscode-oss',
  '.vscode-remote',
  '.cursor',
  '.config/Code',
  '.config/Code - Insiders',
  '.config/Code - OSS',
  '.config/VSCodium',
  '.config/Cursor',
  '.local/share/code-server',
  '.config/code-server',
  // macOS.
  'Library/Keychains',
  'Library/Cookies',
  'Library/Safari',
  'Library/Application Support/Google/Chrome',
  'Library/Application Support/Firefox',
  'Library/Application Support/BraveSoftware',
  'Library/Application Support/Microsoft Edge',
  'Library/Application Support/Code',
  'Library/Application Support/Code - Insiders',
  'Library/Application Support/VSCodium',
  'Library/Application Support/Cursor',
]);

/** Absolute paths never visible (sockets that are a root shell away, other users' sessions). */
export const HIDDEN_SYSTEM: readonly string[] = Object.freeze([
  '/run/user',
  '/var/run/docker.sock',
  '/run/docker.sock',
  '/run/containerd/containerd.sock',
  '/run/podman/podman.sock',
]);

/** Where other users' homes live: emptied like the agent's own (a workspace or allowPaths entry inside comes back). */
export const HOME_PARENTS: readonly string[] = Object.freeze(['/home', '/root', '/Users']);
