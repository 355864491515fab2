/**
 * Paths as the gate places them: a word (an operand, a redirection target, a tool location) made absolute against
 * the working directory it is used in, `..` applied, and symlinks resolved through an injected resolver (this
 * folder is pure: the caller that has a file system passes `realpath`). Plus the paths no write reaches unasked
 * (they make later commands run code) and the devices that are network connections.
 */
import { normalisePath } from './scope';

export interface PathEnv {
  /** The request's working directory (absolute). */
  readonly cwd?: string;
  /** The user's home directory (for `~` in globs). */
  readonly home?: string;
  /**
   * Symlinks resolved: the real path of an absolute path (for a path that does not exist yet, its nearest existing
   * parent resolved and the rest appended), or undefined when it cannot be resolved.
   */
  readonly realpath?: (path: string) => string | undefined;
}

export interface PlacedPath {
  /** Absolute, `..` applied, symlinks resolved when a resolver was given. */
  readonly path: string;
  /** Absolute and `..` applied, links not followed (deny patterns see both). */
  readonly lexical: string;
  /** A resolver was given and could not resolve it. */
  readonly unresolved: boolean;
}

/** `dir` relative to `cwd` (both may be relative; undefined when nothing absolute is known). */
export function joinDir(cwd: string | undefined, dir: string | undefined): string | undefined {
  if (dir === undefined) {
    return cwd;
  }
  if (dir.startsWith('/')) {
    return dir;
  }
  return cwd !== undefined && cwd.startsWith('/') ? `${cwd.replace(/\/+$/, '')}/${dir}` : undefined;
}

/** A path word placed (see the file comment), or undefined when it is relative and no working directory is known. */
export function placePath(word: string, cwd: string | undefined, env: PathEnv): PlacedPath | undefined {
  const abs = word.startsWith('/') ? word : joinDir(cwd, word);
  const lexical = abs !== undefined ? normalisePath(abs) : undefined;
  if (abs === undefined || lexical === undefined) {
    return undefined;
  }
  if (env.realpath === undefined) {
    return { path: lexical, lexical, unresolved: false };
  }
  let real: string | undefined;
  try {
    real = env.realpath(abs);
  } catch {
    real = undefined;
  }
  const norm = real !== undefined ? normalisePath(real) : undefined;
  return norm !== undefined ? { path: norm, lexical, unresolved: false } : { path: lexical, lexical, unresolved: true };
}

/** Devices that open network connections when read or written (bash's /dev/tcp and /dev/udp). */
export function isNetworkDevice(path: string): boolean {
  return /^\/dev\/(?:tcp|udp)(?:\/|$)/.test(path);
}

/** Output targets that write nothing anyone keeps. */
export function isHarmlessDevice(path: string): boolean {
  return /^\/dev\/(?:null|stdout|stderr|fd\/[0-9]+|zero|full)$/.test(path) || path === '/dev/tty';
}

const PROTECTED_DIRS = new Set([
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
  '.ssh',
  '.gnupg',
  '.direnv',
]);
const PROTECTED_FILES = new Set([
  '.gitmodules',
  '.gitattributes',
  '.gitconfig',
  '.mcp.json',
  'opencode.json',
  'opencode.jsonc',
  '.envrc',
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
  '.npmrc',
  '.yarnrc',
  '.yarnrc.yml',
  '.pnpmfile.cjs',
  '.pre-commit-config.yaml',
  '.vimrc',
  '.exrc',
  '.curlrc',
  '.wgetrc',
  '.netrc',
]);

/**
 * Why a write to `path` (absolute, normalised) is never automatic, or undefined: it is in a directory that holds
 * hooks, settings or keys (`.git/` — config, hooks, info/attributes —, `.husky/`, an agent's own settings
 * `.claude/`, `.gemini/`, `.codex/`, `.qwen/`, `.opencode/`, editor settings `.vscode/` (tasks.json, launch.json,
 * settings.json), `.idea/`, `~/.ssh/`, `~/.config/git/`, `~/.config/fish/`), or a file that runs code when a shell, git,
 * npm, direnv or an agent starts (shell rc files, `.envrc`, `.npmrc`, `.gitattributes`, `.mcp.json`, …).
 * `package.json` and `Makefile` are not on it: the gate never runs npm or make on its own account.
 */
export function protectedWrite(path: string): string | undefined {
  const segs = path.split('/').filter((s) => s !== '');
  for (let i = 0; i < segs.length; i++) {
    if (PROTECTED_DIRS.has(segs[i])) {
      return `${segs[i]}/ holds hooks, settings or keys that later commands or agents run or trust`;
    }
    if (
      segs[i] === '.config' &&
      ['git', 'fish', 'direnv', 'nvim', 'systemd', 'autostart'].includes(segs[i + 1] ?? '')
    ) {
      return `.config/${segs[i + 1]}/ holds settings that run code`;
    }
  }
  const base = segs[segs.length - 1] ?? '';
  if (PROTECTED_FILES.has(base) || base.endsWith('.code-workspace')) {
    return `${base} makes later commands, shells or agents run code`;
  }
  return undefined;
}
