import * as assert from 'node:assert/strict';
import { FrameDecoder, encodeFrame, type Frame } from '../../../src/hub/frames';

function decoder(max = 1024) {
  const got = { frames: [] as Frame[], malformed: [] as string[], oversize: [] as number[] };
  const d = new FrameDecoder(max, {
    frame: (f) => got.frames.push(f),
    malformed: (why) => got.malformed.push(why),
    oversize: (n) => got.oversize.push(n),
  });
  return { d, got };
}

describe('hub frames (newline-delimited JSON)', () => {
  it('reassembles frames split at any byte, multi-byte characters included', () => {
    const frames: Frame[] = [
      { t: 'fact', body: { text: 'é 😀 \u202e', n: [1, null, true] } },
      { t: 'req', id: 3, body: 'x' },
    ];
    const bytes = Buffer.from(frames.map(encodeFrame).join(''));
    for (let cut = 0; cut <= bytes.length; cut++) {
      const { d, got } = decoder();
      d.push(bytes.subarray(0, cut));
      d.push(bytes.subarray(cut));
      assert.deepEqual(got.frames, frames, `cut at ${cut}`);
    }
  });

  it('skips a line that is not JSON, or JSON that is not a frame, and keeps decoding', () => {
    const { d, got } = decoder();
    d.push(Buffer.from('{oops\n{"t":"nope"}\n[1]\n\n' + encodeFrame({ t: 'focus', focused: true, focusedAt: 5 })));
    assert.deepEqual(got.frames, [{ t: 'focus', focused: true, focusedAt: 5 }]);
    assert.equal(got.malformed.length, 3);
    assert.match(got.malformed[0], /not JSON/);
    assert.match(got.malformed[1], /not a hub frame/);
  });

  it('reports a line over the cap once, whether or not its newline has come, and stops decoding', () => {
    const { d, got } = decoder(100);
    d.push(Buffer.from('x'.repeat(60)));
    d.push(Buffer.from('y'.repeat(60)));
    d.push(Buffer.from('\n' + encodeFrame({ t: 'req', id: 1, body: null })));
    assert.deepEqual(got.oversize, [120]);
    assert.deepEqual(got.frames, []);
    const exact = decoder(100);
    const line = encodeFrame({ t: 'fact', body: 'z'.repeat(100 - 22) });
    assert.equal(Buffer.byteLength(line), 101, 'a 100-byte frame plus its newline');
    exact.d.push(Buffer.from(line));
    assert.equal(exact.got.frames.length, 1, 'a frame of exactly the cap passes');
  });
});
