/**
 * One Fountain stream per machine: the windows (extension host processes) sharing a storage folder elect one
 * leader (election.ts) that holds the stream; the others follow it over a private local socket (rendezvous.ts).
 * Generic over JSON: the app supplies the snapshot and the facts, and answers the requests; the hub only moves
 * them. No vscode import: the composition root wires focus and storage in.
 *
 * - Leader: sends each follower, on its hello, a `welcome` with the app's snapshot and the last cursor, then every
 *   published fact, in order. Answers followers' requests through `onRequest`. Knows every window's focus.
 * - Follower: gets `onDidBecomeFollower` (snapshot, cursor), then `onFact`. When the leader's socket closes it
 *   rejects its pending requests and runs the election again at once; the winner gets `onDidBecomeLeader` with the
 *   last cursor it saw (the app resumes the stream from it, or from its own persisted cursor).
 * - Wiring: `const hub = WindowHub.join({ dir: globalStorageUri.fsPath, windowId, log })`; subscribe to the events
 *   at once (the first role arrives asynchronously); set `snapshotProvider` and `onRequest` on every window (any
 *   may become leader); call `setFocused` from `window.onDidChangeWindowState`; dispose on deactivate.
 * - Limits: `publish` does not echo to the leader itself; `request` rejects while no leader is known (during a
 *   takeover), and pending requests reject when the leader goes away, so callers retry or show the failure; there
 *   is no write backpressure (facts are small and local).
 */
import * as net from 'node:net';
import { Emitter } from '../domain/events';
import type { IDisposable } from '../util/lifecycle';
import { elect } from './election';
import { DEFAULT_MAX_FRAME_BYTES, encodeFrame, FrameDecoder, type Frame, type Json } from './frames';
import { openRendezvous, releaseGeneration, type Rendezvous } from './rendezvous';

export type { Json } from './frames';

export interface HubLog {
  info(message: string): void;
  warn(message: string): void;
}

export interface HubOptions {
  /** The shared storage folder (context.globalStorageUri.fsPath). */
  dir: string;
  windowId: string;
  log: HubLog;
  focused?: boolean;
  maxFrameBytes?: number;
  requestTimeoutMs?: number;
}

export interface LeaderEvent {
  generation: number;
  /** The last cursor this window saw from the previous leader (undefined when there was none). */
  cursor: Json | undefined;
}

export interface FollowerEvent {
  generation: number;
  leaderId: string;
  snapshot: Json;
  cursor: Json | undefined;
}

export interface FactEvent {
  body: Json;
  cursor: Json | undefined;
}

export type RequestHandler = (body: Json, fromWindowId: string) => Json | Promise<Json>;

interface WindowFocus {
  focused: boolean;
  focusedAt: number;
}

interface Peer extends WindowFocus {
  socket: net.Socket;
  windowId: string | undefined;
}

type Pending = { resolve: (v: Json) => void; reject: (e: Error) => void; timer: ReturnType<typeof setTimeout> };

export class WindowHub implements IDisposable {
  private readonly _onDidBecomeLeader = new Emitter<LeaderEvent>();
  readonly onDidBecomeLeader = this._onDidBecomeLeader.event;
  private readonly _onDidBecomeFollower = new Emitter<FollowerEvent>();
  readonly onDidBecomeFollower = this._onDidBecomeFollower.event;
  private readonly _onFact = new Emitter<FactEvent>();
  readonly onFact = this._onFact.event;
  private readonly _onDidFail = new Emitter<Error>();
  /** The election failed (the folder became unusable, say): this window has no role until it joins again. */
  readonly onDidFail = this._onDidFail.event;

  /** Called by the leader for each joining follower's snapshot. */
  snapshotProvider: () => Json = () => null;

  private _role: 'electing' | 'leader' | 'follower' | 'disposed' = 'electing';
  private _generation = 0;
  private _cursor: Json | undefined;
  private _focus: WindowFocus = { focused: false, focusedAt: 0 };
  private _server: net.Server | undefined;
  private readonly _peers = new Set<Peer>();
  private _leader: net.Socket | undefined;
  private _handler: RequestHandler | undefined;
  private _nextId = 1;
  private readonly _pending = new Map<number, Pending>();
  private readonly _max: number;
  private readonly _timeoutMs: number;

  private constructor(
    private readonly _r: Rendezvous,
    private readonly _opts: HubOptions,
  ) {
    this._max = _opts.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES;
    this._timeoutMs = _opts.requestTimeoutMs ?? 10_000;
    if (_opts.focused) {
      this._focus = { focused: true, focusedAt: Date.now() };
    }
  }

  /** Opens the rendezvous folder and starts the election; the role events follow (subscribe before awaiting). */
  static join(opts: HubOptions): WindowHub {
    const hub = new WindowHub(openRendezvous(opts.dir), opts);
    hub._elect();
    return hub;
  }

  get role(): 'electing' | 'leader' | 'follower' | 'disposed' {
    return this._role;
  }

  get generation(): number {
    return this._generation;
  }

  /** The last cursor published by (or, on a follower, received from) the leader. */
  get cursor(): Json | undefined {
    return this._cursor;
  }

  get windowId(): string {
    return this._opts.windowId;
  }

  /** Leader: records the stream cursor, carried in every welcome (and in facts published with one). */
  setCursor(cursor: Json): void {
    this._cursor = cursor;
  }

  /** Leader: sends a fact to every follower (not to itself). Throws on a follower. */
  publish(body: Json, cursor?: Json): void {
    if (this._role !== 'leader') {
      throw new Error('only the leader publishes');
    }
    if (cursor !== undefined) {
      this._cursor = cursor;
    }
    const line = encodeFrame(cursor === undefined ? { t: 'fact', body } : { t: 'fact', body, cursor });
    for (const p of this._peers) {
      if (p.windowId !== undefined) {
        p.socket.write(line);
      }
    }
  }

  /** The leader's handler for requests from any window (its own included). */
  onRequest(handler: RequestHandler): IDisposable {
    this._handler = handler;
    return { dispose: () => void (this._handler === handler && (this._handler = undefined)) };
  }

  /** Sends a request to the leader (handled in place on the leader) and resolves with its reply. */
  request(body: Json, timeoutMs = this._timeoutMs): Promise<Json> {
    if (this._role === 'leader') {
      return this._handle(body, this._opts.windowId);
    }
    const leader = this._leader;
    if (this._role !== 'follower' || !leader) {
      return Promise.reject(new Error('no leader yet'));
    }
    const id = this._nextId++;
    return new Promise<Json>((resolve, reject) => {
      const timer = setTimeout(() => {
        this._pending.delete(id);
        reject(new Error(`hub request ${id} timed out after ${timeoutMs} ms`));
      }, timeoutMs);
      this._pending.set(id, { resolve, reject, timer });
      leader.write(encodeFrame({ t: 'req', id, body }));
    });
  }

  /** Reports this window's focus (call on every change of vscode.window.state.focused). */
  setFocused(focused: boolean): void {
    this._focus = { focused, focusedAt: focused ? Date.now() : this._focus.focusedAt };
    this._leader?.write(encodeFrame({ t: 'focus', ...this._focus }));
  }

  /** Leader: the window that should show a toast: a focused one, else the most recently focused. */
  toastTarget(): string | undefined {
    if (this._role !== 'leader') {
      return undefined;
    }
    const all: Array<WindowFocus & { windowId: string }> = [{ windowId: this._opts.windowId, ...this._focus }];
    for (const p of this._peers) {
      if (p.windowId !== undefined) {
        all.push({ windowId: p.windowId, focused: p.focused, focusedAt: p.focusedAt });
      }
    }
    all.sort((a, b) => Number(b.focused) - Number(a.focused) || b.focusedAt - a.focusedAt);
    return all[0].windowId;
  }

  /** Leader: the windows that said hello, itself first. */
  windows(): string[] {
    return [this._opts.windowId, ...[...this._peers].flatMap((p) => (p.windowId === undefined ? [] : [p.windowId]))];
  }

  dispose(): void {
    if (this._role === 'disposed') {
      return;
    }
    const wasLeader = this._role === 'leader';
    this._role = 'disposed';
    this._rejectPending('hub disposed');
    this._leader?.destroy();
    for (const p of this._peers) {
      p.socket.destroy();
    }
    this._server?.close();
    if (wasLeader) {
      releaseGeneration(this._r, this._generation);
    }
    this._onDidBecomeLeader.dispose();
    this._onDidBecomeFollower.dispose();
    this._onFact.dispose();
    this._onDidFail.dispose();
  }

  private _elect(): void {
    this._role = 'electing';
    elect(this._r, () => this._role === 'disposed').then(
      (won) => {
        if (!won || this._role === 'disposed') {
          if (won?.role === 'leader') {
            won.server.close();
            releaseGeneration(this._r, won.generation);
          }
          if (won?.role === 'follower') {
            won.socket.destroy();
          }
          return;
        }
        this._generation = won.generation;
        if (won.role === 'leader') {
          this._lead(won.server, won.early);
        } else {
          this._follow(won.socket);
        }
      },
      (e: unknown) => {
        this._opts.log.warn(`hub: election failed: ${String(e)}`);
        this._onDidFail.fire(e instanceof Error ? e : new Error(String(e)));
      },
    );
  }

  private _decode(socket: net.Socket, who: string, onFrame: (f: Frame) => void): void {
    const decoder = new FrameDecoder(this._max, {
      frame: onFrame,
      malformed: (why) => this._opts.log.warn(`hub: skipped a malformed frame from ${who}: ${why}`),
      oversize: (n) => {
        this._opts.log.warn(`hub: closed ${who}: frame over ${this._max} bytes (${n} so far)`);
        socket.destroy();
      },
    });
    socket.on('data', (chunk: Buffer) => decoder.push(chunk));
  }

  private _lead(server: net.Server, early: net.Socket[]): void {
    this._server = server;
    this._role = 'leader';
    server.on('connection', (s) => this._accept(s));
    early.forEach((s) => this._accept(s));
    this._opts.log.info(`hub: window ${this._opts.windowId} leads generation ${this._generation}`);
    this._onDidBecomeLeader.fire({ generation: this._generation, cursor: this._cursor });
  }

  private _accept(socket: net.Socket): void {
    const peer: Peer = { socket, windowId: undefined, focused: false, focusedAt: 0 };
    this._peers.add(peer);
    socket.on('error', () => socket.destroy());
    socket.on('close', () => this._peers.delete(peer));
    this._decode(socket, 'a follower', (f) => this._fromFollower(peer, f));
  }

  private _fromFollower(peer: Peer, f: Frame): void {
    if (f.t === 'hello') {
      Object.assign(peer, { windowId: f.windowId, focused: f.focused, focusedAt: f.focusedAt });
      let snapshot: Json = null;
      try {
        snapshot = this.snapshotProvider();
      } catch (e) {
        this._opts.log.warn(`hub: the snapshot provider failed (${errorText(e)}); sent an empty snapshot`);
      }
      const cursor = this._cursor ?? null;
      peer.socket.write(
        encodeFrame({ t: 'welcome', leaderId: this._opts.windowId, generation: this._generation, snapshot, cursor }),
      );
    } else if (f.t === 'focus') {
      Object.assign(peer, { focused: f.focused, focusedAt: f.focusedAt });
    } else if (f.t === 'req' && peer.windowId !== undefined) {
      this._handle(f.body, peer.windowId).then(
        (body) => peer.socket.write(encodeFrame({ t: 'res', id: f.id, ok: true, body })),
        (e: unknown) => peer.socket.write(encodeFrame({ t: 'res', id: f.id, ok: false, error: errorText(e) })),
      );
    } else {
      this._opts.log.warn(`hub: ignored a '${f.t}' frame from ${peer.windowId ?? 'a follower before hello'}`);
    }
  }

  private async _handle(body: Json, from: string): Promise<Json> {
    if (!this._handler) {
      throw new Error('the leader has no request handler');
    }
    return this._handler(body, from);
  }

  private _follow(socket: net.Socket): void {
    this._leader = socket;
    this._role = 'follower';
    socket.on('error', () => socket.destroy());
    socket.on('close', () => this._lostLeader(socket));
    this._decode(socket, 'the leader', (f) => this._fromLeader(f));
    socket.write(encodeFrame({ t: 'hello', windowId: this._opts.windowId, ...this._focus }));
  }

  private _fromLeader(f: Frame): void {
    if (f.t === 'welcome') {
      this._cursor = f.cursor ?? undefined;
      this._onDidBecomeFollower.fire({
        generation: f.generation,
        leaderId: f.leaderId,
        snapshot: f.snapshot,
        cursor: this._cursor,
      });
    } else if (f.t === 'fact') {
      if (f.cursor !== undefined) {
        this._cursor = f.cursor;
      }
      this._onFact.fire({ body: f.body, cursor: f.cursor });
    } else if (f.t === 'res') {
      const p = this._pending.get(f.id);
      if (p) {
        this._pending.delete(f.id);
        clearTimeout(p.timer);
        if (f.ok) {
          p.resolve(f.body ?? null);
        } else {
          p.reject(new Error(f.error ?? 'request failed'));
        }
      }
    } else {
      this._opts.log.warn(`hub: ignored a '${f.t}' frame from the leader`);
    }
  }

  private _lostLeader(socket: net.Socket): void {
    if (this._leader !== socket || this._role === 'disposed') {
      return;
    }
    this._leader = undefined;
    this._rejectPending('the leader went away');
    this._opts.log.info(`hub: leader of generation ${this._generation} went away; electing`);
    this._elect();
  }

  private _rejectPending(why: string): void {
    for (const [id, p] of this._pending) {
      clearTimeout(p.timer);
      p.reject(new Error(`hub request ${id}: ${why}`));
    }
    this._pending.clear();
  }
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
