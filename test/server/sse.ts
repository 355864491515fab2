/**
 * SSE connections and fan-out. Frames are `id: N\nevent: output|stage\ndata: {json}\n\n`; comments are
 * `: connected` and `: heartbeat`; the account-wide stream also gets `event: conversations` (no id).
 * Fault knobs live here too: stall (write nothing, heartbeats included, until released), abort mid-frame, drop one.
 */
import type { ServerResponse } from 'node:http';
import type { EventRec } from './store';

export interface StreamFilter {
  /** Set for a per-conversation stream. */
  conversationId?: string;
  /** Set for the account-wide stream. */
  userId?: string;
  /** Allowed `stream` names; undefined = all. */
  streams?: ReadonlySet<string>;
  blocks: boolean;
}

export interface SseConnInfo {
  id: number;
  path: string;
  kind: 'conversation' | 'account';
  conversation_id: string | null;
  user_id: string;
  last_event_id: number;
  opened_at: string;
  user_agent: string | null;
}

export class SseConn {
  lastSentId = 0;
  private queue: string[] = [];
  private heartbeat: NodeJS.Timeout | undefined;
  closed = false;
  readonly openedAt = new Date().toISOString();

  constructor(
    readonly id: number,
    readonly res: ServerResponse,
    readonly filter: StreamFilter,
    readonly path: string,
    readonly userAgent: string | null,
    private readonly hub: SseHub,
  ) {}

  start(heartbeatMs: number): void {
    this.heartbeat = setInterval(() => this.write(': heartbeat\n\n'), heartbeatMs);
    this.heartbeat.unref();
  }

  matches(ev: EventRec): boolean {
    const f = this.filter;
    if (f.conversationId !== undefined && ev.conversation_id !== f.conversationId) {
      return false;
    }
    if (f.userId !== undefined && ev.user_id !== f.userId) {
      return false;
    }
    if (f.streams && !f.streams.has(ev.stream)) {
      return false;
    }
    return true;
  }

  frame(ev: EventRec): string {
    const payload: Record<string, unknown> = {
      kind: ev.kind,
      stream: ev.stream,
      data: ev.data,
      stage: ev.stage,
      state: ev.state,
      turn_id: ev.turn_id,
      ts: ev.ts,
    };
    if (this.filter.userId !== undefined) {
      payload.conversation_id = ev.conversation_id;
    }
    if (this.filter.blocks) {
      payload.blocks = ev.blocks ?? [];
    }
    return `id: ${ev.id}\nevent: ${ev.kind}\ndata: ${JSON.stringify(payload)}\n\n`;
  }

  sendEvent(ev: EventRec): void {
    if (ev.id <= this.lastSentId) {
      return;
    }
    this.lastSentId = ev.id;
    this.write(this.frame(ev));
  }

  write(chunk: string): void {
    if (this.closed) {
      return;
    }
    if (this.hub.stalled) {
      this.queue.push(chunk);
      return;
    }
    this.res.write(chunk);
  }

  flush(): void {
    const q = this.queue;
    this.queue = [];
    for (const c of q) {
      this.write(c);
    }
  }

  /** Clean end of the response (a server-side close). */
  end(): void {
    if (this.closed) {
      return;
    }
    this.cleanup();
    this.res.end();
  }

  /** Abort: optionally write half a frame first, then kill the socket. */
  abort(partial?: string): void {
    if (this.closed) {
      return;
    }
    this.cleanup();
    const kill = () => {
      this.res.socket?.destroy();
      this.res.destroy();
    };
    if (partial) {
      // destroy only once the half frame is on the wire, so the client really sees a cut frame
      this.res.write(partial, kill);
    } else {
      kill();
    }
  }

  cleanup(): void {
    this.closed = true;
    if (this.heartbeat) {
      clearInterval(this.heartbeat);
    }
    this.hub.conns.delete(this);
  }

  info(): SseConnInfo {
    return {
      id: this.id,
      path: this.path,
      kind: this.filter.userId !== undefined ? 'account' : 'conversation',
      conversation_id: this.filter.conversationId ?? null,
      user_id: this.filter.userId ?? '',
      last_event_id: this.lastSentId,
      opened_at: this.openedAt,
      user_agent: this.userAgent,
    };
  }
}

export class SseHub {
  readonly conns = new Set<SseConn>();
  stalled = false;
  heartbeatMs: number;
  private nextId = 1;
  private readonly changed = new Map<string, NodeJS.Timeout>();

  constructor(
    heartbeatMs: number,
    private readonly debounceMs: number,
  ) {
    this.heartbeatMs = heartbeatMs;
  }

  open(res: ServerResponse, filter: StreamFilter, path: string, userAgent: string | null): SseConn {
    const c = new SseConn(this.nextId++, res, filter, path, userAgent, this);
    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    res.flushHeaders();
    res.on('close', () => c.cleanup());
    this.conns.add(c);
    c.write(': connected\n\n');
    c.start(this.heartbeatMs);
    return c;
  }

  publish(ev: EventRec): void {
    for (const c of [...this.conns]) {
      if (c.matches(ev)) {
        c.sendEvent(ev);
      }
    }
  }

  /** `event: conversations` `{"reason":"changed"}` to the user's account-wide streams, debounced. */
  conversationsChanged(userId: string): void {
    if (this.changed.has(userId)) {
      return;
    }
    const t = setTimeout(() => {
      this.changed.delete(userId);
      for (const c of [...this.conns]) {
        if (c.filter.userId === userId) {
          c.write('event: conversations\ndata: {"reason":"changed"}\n\n');
        }
      }
    }, this.debounceMs);
    t.unref();
    this.changed.set(userId, t);
  }

  setStalled(stalled: boolean): void {
    this.stalled = stalled;
    if (!stalled) {
      for (const c of [...this.conns]) {
        c.flush();
      }
    }
  }

  /** Abort every open stream in the middle of a frame. */
  abortAll(): number {
    let n = 0;
    for (const c of [...this.conns]) {
      c.abort(`id: ${c.lastSentId + 1}\nevent: output\ndata: {"kind":"outp`);
      n++;
    }
    return n;
  }

  closeAll(): void {
    for (const c of [...this.conns]) {
      c.abort();
    }
    for (const t of this.changed.values()) {
      clearTimeout(t);
    }
    this.changed.clear();
  }

  list(): SseConnInfo[] {
    return [...this.conns].map((c) => c.info());
  }

  find(id: number): SseConn | undefined {
    return [...this.conns].find((c) => c.id === id);
  }
}
