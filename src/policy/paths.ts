/**
 * Paths as the gate places them: a word (an operand, a redirection target, a tool location) made absolute against
 * the working directory it is used in, `..` applied, and symlinks resolved through an injected resolver (this
 * folder is pure: the caller that has a file system passes `realpath`), and the devices that are network connections.
 * The paths no write reaches unasked are in ./protectedPaths.ts (one list, the sandbox reads it too).
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
