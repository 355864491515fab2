/**
 * Where the windows of one storage folder meet: a private folder holding one generation file and one socket per
 * leadership term (see election.ts for how they are used).
 *
 * - The folder is `<storage>/hub`, or, when a socket path there would pass the OS limit (sun_path is 108 bytes on
 *   Linux, 104 on macOS; we keep under 100), `<tmpdir>/fountain-hub-<uid>-<hash of the storage path>`.
 * - On unix the folder is created 0700 and then checked with lstat: a real directory (not a symlink), owned by this
 *   uid, with no group or other permission bits. Anything else is refused (an error), never repaired, since someone
 *   else may have planted it. Socket files are chmod 0600 after listen; the 0700 folder already keeps other users
 *   out before that (connecting to a unix socket needs search permission on every folder of its path).
 * - What this guarantees: another non-root user cannot connect to, plant or remove the sockets. What it does not:
 *   root, and any process running as this same user, can join; Node exposes no SO_PEERCRED, so the leader cannot
 *   check the peer's uid itself and relies on the folder's permissions.
 * - Windows (not tested here): the sockets are named pipes `\\.\pipe\fountain-hub-<hash>-<generation>`; the
 *   generation files stay in `<storage>/hub`, under the user's profile. Node creates pipes with the default security
 *   descriptor, which per the CreateNamedPipe documentation also grants read access to Everyone, so on Windows
 *   "only this user joins" is NOT guaranteed yet: a pipe with an explicit DACL needs native code Node lacks.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';

const MAX_SOCKET_PATH = 100;
const IS_WINDOWS = process.platform === 'win32';

export interface Rendezvous {
  /** The private folder holding the generation files (and, on unix, the sockets). */
  readonly dir: string;
  socketPath(generation: number): string;
  generationFile(generation: number): string;
}

function hashOf(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

/** Creates (if needed) and checks the rendezvous folder for a storage folder. Throws when it is not private. */
export function openRendezvous(storageDir: string): Rendezvous {
  const key = hashOf(path.resolve(storageDir));
  let dir = path.join(path.resolve(storageDir), 'hub');
  const longest = path.join(dir, `hub.${Number.MAX_SAFE_INTEGER}.sock`);
  if (!IS_WINDOWS && Buffer.byteLength(longest) > MAX_SOCKET_PATH) {
    dir = path.join(os.tmpdir(), `fountain-hub-${process.getuid?.() ?? 'u'}-${key}`);
  }
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  checkPrivate(dir);
  return {
    dir,
    socketPath: (g) => (IS_WINDOWS ? `\\\\.\\pipe\\fountain-hub-${key}-${g}` : path.join(dir, `hub.${g}.sock`)),
    generationFile: (g) => path.join(dir, `gen.${g}`),
  };
}

/** Throws unless `dir` is a directory (not a symlink) owned by this user with no group/other bits (unix only). */
export function checkPrivate(dir: string): void {
  if (IS_WINDOWS) {
    return;
  }
  const st = fs.lstatSync(dir);
  const uid = process.getuid!();
  if (!st.isDirectory()) {
    throw new Error(`hub folder ${dir} is not a directory`);
  }
  if (st.uid !== uid) {
    throw new Error(`hub folder ${dir} belongs to uid ${st.uid}, not ${uid}`);
  }
  if ((st.mode & 0o077) !== 0) {
    throw new Error(`hub folder ${dir} is open to others (mode ${(st.mode & 0o777).toString(8)})`);
  }
}

/** Generation numbers that have a file, highest first. */
export function generations(r: Rendezvous): number[] {
  return fs
    .readdirSync(r.dir)
    .map((name) => /^gen\.(\d+)$/.exec(name))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => Number(m[1]))
    .sort((a, b) => b - a);
}

/** Creates a generation file exclusively; false when it already exists. */
export function claimGeneration(r: Rendezvous, generation: number): boolean {
  try {
    fs.writeFileSync(r.generationFile(generation), `${process.pid}\n`, { flag: 'wx', mode: 0o600 });
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') {
      return false;
    }
    throw e;
  }
}

export interface GenerationInfo {
  /** undefined while the claimer is still writing the file. */
  pid: number | undefined;
  /** The leader closed its term on purpose (dispose); nobody need wait for it. */
  released: boolean;
  ageMs: number;
}

/** Who claimed a generation and how long ago; undefined when the file is gone. */
export function generationInfo(r: Rendezvous, generation: number): GenerationInfo | undefined {
  try {
    const file = r.generationFile(generation);
    const st = fs.statSync(file);
    const text = fs.readFileSync(file, 'utf8');
    const pid = Number.parseInt(text, 10);
    return {
      pid: Number.isFinite(pid) ? pid : undefined,
      released: text.includes('released'),
      ageMs: Date.now() - st.mtimeMs,
    };
  } catch {
    return undefined;
  }
}

/** Marks a generation as closed on purpose, so followers take over without waiting for its pid to exit. */
export function releaseGeneration(r: Rendezvous, generation: number): void {
  try {
    fs.appendFileSync(r.generationFile(generation), 'released\n');
  } catch {
    // Already removed by a newer leader's clean-up.
  }
}

export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes the files of generations below `below` (best effort; never the current or the one before it). */
export function removeOldGenerations(r: Rendezvous, below: number): void {
  for (const g of generations(r).filter((n) => n < below)) {
    for (const file of [r.generationFile(g), IS_WINDOWS ? undefined : r.socketPath(g)]) {
      if (file) {
        fs.rmSync(file, { force: true });
      }
    }
  }
}

/**
 * Whether something listens on a generation's socket: connect and hang up. Only "nothing there" (ENOENT) and
 * "nobody listening" (ECONNREFUSED) count as dead; any other outcome (including a full backlog) counts as alive.
 */
export function probe(socketPath: string, timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const sock = net.connect(socketPath);
    const done = (alive: boolean): void => {
      clearTimeout(timer);
      sock.destroy();
      resolve(alive);
    };
    const timer = setTimeout(() => done(true), timeoutMs);
    sock.once('connect', () => done(true));
    sock.once('error', (e: NodeJS.ErrnoException) => done(e.code !== 'ENOENT' && e.code !== 'ECONNREFUSED'));
  });
}
