/**
 * What of an agent's program must be mounted back into the sandbox, read-only, when it lives in a place the sandbox
 * empties (a home, the temporary folder). Pure: the file system comes through {@link PathFacts}.
 *
 * An agent is rarely one file. Installed by npm, nvm, bun, pnpm, volta, yarn, the npx cache or a project's own
 * `node_modules`, its command is a link (or a chain of them) to an entry file inside a package tree whose
 * dependencies sit in the same `node_modules`, or behind more links (pnpm's and bun's stores), and a script entry is
 * run by an interpreter (`#!/usr/bin/env node`) that may itself live in a home (nvm, volta, bun). Mounted:
 * - every folder of the agent's PATH in an emptied place, with `prefix/lib` next to a `prefix/bin` (npm prefixes);
 * - for the command: the folder of each link on the way to its entry file, and the entry's package tree: the
 *   OUTERMOST `node_modules` above it (else its own folder); a Volta shim gets its Volta home;
 * - the package trees that links inside those trees lead to (walked over package positions only, bounded);
 * - the interpreter a script's first line names (looked up on PATH for `env`), mounted the same way.
 * Nothing inside a workspace folder (mounted writable already) and nothing outside an emptied place (visible
 * read-only already) is returned.
 */
import { isInside, normalisePath } from '../../policy/scope';
import type { PathFacts } from './facts';

/** Package trees reached through links, at most (pnpm's global virtual store has one per package). */
export const MAX_LINKED_TREES = 200;
/** `node_modules` folders listed while looking for links, at most. */
export const MAX_LISTED = 5000;
/** Links followed from a command to its entry file, at most (a loop ends here too). */
const MAX_HOPS = 16;
/** Interpreters followed (a script run by a script), at most. */
const MAX_INTERPRETERS = 3;

export interface ProgramInput {
  /** The resolved agent command (absolute). */
  readonly command: string | undefined;
  /** The command's arguments: when the command is an interpreter, the script it runs is mounted like a program. */
  readonly args?: readonly string[];
  /** Where the command runs (a relative script argument is resolved against it). */
  readonly cwd?: string;
  /** The agent's PATH. */
  readonly path: string | undefined;
  /** The workspace folders (mounted writable; nothing of theirs is mounted read-only over them). */
  readonly roots: readonly string[];
  /** The folders the sandbox empties (the homes, the private temporary folders), at their links and targets. */
  readonly emptied: readonly string[];
}

/** `limit`: a bound of the walk was reached; what it would have mounted next is named. */
export interface ProgramSkip {
  readonly path: string;
  readonly reason: 'limit';
}

export interface ProgramMounts {
  /** Folders to mount read-only (at themselves and at their targets), none inside another. */
  readonly dirs: readonly string[];
  readonly skipped: readonly ProgramSkip[];
}

const join = (dir: string, rel: string) => normalisePath(rel.startsWith('/') ? rel : `${dir}/${rel}`)!;
const parent = (p: string) => normalisePath(`${p}/..`)!;
const base = (p: string) => p.slice(p.lastIndexOf('/') + 1);

/** The outermost `node_modules` folder `p` lies in (or is); undefined when none. */
export function outermostNodeModules(p: string): string | undefined {
  const segs = p.split('/');
  const i = segs.indexOf('node_modules');
  return i > 0 ? segs.slice(0, i + 1).join('/') : undefined;
}

/** The program a script's first line names: `#!/abs/path` or `#!/usr/bin/env [-S] [NAME=v…] name`. */
export function shebangProgram(line: string | undefined): string | undefined {
  if (!line?.startsWith('#!')) {
    return undefined;
  }
  const [prog, ...rest] = line.slice(2).trim().split(/\s+/);
  if (!prog) {
    return undefined;
  }
  if (base(prog) !== 'env') {
    return prog;
  }
  return rest.find((w) => !w.startsWith('-') && !/^[A-Za-z_][A-Za-z0-9_]*=/.test(w));
}

/** Interpreters whose first argument that is not an option is the script they run. */
const INTERPRETERS = /^(?:node|nodejs|bun|deno|tsx|python[0-9.]*|ruby|perl|bash|sh|dash|zsh)$/;

/**
 * The script an interpreter command runs: its first argument that is not an option (`node --enable-x a.js` → a.js),
 * made absolute against `cwd`; undefined when the command is no interpreter or names no script.
 */
export function scriptArgument(command: string, args: readonly string[], cwd: string | undefined): string | undefined {
  if (!INTERPRETERS.test(base(command))) {
    return undefined;
  }
  const first = args.find((a) => !a.startsWith('-'));
  if (first === undefined || first === '') {
    return undefined;
  }
  if (first.startsWith('/')) {
    return normalisePath(first);
  }
  return cwd !== undefined ? normalisePath(`${cwd}/${first}`) : undefined;
}

export function programMounts(input: ProgramInput, facts: PathFacts): ProgramMounts {
  const dirs = new Set<string>();
  const skipped: ProgramSkip[] = [];
  const pathDirs = (input.path ?? '')
    .split(':')
    .map((e) => normalisePath(e))
    .filter((p): p is string => p !== undefined);
  const inRoot = (p: string) => input.roots.some((r) => isInside(p, r));
  const inEmptied = (p: string) => input.emptied.some((e) => isInside(p, e));
  const emptied = (p: string) => {
    const r = facts.real(p);
    return inEmptied(p) || (r !== undefined && inEmptied(r));
  };
  // Strictly inside an emptied folder: a home itself (or what holds one) is never mounted back whole.
  const holdsEmptied = (p: string) => input.emptied.some((e) => isInside(e, p));
  /** Adds a folder when it must be mounted back; true when it was added (or already was). */
  const want = (d: string): boolean => {
    const r = facts.real(d);
    if (r === undefined || facts.kind(d) !== 'dir' || !emptied(d) || [d, r].some((x) => holdsEmptied(x) || inRoot(x))) {
      return false;
    }
    // A link outside the emptied places (visible already) to a folder inside them: only the target is mounted
    // (bubblewrap cannot mount onto the link itself, whose target is not there yet).
    dirs.add(inEmptied(d) ? d : r);
    return true;
  };

  // The PATH's folders in emptied places (other programs the agent runs), and an npm prefix's lib beside its bin.
  for (const p of pathDirs) {
    if (want(p) && base(p) === 'bin') {
      want(join(parent(p), 'lib'));
    }
  }

  // Package trees whose links are still to be followed, and every tree seen.
  const trees: string[] = [];
  const addTree = (file: string) => {
    const tree = outermostNodeModules(file) ?? parent(file);
    if (!trees.some((t) => isInside(tree, t)) && want(tree)) {
      trees.push(tree);
    }
  };

  const program = (command: string, depth: number) => {
    // The folder of each link on the way (each is looked up inside), and its package tree.
    let at = command;
    for (let hop = 0; hop < MAX_HOPS; hop++) {
      want(parent(at));
      addTree(at);
      const target = facts.link(at);
      if (target === undefined) {
        break;
      }
      at = join(facts.real(parent(at)) ?? parent(at), target);
    }
    const entry = facts.real(command);
    if (entry === undefined) {
      return;
    }
    addTree(entry);
    // A Volta shim runs what Volta installed under its home (`~/.volta/bin/volta-shim` → `~/.volta`).
    if (base(entry) === 'volta-shim' && base(parent(entry)) === 'bin') {
      want(parent(parent(entry)));
    }
    const named = shebangProgram(facts.firstLine(entry));
    if (named === undefined || depth >= MAX_INTERPRETERS) {
      return;
    }
    const interpreter = named.includes('/')
      ? normalisePath(named)
      : pathDirs.map((d) => join(d, named)).find((p) => facts.kind(p) === 'file');
    if (interpreter !== undefined && emptied(interpreter)) {
      program(interpreter, depth + 1);
    }
  };
  const command = input.command !== undefined ? normalisePath(input.command) : undefined;
  if (command !== undefined) {
    program(command, 0);
    // `node /home/u/agent/index.js`: the script and its package tree are the agent's program too.
    const script = scriptArgument(command, input.args ?? [], input.cwd);
    if (script !== undefined && emptied(script) && facts.kind(script) === 'file') {
      program(script, 1);
      // Node looks for packages in every folder above the script: each node_modules there, inside the emptied place.
      for (let dir = parent(script); dir !== '/' && emptied(dir); dir = parent(dir)) {
        const nm = join(dir, 'node_modules');
        if (facts.kind(nm) === 'dir') {
          want(nm);
        }
      }
    }
  }

  followLinks(trees, facts, addTree, skipped);

  const all = [...dirs];
  return { dirs: all.filter((d) => !all.some((o) => o !== d && isInside(d, o))), skipped };
}

/**
 * Walks the `node_modules` trees over package positions only (`node_modules/<name>`, `node_modules/@scope/<name>`,
 * pnpm's `node_modules/.pnpm/<id>/node_modules`, a package's own `node_modules`): a link there that leads out of
 * every tree seen adds the tree it leads to (through `addTree`, which appends to `trees`), walked in turn. Bounded by
 * {@link MAX_LISTED} folders listed and {@link MAX_LINKED_TREES} trees added; past either, the next one is skipped.
 */
function followLinks(trees: string[], facts: PathFacts, addTree: (file: string) => void, skipped: ProgramSkip[]): void {
  const queue = trees.filter((t) => base(t) === 'node_modules');
  const first = trees.length;
  let listed = 0;
  const packagesIn = (nm: string): string[] => {
    listed++;
    const out: string[] = [];
    for (const name of facts.list(nm) ?? []) {
      const p = `${nm}/${name}`;
      if (name === '.bin') {
        continue;
      } else if (name === '.pnpm') {
        listed++;
        (facts.list(p) ?? []).forEach((id) => queue.push(`${p}/${id}/node_modules`));
      } else if (name.startsWith('@') && facts.link(p) === undefined) {
        listed++;
        (facts.list(p) ?? []).forEach((n) => out.push(`${p}/${n}`));
      } else {
        out.push(p);
      }
    }
    return out;
  };
  while (queue.length) {
    const nm = queue.shift()!;
    if (listed >= MAX_LISTED) {
      skipped.push({ path: nm, reason: 'limit' });
      return;
    }
    for (const pkg of packagesIn(nm)) {
      if (facts.link(pkg) === undefined) {
        if (facts.kind(`${pkg}/node_modules`) === 'dir') {
          queue.push(`${pkg}/node_modules`);
        }
        continue;
      }
      const target = facts.real(pkg);
      if (target === undefined || trees.some((t) => isInside(target, t) || isInside(target, facts.real(t) ?? t))) {
        continue;
      }
      if (trees.length - first >= MAX_LINKED_TREES) {
        skipped.push({ path: target, reason: 'limit' });
        return;
      }
      const before = trees.length;
      addTree(`${target}/package.json`);
      if (trees.length > before) {
        const added = trees[trees.length - 1];
        queue.push(base(added) === 'node_modules' ? added : `${added}/node_modules`);
      }
    }
  }
}
