/**
 * A tiny hand-written JSON-RPC 2.0 peer over ND-JSON web streams, for the agent side of scripted agents.
 * Hand-written (not the SDK's agent app) so an agent controls its own request ids: real runtimes number from 0 per
 * connection (claude, gemini) or send UUID strings (codex), and a scripted agent must know the id it used to match a
 * later `fountain/permission_answer` resume prompt (whose request_id is `<jsonrpc id>.<hex>`).
 */

export type JsonRpcId = number | string;

export interface RpcError {
  code: number;
  message: string;
  data?: unknown;
}

export class RpcFailure extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

interface Pending {
  resolve(v: unknown): void;
  reject(e: unknown): void;
}

export interface PeerHandlers {
  request(method: string, params: unknown, id: JsonRpcId): Promise<unknown>;
  notification(method: string, params: unknown): void;
}

export class NdJsonPeer {
  private readonly writer: WritableStreamDefaultWriter<Uint8Array>;
  private readonly pending = new Map<string, Pending>();
  private readonly encoder = new TextEncoder();
  private closed = false;
  readonly done: Promise<void>;

  constructor(
    input: ReadableStream<Uint8Array>,
    output: WritableStream<Uint8Array>,
    private readonly handlers: PeerHandlers,
  ) {
    this.writer = output.getWriter();
    this.done = this.readLoop(input);
  }

  /** Send a request with the given id; resolves with `result`, rejects with an RpcFailure on `error`. */
  request(method: string, params: unknown, id: JsonRpcId): Promise<unknown> {
    const p = new Promise<unknown>((resolve, reject) => this.pending.set(JSON.stringify(id), { resolve, reject }));
    this.send({ jsonrpc: '2.0', id, method, params });
    return p;
  }

  notify(method: string, params: unknown): void {
    this.send({ jsonrpc: '2.0', method, params });
  }

  send(msg: unknown): void {
    if (this.closed) {
      return;
    }
    this.writer.write(this.encoder.encode(JSON.stringify(msg) + '\n')).catch(() => this.close());
  }

  close(): void {
    if (this.closed) {
      return;
    }
    this.closed = true;
    for (const p of this.pending.values()) {
      p.reject(new RpcFailure(-32000, 'connection closed'));
    }
    this.pending.clear();
    this.writer.close().catch(() => undefined);
  }

  private async readLoop(input: ReadableStream<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    let buf = '';
    const reader = input.getReader();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) {
          break;
        }
        buf += decoder.decode(value, { stream: true });
        let nl: number;
        while ((nl = buf.indexOf('\n')) >= 0) {
          const line = buf.slice(0, nl).trim();
          buf = buf.slice(nl + 1);
          if (line) {
            this.dispatch(line);
          }
        }
      }
    } catch {
      // stream aborted: treat as closed
    } finally {
      this.close();
    }
  }

  private dispatch(line: string): void {
    let msg: Record<string, unknown>;
    try {
      msg = JSON.parse(line) as Record<string, unknown>;
    } catch {
      this.send({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
      return;
    }
    const id = msg.id as JsonRpcId | undefined;
    if (typeof msg.method === 'string') {
      if (id === undefined || id === null) {
        try {
          this.handlers.notification(msg.method, msg.params);
        } catch (err) {
          console.error('[scripted-agent] notification handler failed:', err);
        }
        return;
      }
      this.handlers.request(msg.method, msg.params, id).then(
        (result) => this.send({ jsonrpc: '2.0', id, result: result ?? null }),
        (err: unknown) => {
          const e = err instanceof RpcFailure ? err : new RpcFailure(-32603, String((err as Error)?.message ?? err));
          this.send({ jsonrpc: '2.0', id, error: { code: e.code, message: e.message } });
        },
      );
      return;
    }
    if (id !== undefined) {
      const p = this.pending.get(JSON.stringify(id));
      if (!p) {
        return; // a late answer to a request the agent forgot (e.g. one it detached): ignored, as real agents do
      }
      this.pending.delete(JSON.stringify(id));
      if (msg.error) {
        const e = msg.error as RpcError;
        p.reject(new RpcFailure(e.code, e.message));
      } else {
        p.resolve(msg.result);
      }
    }
  }
}
