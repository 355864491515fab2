/**
 * A repository created inside the sandbox while an agent runs (`git init` in a subfolder, with its own
 * `core.fsmonitor` or hooks) cannot be stopped: it is a new folder like any other. This watch sees it at once: the
 * writable folders and their subfolders (to {@link WATCH_DEPTH} levels, new ones included, `node_modules` and `.git`
 * left out, at most {@link MAX_WATCHED} folders) are watched for a `.git` entry that was not there at the start.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

export const WATCH_DEPTH = 4;
export const MAX_WATCHED = 4000;
const SKIP = new Set(['.git', 'node_modules']);

/**
 * Whether a `.git` entry can make git run anything: a folder with something in it, a `gitdir:` file, or a link. An
 * empty file or folder is not a repository to git, and is what the sandbox itself puts where a missing `.git` is
 * blocked (SandboxPlan.blocked), so it is not reported.
 */
function isRepository(p: string): boolean {
  try {
    const s = fs.lstatSync(p);
    if (s.isDirectory()) {
      return fs.readdirSync(p).length > 0;
    }
    return s.isSymbolicLink() || s.size > 0;
  } catch {
    return false;
  }
}

export class NewRepoWatch {
  private readonly watchers = new Map<string, fs.FSWatcher>();
  private readonly known = new Set<string>();
  private closed = false;

  /** `found` gets the folder holding each new `.git`, once. */
  constructor(
    roots: readonly string[],
    private readonly found: (repo: string) => void,
  ) {
    for (const r of roots) {
      this.add(r, 0, true);
    }
  }

  private add(dir: string, level: number, atStart: boolean): void {
    if (this.closed || this.watchers.has(dir) || this.watchers.size >= MAX_WATCHED) {
      return;
    }
    let w: fs.FSWatcher;
    try {
      w = fs.watch(dir, { persistent: false }, (_event, name) => name && this.changed(dir, level, String(name)));
    } catch {
      return;
    }
    w.on('error', () => this.drop(dir));
    this.watchers.set(dir, w);
    let entries: fs.Dirent[] = [];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      // Gone again.
    }
    for (const e of entries) {
      if (e.name === '.git' && isRepository(path.join(dir, e.name))) {
        if (atStart) {
          this.known.add(dir);
        } else {
          this.report(dir);
        }
      } else if (e.isDirectory() && !SKIP.has(e.name) && level < WATCH_DEPTH) {
        this.add(path.join(dir, e.name), level + 1, atStart);
      }
    }
  }

  private changed(dir: string, level: number, name: string): void {
    const p = path.join(dir, name);
    if (name === '.git') {
      if (isRepository(p)) {
        this.report(dir);
      }
      return;
    }
    if (!SKIP.has(name) && level < WATCH_DEPTH) {
      try {
        if (fs.lstatSync(p).isDirectory()) {
          this.add(p, level + 1, false);
        }
      } catch {
        this.drop(p);
      }
    }
  }

  private report(dir: string): void {
    if (!this.known.has(dir)) {
      this.known.add(dir);
      this.found(dir);
    }
  }

  private drop(dir: string): void {
    this.watchers.get(dir)?.close();
    this.watchers.delete(dir);
  }

  /** The folders watched (for the log). */
  get size(): number {
    return this.watchers.size;
  }

  dispose(): void {
    this.closed = true;
    for (const w of this.watchers.values()) {
      w.close();
    }
    this.watchers.clear();
  }
}
