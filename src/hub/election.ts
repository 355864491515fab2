/**
 * Leader election among the windows (extension host processes) sharing one storage folder.
 *
 * Why not "one socket path, unlink it when stale": a candidate that found the path stale (connect refused) and
 * then unlinks it may be unlinking the socket a faster candidate bound a moment ago, and both end up listening.
 * No unlink-if-still-the-same-file exists, and Node has no flock. So every leadership term gets fresh names:
 *
 * 1. Read the generations that have a file `gen.N`, highest first; connect to each one's socket `hub.N.sock` in
 *    turn and follow the first that accepts. Let G be the highest. (A claim whose owner pid is alive, younger than 2 s and not released is still starting: wait and
 *    look again. This only avoids needless contests; safety does not rest on it. A leader that closes on purpose
 *    marks its claim released, so its followers need not wait for its process to exit.)
 * 2. Otherwise claim G+1 by creating `gen.<G+1>` with O_EXCL (`wx`): exactly one process can create each file.
 *    Losing means someone else claimed it; go to 1.
 * 3. Listen on `hub.<G+1>.sock` (a name nobody else uses: only the claimer binds it), then, after listening:
 *    (b) if any generation file above G+1 exists, step down; (a) if any lower generation's socket still accepts a
 *    connection, step down. Otherwise this process is the leader.
 *
 * Why two leaders cannot both pass step 3: say n < m both passed. n's check (b) ran after n listened and saw no
 * `gen.m`, so `gen.m` was created later, and m's check (a) ran later still, while n was listening (a leader never
 * stops listening while it leads), so m's probe of n connected and m stepped down. A process stalled between
 * reading and claiming can at worst claim a number below the current one and step down by (b). Both may step down
 * in one unlucky interleaving (m sees n still listening while n sees m's claim); each then marks its claim released
 * and retries after a random pause that doubles with every step-down, so one wins on a later round.
 *
 * Clean-up: a new leader removes the files of generations below G (it keeps G, so a stalled candidate cannot claim
 * G again). A killed leader leaves `hub.G.sock` behind; it refuses connections, so step 1 treats it as gone.
 */
import * as fs from 'node:fs';
import * as net from 'node:net';
import {
  claimGeneration,
  generationInfo,
  generations,
  pidAlive,
  probe,
  releaseGeneration,
  removeOldGenerations,
  type Rendezvous,
} from './rendezvous';

/** A young claim whose owner is alive is given this long to start listening before it is contested. */
const STARTING_GRACE_MS = 2000;
const POLL_MS = 20;

export type Elected =
  | { role: 'leader'; generation: number; server: net.Server; early: net.Socket[] }
  | { role: 'follower'; generation: number; socket: net.Socket };

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

function connect(path: string): Promise<net.Socket | undefined> {
  return new Promise((resolve) => {
    const sock = net.connect(path);
    sock.once('connect', () => {
      sock.removeAllListeners('error');
      // A reset (the candidate stepped down) shows as 'close', which the hub handles by electing again.
      sock.on('error', () => sock.destroy());
      resolve(sock);
    });
    sock.once('error', () => resolve(undefined));
  });
}

/** Connections that arrive while step 3 runs wait, unread, in `early` until the hub takes them over. */
function listen(path: string, early: Set<net.Socket>): Promise<net.Server | undefined> {
  return new Promise((resolve) => {
    const server = net.createServer((s) => {
      early.add(s);
      s.once('close', () => early.delete(s));
      s.on('error', () => s.destroy());
    });
    server.once('error', () => resolve(undefined));
    server.listen(path, () => {
      server.removeAllListeners('error');
      resolve(server);
    });
  });
}

function closeServer(server: net.Server, early: Set<net.Socket>): Promise<void> {
  for (const s of early) {
    s.destroy();
  }
  return new Promise((r) => server.close(() => r()));
}

/** Whether generation g's claimer may still be starting (so its socket is not up yet). */
function mayBeStarting(r: Rendezvous, g: number, graceMs: number): boolean {
  const info = generationInfo(r, g);
  if (!info || info.released || info.ageMs > graceMs) {
    return false;
  }
  return info.pid === undefined || pidAlive(info.pid);
}

/**
 * Step 1: connect to the highest generation that answers. Not only the top one: a candidate that stepped down
 * leaves a released claim above the leader, and a newcomer must still find the leader below it.
 */
async function findLeader(
  r: Rendezvous,
  all: number[],
  grace: number,
): Promise<Extract<Elected, { role: 'follower' }> | 'starting' | undefined> {
  for (const g of all) {
    const socket = await connect(r.socketPath(g));
    if (socket) {
      return { role: 'follower', generation: g, socket };
    }
    if (mayBeStarting(r, g, grace)) {
      return 'starting';
    }
  }
  return undefined;
}

/** Step 3: after listening on g, whether this process may lead. */
async function mayLead(r: Rendezvous, g: number): Promise<boolean> {
  const all = generations(r);
  if (all.some((n) => n > g)) {
    return false;
  }
  // All at once (each probe ran after this listen began, which is all the argument in the header needs).
  const alive = await Promise.all(all.filter((n) => n < g).map((lower) => probe(r.socketPath(lower))));
  return !alive.includes(true);
}

export interface ElectionHooks {
  /**
   * Runs between claiming a generation and listening on it. Claim and listen are back-to-back system calls, so the
   * window in which another candidate finds a claim without a socket is microseconds wide; tests widen it with this
   * (and set `graceMs` to 0) to exercise step 3.
   */
  afterClaim?: () => Promise<void>;
  graceMs?: number;
}

/** Runs the election until this process leads or follows; `cancelled` stops it (then resolves undefined). */
export async function elect(
  r: Rendezvous,
  cancelled: () => boolean,
  hooks: ElectionHooks = {},
): Promise<Elected | undefined> {
  const grace = hooks.graceMs ?? STARTING_GRACE_MS;
  let stepDowns = 0;
  while (!cancelled()) {
    const all = generations(r);
    const found = await findLeader(r, all, grace);
    if (found === 'starting') {
      await sleep(POLL_MS);
      continue;
    }
    if (found) {
      return found;
    }
    const top = all[0] ?? 0;
    const g = top + 1;
    if (!claimGeneration(r, g)) {
      continue;
    }
    await hooks.afterClaim?.();
    const early = new Set<net.Socket>();
    const server = await listen(r.socketPath(g), early);
    if (server && process.platform !== 'win32') {
      fs.chmodSync(r.socketPath(g), 0o600);
    }
    if (server && !cancelled() && (await mayLead(r, g))) {
      removeOldGenerations(r, g - 1);
      server.removeAllListeners('connection');
      return { role: 'leader', generation: g, server, early: [...early] };
    }
    if (server) {
      await closeServer(server, early);
    }
    releaseGeneration(r, g);
    // Two candidates can both step down (see the header); random, growing pauses make one of them win soon.
    await sleep(Math.random() * Math.min(20 * 2 ** stepDowns++, 1000));
  }
  return undefined;
}
