/** Deterministic clock/timers and a controllable fetch for protocol unit tests. */
import type { FetchLike, Logger, Timers } from '../../../src/protocol/env';
import { FakeClock, settle } from '../../support/fakeClock';

/** The shared fake clock as the protocol's Timers; `advance` lets promises settle around each timer. */
export class FakeTimers implements Timers {
  readonly clock = new FakeClock();

  now(): number {
    return this.clock.now();
  }
  setTimeout(fn: () => void, ms: number): number {
    return this.clock.setTimeout(fn, ms);
  }
  clearTimeout(h: unknown): void {
    this.clock.clearTimeout(h);
  }
  get pending(): number {
    return this.clock.pending;
  }
  advance(ms: number): Promise<void> {
    return this.clock.advanceSettled(ms);
  }
}

export { settle };

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
