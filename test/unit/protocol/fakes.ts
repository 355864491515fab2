/** Deterministic clock/timers and a controllable fetch for protocol unit tests. */
import type { FetchLike, Logger, Timers } from '../../../src/protocol/env';

export class FakeTimers implements Timers {
  private t = 1_000_000;
  private seq = 0;
  private readonly queue = new Map<number, { at: number; fn: () => void }>();

  now(): number {
    return this.t;
  }
  setTimeout(fn: () => void, ms: number): number {
    const id = ++this.seq;
    this.queue.set(id, { at: this.t + Math.max(0, ms), fn });
    return id;
  }
  clearTimeout(h: unknown): void {
    this.queue.delete(h as number);
  }
  get pending(): number {
    return this.queue.size;
  }
  /** Moves the clock forward, running due timers in order (and letting promises settle between them). */
  async advance(ms: number): Promise<void> {
    const end = this.t + ms;
    for (let guard = 0; guard < 10_000; guard++) {
      await settle();
      let next: [number, { at: number; fn: () => void }] | undefined;
      for (const e of this.queue) {
        if (e[1].at <= end && (!next || e[1].at < next[1].at)) {
          next = e;
        }
      }
      if (!next) {
        break;
      }
      this.queue.delete(next[0]);
      this.t = next[1].at;
      next[1].fn();
    }
    this.t = end;
    await settle();
  }
}

export async function settle(): Promise<void> {
  for (let i = 0; i < 10; i++) {
    await new Promise((r) => setImmediate(r));
  }
}

export interface FakeStream {
  push(text: string): void;
  end(): void;
  error(e: Error): void;
}

/** A fetch whose responses are scripted per call; streams stay open until the test ends or errors them. */
export class FakeFetch {
  readonly calls: Array<{ url: string; init: RequestInit | undefined }> = [];
  readonly streams: FakeStream[] = [];
  private readonly script: Array<(signal: AbortSignal | undefined) => Response> = [];

  respond(status: number, body: string, headers: Record<string, string> = {}): this {
    this.script.push(() => new Response(body, { status, headers }));
    return this;
  }

  stream(): this {
    this.script.push((signal) => {
      let ctl!: ReadableStreamDefaultController<Uint8Array>;
      const rs = new ReadableStream<Uint8Array>({ start: (c) => void (ctl = c) });
      const enc = new TextEncoder();
      const s: FakeStream = {
        push: (t) => ctl.enqueue(enc.encode(t)),
        end: () => ctl.close(),
        error: (e) => ctl.error(e),
      };
      signal?.addEventListener('abort', () => {
        try {
          ctl.error(signal.reason);
        } catch {
          // already closed
        }
      });
      this.streams.push(s);
      return new Response(rs, { status: 200, headers: { 'content-type': 'text/event-stream' } });
    });
    return this;
  }

  readonly fetch: FetchLike = (url, init) => {
    this.calls.push({ url, init });
    const next = this.script.shift();
    if (!next) {
      return Promise.reject(new Error('no scripted response'));
    }
    return Promise.resolve(next(init?.signal ?? undefined));
  };

  header(call: number, name: string): string | undefined {
    return (this.calls[call]?.init?.headers as Record<string, string> | undefined)?.[name];
  }
}

export function memoryLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const log =
    (level: string) =>
    (m: string, ...a: unknown[]) =>
      void lines.push(`${level} ${m} ${a.map(String).join(' ')}`);
  return { lines, trace: log('trace'), debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') };
}
