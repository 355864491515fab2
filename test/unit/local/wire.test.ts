import * as assert from 'node:assert/strict';
import { tapStreams, type WireDirection } from '../../../src/local/wire';

function sink() {
  const chunks: Uint8Array[] = [];
  const stream = new WritableStream<Uint8Array>({ write: (c) => void chunks.push(c) });
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

describe('local agents: wire tap', () => {
  const enc = new TextEncoder();

  it('reports each line in both directions, across chunk and UTF-8 boundaries, and passes bytes through', async () => {
    const lines: [WireDirection, string][] = [];
    const out = sink();
    let feed!: ReadableStreamDefaultController<Uint8Array>;
    const agentStdout = new ReadableStream<Uint8Array>({ start: (c) => void (feed = c) });
    let ended = 0;
    const t = tapStreams(
      out.stream,
      agentStdout,
      (d, l) => lines.push([d, l]),
      () => ended++,
    );
    const w = t.output.getWriter();
    await w.write(enc.encode('{"id":1,"result":{}}\n{"method":"x",'));
    await w.write(enc.encode('"params":{}}\r\n'));
    const euro = enc.encode('{"m":"€"}\n');
    feed.enqueue(euro.slice(0, 7)); // splits the 3-byte €
    feed.enqueue(euro.slice(7));
    feed.close();
    const reader = t.input.getReader();
    const got: Uint8Array[] = [];
    for (let r = await reader.read(); !r.done; r = await reader.read()) {
      got.push(r.value);
    }
    assert.equal(Buffer.concat(got).toString('utf8'), '{"m":"€"}\n');
    assert.equal(out.text(), '{"id":1,"result":{}}\n{"method":"x","params":{}}\r\n');
    assert.deepEqual(lines, [
      ['out', '{"id":1,"result":{}}'],
      ['out', '{"method":"x","params":{}}'],
      ['in', '{"m":"€"}'],
    ]);
    assert.equal(ended, 1, 'the end of the agent stdout is reported');
  });

  it('after closeOutput nothing more reaches the agent (nor the tap)', async () => {
    const lines: string[] = [];
    const out = sink();
    const t = tapStreams(out.stream, new ReadableStream(), (_d, l) => lines.push(l));
    const w = t.output.getWriter();
    await w.write(enc.encode('{"id":0,"result":{}}\n'));
    t.closeOutput();
    await w.write(enc.encode('{"id":1,"result":{"outcome":{"outcome":"cancelled"}}}\n'));
    assert.equal(out.text(), '{"id":0,"result":{}}\n');
    assert.deepEqual(lines, ['{"id":0,"result":{}}']);
  });

  it('responsesWritten resolves when a response to each id has gone out (not a request with that id)', async () => {
    const out = sink();
    const t = tapStreams(out.stream, new ReadableStream());
    const w = t.output.getWriter();
    let done = false;
    const waiting = t.responsesWritten([7, 'u-1'], 60_000).then(() => (done = true));
    await w.write(enc.encode('{"id":7,"method":"session/prompt","params":{}}\n'));
    await w.write(enc.encode('{"id":7,"result":{}}\n'));
    await new Promise((r) => setImmediate(r));
    assert.equal(done, false, 'u-1 is still unanswered');
    await w.write(enc.encode('{"id":"u-1","result":{}}\n'));
    await waiting;
    assert.equal(done, true);
  });
});
