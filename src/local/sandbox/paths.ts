/**
 * The fixed lists the sandbox is built from: each agent's own state folders (keyed by preset id and by command
 * basename), the read-only configuration that commands need, the secrets that are never visible, and the workspace
 * files that make later commands run code (read-only even though the workspace is writable). Home-relative paths
 * are written without the leading `~/`.
 */

/** One agent's own state: folders (created when missing, so sign-in survives) and files (bound when they exist). */
export interface AgentState {
  readonly dirs: readonly string[];
  readonly files: readonly string[];
  /** A variable that, when set, replaces `dirs` and `files` with the one folder it names. */
  readonly envOverride?: string;
}

const CLAUDE: AgentState = { dirs: ['.claude'], files: ['.claude.json'], envOverride: 'CLAUDE_CONFIG_DIR' };
const GEMINI: AgentState = { dirs: ['.gemini'], files: [] };
const CODEX: AgentState = { dirs: ['.codex'], files: [], envOverride: 'CODEX_HOME' };
const OPENCODE: AgentState = {
  dirs: ['.local/share/opencode', '.local/state/opencode', '.config/opencode', '.cache/opencode'],
  files: [],
};
const QWEN: AgentState = { dirs: ['.qwen'], files: [] };

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

/**
 * Workspace-relative paths that make later commands run code (git hooks and config, editor tasks and settings,
 * direnv, the agents' own hook settings): read-only inside a writable workspace, when they exist at start.
 */
export const PROTECTED_WORKSPACE: readonly string[] = Object.freeze([
  '.git/config',
  '.git/hooks',
  '.git/info',
  '.gitmodules',
  '.husky',
  '.envrc',
  '.vscode',
  '.devcontainer',
  '.claude',
  '.gemini',
  '.codex',
  '.qwen',
  '.opencode',
  'opencode.json',
]);

/** Where other users' homes live: emptied like the agent's own (a workspace or allowPaths entry inside comes back). */
export const HOME_PARENTS: readonly string[] = Object.freeze(['/home', '/root', '/Users']);
