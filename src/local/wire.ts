/**
 * The byte streams between the ACP connection and an agent process, with a tap on each direction (one callback per
 * JSON-RPC line, for a trace log and tests) and a gate on the way out: once closed, nothing more reaches the agent.
 */

export type WireDirection = 'out' | 'in';
export type WireListener = (direction: WireDirection, line: string) => void;

function lineSplitter(direction: WireDirection, listener: WireListener | undefined): (chunk: Uint8Array) => void {
  const decoder = new TextDecoder();
  let buffered = '';
  return (chunk) => {
    buffered += decoder.decode(chunk, { stream: true });
    let nl: number;
    while ((nl = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, nl).replace(/\r$/, '');
      buffered = buffered.slice(nl + 1);
      if (line && listener) {
        listener(direction, line);
      }
    }
  };
}

export interface TappedStreams {
  readonly output: WritableStream<Uint8Array>;
  readonly input: ReadableStream<Uint8Array>;
  /** After this, writes are dropped (the agent exited: nothing may be sent to it). */
  closeOutput(): void;
  /** Resolves once a response to each JSON-RPC id has been written to the agent, or after `ms`. */
  responsesWritten(ids: readonly unknown[], ms: number): Promise<void>;
}

/** Wraps the agent's stdin (`toAgent`) and stdout (`fromAgent`). */
export function tapStreams(
  toAgent: WritableStream<Uint8Array>,
  fromAgent: ReadableStream<Uint8Array>,
  listener?: WireListener,
  /** The agent's stdout ended: called before the connection sees the end. */
  onInputEnd?: () => void,
): TappedStreams {
  const writer = toAgent.getWriter();
  // Responses still awaited by responsesWritten(): JSON of the id → its waiter.
  const awaited = new Map<string, () => void>();
  const watch: WireListener = (direction, line) => {
    if (direction === 'out' && awaited.size) {
      try {
        const msg = JSON.parse(line) as { id?: unknown; method?: unknown };
        const key = JSON.stringify(msg.id);
        if (msg.method === undefined && awaited.has(key)) {
          awaited.get(key)!();
        }
      } catch {
        // not JSON
      }
    }
    listener?.(direction, line);
  };
  const tapOut = lineSplitter('out', watch);
  const tapIn = lineSplitter('in', watch);
  let open = true;
  const output = new WritableStream<Uint8Array>({
    async write(chunk) {
      if (!open) {
        return;
      }
      tapOut(chunk);
      await writer.write(chunk);
    },
    async close() {
      open = false;
      await writer.close().catch(() => undefined);
    },
    abort() {
      open = false;
      writer.abort().catch(() => undefined);
    },
  });
  const input = fromAgent.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        tapIn(chunk);
        controller.enqueue(chunk);
      },
      flush() {
        onInputEnd?.();
      },
    }),
  );
  return {
    output,
    input,
    closeOutput: () => {
      open = false;
    },
    responsesWritten: (ids, ms) =>
      new Promise<void>((resolve) => {
        const keys = new Set(ids.map((id) => JSON.stringify(id)));
        const finish = () => {
          clearTimeout(timer);
          keys.forEach((k) => awaited.delete(k));
          resolve();
        };
        const timer = setTimeout(finish, ms);
        for (const k of keys) {
          awaited.set(k, () => {
            awaited.delete(k);
            keys.delete(k);
            if (!keys.size) {
              finish();
            }
          });
        }
        if (!keys.size) {
          finish();
        }
      }),
  };
}
