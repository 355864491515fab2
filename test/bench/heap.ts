/** Child process (node --expose-gc): heap growth of the request tracker holding 10,000 open requests. */
import { nullLogger } from '../../src/protocol/env';
import { RequestAssembler } from '../../src/protocol/requestAssembler';
import { permissionFrame } from './gen';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) {
  throw new Error('run with --expose-gc');
}
// Frames are built one at a time and dropped, so only what the tracker keeps is measured.
const frame = (i: number) => {
  const text = permissionFrame(i, `c${i % 200}`, `${i}.${i.toString(16).padStart(16, '0')}`);
  return { id: String(i), event: 'output', data: text.slice(text.indexOf('data: ') + 6, -2) };
};
gc();
gc();
const before = process.memoryUsage().heapUsed;
const tracker = new RequestAssembler('https://f.example', nullLogger);
let opened = 0;
for (let i = 1; i <= 10_000; i++) {
  opened += tracker.handleSse(frame(i)).events.length;
}
gc();
gc();
const after = process.memoryUsage().heapUsed;
process.stdout.write(JSON.stringify({ opened, open: tracker.openCount, growthBytes: after - before }) + '\n');
