/**
 * What a sandboxed agent sees, as an ordered list of layers, decided from the same inputs as the gate's path scope
 * (the workspace folders and `fountain.local.allowPaths`) plus the agent's own state folders. Pure: everything it
 * needs to know of the file system comes through {@link PathFacts}, so tests give it a fake one.
 *
 * The layers, applied in order (a later layer covers an earlier one at the same place or below):
 * - the system read-only (`/`), `/dev` and `/proc`;
 * - every home emptied (the agent's `HOME`, the user's, `/home`, `/root`, `/Users`), a private `/tmp` (and TMPDIR);
 * - mounts, shallowest first: the agent's program where it lives in an emptied place (read-only: its package tree,
 *   its links' targets, its interpreter, PATH folders; see programMounts.ts), read-only config (`~/.gitconfig`),
 *   the agent's state folders (writable), allowPaths entries (`r` read-only, `w`/`rw` writable), workspace folders
 *   (writable; a symlinked folder is mounted at its link and at its target);
 * - then what makes later commands run code read-only (the one protected list of src/policy/protectedPaths.ts at
 *   the top of each writable folder, the whole `.git` and a worktree's real git folders, the hooks folder, the
 *   agent's own settings), a missing one blocked, and the agent's shell snapshots in a private folder;
 * - last, every hidden path that would still be visible is covered (hidden wins over everything above).
 */
import { isInside, normalisePath, type AllowPath } from '../../policy';
import { allowPathProblem } from '../../policy/scope';
import { HOME_ONLY_NAMES, PROTECTED_DIRS, PROTECTED_NAMES, PROTECTED_SUBDIRS } from '../../policy/protectedPaths';
import type { PathFacts, PathKind } from './facts';
import { AGENT_STATE, HIDDEN_HOME, HIDDEN_SYSTEM, HOME_PARENTS, READ_ONLY_HOME } from './paths';
import { programMounts } from './programMounts';

export type { PathFacts, PathKind } from './facts';

export interface SandboxInput {
  /** The agent's HOME (from its environment). */
  readonly home: string;
  /** Other homes to empty (the user's own when HOME points elsewhere). */
  readonly otherHomes?: readonly string[];
  /** The workspace folders (the session's folder among them). */
  readonly roots: readonly string[];
  readonly cwd: string;
  /** The preset id or the command's basename (the key of {@link AGENT_STATE}). */
  readonly agent: string;
  /** The resolved agent command. */
  readonly command?: string;
  /** The command's arguments (an interpreter's script is mounted with the program). */
  readonly args?: readonly string[];
  /** The agent's environment (PATH, TMPDIR, CLAUDE_CONFIG_DIR, CODEX_HOME, XDG_RUNTIME_DIR). */
  readonly env: Readonly<Record<string, string>>;
  readonly allowPaths: readonly AllowPath[];
  /** More absolute paths never visible (VS Code's storage, passed in by the extension). */
  readonly hidden?: readonly string[];
  /**
   * Absolute git paths to keep read-only where they lie in a writable folder: each repository's `.git`, its real git
   * folder and common folder (a linked worktree's live elsewhere) and the hooks folder `core.hooksPath` names.
   */
  readonly git?: readonly string[];
}

export type MountAccess = 'ro' | 'rw';
export type MountWhy = 'system' | 'program' | 'config' | 'state' | 'allowPaths' | 'workspace' | 'protected';

export type Layer =
  | {
      readonly type: 'mount';
      readonly src: string;
      readonly at: string;
      readonly access: MountAccess;
      readonly why: MountWhy;
    }
  | { readonly type: 'dev' | 'proc'; readonly at: string }
  /** An empty folder in place of `at`: a home (`empty`) or a private temporary folder (`tmp`). */
  | { readonly type: 'empty' | 'tmp'; readonly at: string };

export interface HiddenPath {
  readonly path: string;
  readonly kind: PathKind;
}

export type SkipReason = 'hidden' | 'missing' | 'glob' | 'inWorkspace' | 'limit';

export interface SandboxPlan {
  readonly cwd: string;
  readonly home: string;
  /** In order; then {@link hidden}. */
  readonly layers: readonly Layer[];
  /** Covered last, wherever a layer above left them visible. */
  readonly hidden: readonly HiddenPath[];
  /** Every path that is never visible (existing or not): the scope check of requests reads it. */
  readonly hiddenPatterns: readonly string[];
  /**
   * Protected paths that did not exist: blocked by an empty read-only file, which bubblewrap creates on the real disk
   * as its mount point (empty: removed again when the agent has ended, see `removeBlockers`).
   */
  readonly blocked: readonly string[];
  /** allowPaths entries, state files and folders that were not mounted, and why. */
  readonly skipped: readonly { readonly path: string; readonly reason: SkipReason }[];
}

const join = (dir: string, rel: string) => normalisePath(`${dir}/${rel}`)!;
const depth = (p: string) => (p === '/' ? 0 : p.split('/').length - 1);
const parent = (p: string) => normalisePath(`${p}/..`)!;
const base = (p: string) => p.slice(p.lastIndexOf('/') + 1);
/**
 * Protected folders an agent creates itself at its start and cannot run without (opencode writes
 * `.opencode/.gitignore` into the workspace): read-only when they exist at start, not blocked when missing.
 */
const CREATED_BY_AGENTS = new Set(['.opencode']);
/** Protected names that are folders: blocked, when missing, by an empty read-only folder. */
const BLOCKED_AS_FOLDER = new Set([
  ...PROTECTED_DIRS,
  ...PROTECTED_SUBDIRS.map((d) => d.slice(d.lastIndexOf('/') + 1)),
]);

/** The folder an allowPaths pattern names: itself, or the base of a trailing `/...` or `/**`; undefined for globs. */
export function patternFolder(pattern: string): string | undefined {
  const tree = /\/(\.\.\.|\*\*)$/.exec(pattern);
  const rest = tree ? pattern.slice(0, tree.index) || '/' : pattern;
  return /[*?]/.test(rest) ? undefined : normalisePath(rest);
}

export function planSandbox(input: SandboxInput, facts: PathFacts): SandboxPlan {
  const skipped: { path: string; reason: SkipReason }[] = [];
  const both = (p: string): string[] => {
    const r = facts.real(p);
    return r !== undefined && r !== p ? [p, r] : [p];
  };
  const abs = (p: string | undefined) => (p ? normalisePath(p) : undefined);
  const home = abs(input.home) ?? '/';
  const homes = [home, ...(input.otherHomes ?? []).map(abs)].filter((h): h is string => !!h && h !== '/');

  // Hidden: every home's secrets, the system's sockets, the extension's storage, and their link targets.
  const hiddenPatterns = new Set<string>();
  const hideCandidates = [
    ...homes.flatMap((h) => HIDDEN_HOME.map((rel) => join(h, rel))),
    ...HIDDEN_SYSTEM,
    ...(input.hidden ?? []),
    ...(input.env.XDG_RUNTIME_DIR ? [input.env.XDG_RUNTIME_DIR] : []),
  ];
  for (const c of hideCandidates) {
    const p = abs(c);
    if (p && p !== '/') {
      both(p).forEach((x) => hiddenPatterns.add(x));
    }
  }
  const isHidden = (p: string) => [...hiddenPatterns].some((h) => isInside(p, h));

  const layers: Layer[] = [
    { type: 'mount', src: '/', at: '/', access: 'ro', why: 'system' },
    { type: 'dev', at: '/dev' },
    { type: 'proc', at: '/proc' },
  ];
  const emptied = new Set<string>();
  for (const h of [...homes, ...HOME_PARENTS]) {
    if (h === '/' || (!homes.includes(h) && facts.kind(h) !== 'dir')) {
      continue;
    }
    both(h).forEach((x) => emptied.add(x));
  }
  emptied.forEach((at) => layers.push({ type: 'empty', at }));
  const tmps = new Set(['/tmp']);
  const tmpdir = abs(input.env.TMPDIR);
  const roots = input.roots.map(abs).filter((r): r is string => r !== undefined);
  if (tmpdir && tmpdir !== '/' && !roots.some((r) => isInside(tmpdir, r) || isInside(r, tmpdir)) && !isHidden(tmpdir)) {
    tmps.add(tmpdir);
  }
  [...tmps].flatMap(both).forEach((at) => layers.push({ type: 'tmp', at }));

  const mounts: Extract<Layer, { type: 'mount' }>[] = [];
  const mount = (path: string, access: MountAccess, why: MountWhy, skipMissing = true) => {
    const src = facts.real(path);
    if (src === undefined) {
      if (skipMissing) {
        skipped.push({ path, reason: 'missing' });
      }
      return;
    }
    if (isHidden(path) || isHidden(src)) {
      skipped.push({ path, reason: 'hidden' });
      return;
    }
    for (const at of src === path ? [path] : [path, src]) {
      mounts.push({ type: 'mount', src, at, access, why });
    }
  };
  // The agent's program where it lives in an emptied place, read-only: its whole package tree, what that tree's
  // links lead to, its interpreter, and the PATH's folders there (src/local/sandbox/programMounts.ts says how).
  const program = programMounts(
    {
      command: input.command,
      ...(input.args ? { args: input.args } : {}),
      cwd: input.cwd,
      path: input.env.PATH,
      roots: roots.flatMap(both),
      emptied: [...emptied, ...[...tmps].flatMap(both)],
    },
    facts,
  );
  program.dirs.forEach((d) => mount(d, 'ro', 'program', false));
  skipped.push(...program.skipped);

  for (const rel of READ_ONLY_HOME) {
    mount(join(home, rel), 'ro', 'config', false);
  }

  const state = AGENT_STATE[input.agent];
  if (state) {
    const override = state.envOverride ? abs(input.env[state.envOverride]) : undefined;
    if (override && override !== '/') {
      mount(override, 'rw', 'state');
    } else {
      state.dirs.forEach((rel) => mount(join(home, rel), 'rw', 'state'));
      state.files.forEach((rel) => mount(join(home, rel), 'rw', 'state', false));
    }
  }

  for (const entry of input.allowPaths) {
    if (allowPathProblem(entry) !== undefined) {
      continue;
    }
    const folder = patternFolder(entry.pattern);
    if (folder === undefined) {
      skipped.push({ path: entry.pattern, reason: 'glob' });
    } else if (roots.some((r) => isInside(folder, r))) {
      skipped.push({ path: entry.pattern, reason: 'inWorkspace' });
    } else {
      mount(folder, entry.access === 'r' ? 'ro' : 'rw', 'allowPaths');
    }
  }

  for (const root of roots) {
    mount(root, 'rw', 'workspace');
  }

  // Shallowest first (stable, so at one depth an emptied home comes before what is mounted back into it).
  const ordered = [...layers, ...mounts]
    .map((l, i) => ({ l, i }))
    .sort((a, b) => depth(a.l.at) - depth(b.l.at) || a.i - b.i)
    .map((x) => x.l);

  // Last, the paths that make later commands run code, read-only over the writable folders they sit in: the one
  // protected list at the top of every writable workspace and allowPaths folder, each repository's git folders
  // (given by the caller: a worktree's real git folder, the common folder, the hooks folder), and the agent's own
  // settings in its state folders. One that does not exist yet is blocked at its first missing component by an
  // empty read-only file (the Codex way), so it cannot be created either; a mount point cannot be renamed or removed.
  const writable = mounts.filter((m) => m.access === 'rw');
  const inWritable = (p: string) => writable.some((m) => isInside(p, m.at));
  const late: Layer[] = [];
  const blocked: string[] = [];
  const covered = (p: string) => late.some((l) => l.type === 'mount' && l.access === 'ro' && isInside(p, l.at));
  const protect = (p: string, hops = 0, blockMissing = true): void => {
    if (isHidden(p) || covered(p) || !inWritable(p)) {
      return;
    }
    const src = facts.real(p);
    if (src !== undefined) {
      late.push({ type: 'mount', src, at: p, access: 'ro', why: 'protected' });
      // A link to a writable place: what it leads to is written there, and read through the link outside.
      if (src !== p && hops < 8) {
        protect(src, hops + 1);
      }
      return;
    }
    const target = facts.link?.(p);
    if (target !== undefined) {
      // A dangling link: the file a write through it would create is the one to block.
      if (hops < 8) {
        protect(target.startsWith('/') ? normalisePath(target)! : join(parent(p), target), hops + 1);
      }
      return;
    }
    if (!blockMissing) {
      return;
    }
    let missing = p;
    while (parent(missing) !== missing && facts.real(parent(missing)) === undefined) {
      missing = parent(missing);
    }
    if (!covered(missing) && inWritable(missing) && !isHidden(missing) && facts.link?.(missing) === undefined) {
      // A folder (a protected folder's name, or the first missing folder above a protected file) is blocked by an
      // empty read-only folder, so a program that looks inside (opencode reads .opencode/opencode.json) finds
      // nothing there rather than a device; a file by an empty read-only file.
      const folder = missing !== p || BLOCKED_AS_FOLDER.has(base(missing));
      late.push(
        folder
          ? { type: 'empty', at: missing }
          : { type: 'mount', src: '/dev/null', at: missing, access: 'ro', why: 'protected' },
      );
      blocked.push(missing);
    }
  };
  const homeOnly = new Set(HOME_ONLY_NAMES);
  const isHome = (p: string) => homes.includes(p) || HOME_PARENTS.includes(parent(p));
  for (const m of writable) {
    if (m.why === 'workspace' || m.why === 'allowPaths') {
      PROTECTED_NAMES.forEach((rel) =>
        protect(join(m.at, rel), 0, !CREATED_BY_AGENTS.has(rel) && (isHome(m.at) || !homeOnly.has(rel))),
      );
    }
  }
  (input.git ?? []).map(abs).forEach((p) => p && p !== '/' && protect(p));
  if (state) {
    const override = state.envOverride ? abs(input.env[state.envOverride]) : undefined;
    const inState = (rel: string) =>
      override && override !== '/' ? join(override, rel) : join(home, `${state.dirs[0]}/${rel}`);
    (state.readOnly ?? []).forEach((rel) => protect(inState(rel.replace(/\/$/, ''))));
    for (const rel of state.private ?? []) {
      const at = inState(rel);
      if (inWritable(at) && !isHidden(at)) {
        late.push({ type: 'tmp', at });
      }
    }
  }
  const protectedMounts = late
    .map((l, i) => ({ l, i }))
    .sort((a, b) => depth(a.l.at) - depth(b.l.at) || a.i - b.i)
    .map((x) => x.l);
  const all = [...ordered, ...protectedMounts];

  // A hidden path that exists and that the deepest layer above it leaves visible gets covered.
  const hidden: HiddenPath[] = [];
  for (const path of hiddenPatterns) {
    const kind = facts.kind(path);
    if (kind === undefined) {
      continue;
    }
    let top: Layer | undefined;
    for (const l of all) {
      if (isInside(path, l.at) && (!top || depth(l.at) >= depth(top.at))) {
        top = l;
      }
    }
    if (top?.type === 'mount') {
      hidden.push({ path, kind });
    }
  }
  return {
    cwd: abs(input.cwd) ?? input.cwd,
    home,
    layers: all,
    hidden,
    hiddenPatterns: [...hiddenPatterns],
    skipped,
    blocked,
  };
}
