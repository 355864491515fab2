/**
 * The one list of paths that make later commands run code (git hooks and config, editor tasks and settings, direnv,
 * shell start files, package-manager and agent settings), read by both enforcers: the gate never writes into them
 * unasked ({@link protectedWrite}, any depth), and the sandbox keeps them read-only inside every writable folder it
 * mounts, blocking the ones that do not exist yet (src/local/sandbox/plan.ts). Pure.
 */

/** Folders whose contents run or are trusted by later commands or agents. */
export const PROTECTED_DIRS: readonly string[] = Object.freeze([
  '.git',
  '.husky',
  '.githooks',
  '.claude',
  '.gemini',
  '.codex',
  '.qwen',
  '.opencode',
  '.cursor',
  '.windsurf',
  '.vscode',
  '.idea',
  '.devcontainer',
  '.ssh',
  '.gnupg',
  '.direnv',
]);

/** Two-level folders (`.config/git`, `.local/bin`: a home opened as the workspace). */
export const PROTECTED_SUBDIRS: readonly string[] = Object.freeze([
  '.config/git',
  '.config/fish',
  '.config/direnv',
  '.config/nvim',
  '.config/systemd',
  '.config/autostart',
  '.local/bin',
]);

/** What shells and the programs they start read from a home's top: run code when they start. */
const SHELL_START_FILES: readonly string[] = [
  '.bashrc',
  '.bash_profile',
  '.bash_login',
  '.bash_logout',
  '.profile',
  '.zshrc',
  '.zprofile',
  '.zshenv',
  '.zlogin',
  '.zlogout',
  '.kshrc',
  '.cshrc',
  '.tcshrc',
  '.inputrc',
  '.vimrc',
  '.exrc',
  '.curlrc',
  '.wgetrc',
  '.netrc',
];

/** Files that run code when a shell, git, npm, direnv, an editor or an agent starts. */
export const PROTECTED_FILES: readonly string[] = Object.freeze([
  '.gitmodules',
  '.gitattributes',
  '.gitconfig',
  '.mcp.json',
  'opencode.json',
  'opencode.jsonc',
  '.envrc',
  ...SHELL_START_FILES,
  '.npmrc',
  '.yarnrc',
  '.yarnrc.yml',
  '.pnpmfile.cjs',
  '.pre-commit-config.yaml',
]);

/** Every entry, folder-relative (what the sandbox protects at the top of each writable folder). */
export const PROTECTED_NAMES: readonly string[] = Object.freeze([
  ...PROTECTED_DIRS,
  ...PROTECTED_SUBDIRS,
  ...PROTECTED_FILES,
]);

/**
 * The names that run code from a home's top (shell start files, `~/.ssh`, `~/.config/git`, `~/.local/bin`): where
 * they do not exist yet, the sandbox blocks them only in a folder that is a home (in a project they would only
 * clutter it with empty files); where they exist, they are read-only everywhere.
 */
export const HOME_ONLY_NAMES: readonly string[] = Object.freeze([
  '.ssh',
  '.gnupg',
  ...PROTECTED_SUBDIRS,
  '.gitconfig',
  ...SHELL_START_FILES,
]);

const DIRS = new Set(PROTECTED_DIRS);
const FILES = new Set(PROTECTED_FILES);
const SUBDIRS = new Set(PROTECTED_SUBDIRS);

/**
 * Why a write to `path` (absolute, normalised) is never automatic, or undefined: it is in one of
 * {@link PROTECTED_DIRS} or {@link PROTECTED_SUBDIRS} at any depth (`.git/` — config, hooks, info/attributes —,
 * `.husky/`, an agent's own settings, editor settings `.vscode/` (tasks.json, launch.json, settings.json), `~/.ssh/`,
 * `~/.config/git/`, `~/.local/bin/`), or it is one of {@link PROTECTED_FILES} (shell rc files, `.envrc`, `.npmrc`,
 * `.gitattributes`, `.mcp.json`, …) or a `.code-workspace` file. `package.json` and `Makefile` are not on it: the
 * gate never runs npm or make on its own account.
 */
export function protectedWrite(path: string): string | undefined {
  const segs = path.split('/').filter((s) => s !== '');
  for (let i = 0; i < segs.length; i++) {
    if (DIRS.has(segs[i])) {
      return `${segs[i]}/ holds hooks, settings or keys that later commands or agents run or trust`;
    }
    const two = `${segs[i]}/${segs[i + 1] ?? ''}`;
    if (SUBDIRS.has(two)) {
      return `${two}/ holds settings or programs that run code`;
    }
  }
  const base = segs[segs.length - 1] ?? '';
  if (FILES.has(base) || base.endsWith('.code-workspace')) {
    return `${base} makes later commands, shells or agents run code`;
  }
  return undefined;
}
