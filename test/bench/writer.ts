/** Child process for the latency benchmark: a loopback SSE server writing 5,000 events/s (own event loop). */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { permissionFrame, toolOutputFrame } from './gen';

const durationMs = Number(process.argv[2] ?? 6000);
const server = http.createServer((req, res) => {
  if (!req.url?.startsWith('/api/events/stream')) {
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":[]}');
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  res.write(': connected\n\n');
  res.socket?.setNoDelay(true);
  void (async () => {
    let id = 1;
    const start = performance.now();
    // Every 2 ms, write the events due at 5,000/s; every 100th event is a permission frame written on its own.
    while (performance.now() - start < durationMs) {
      const due = Math.floor(((performance.now() - start) / 1000) * 5000);
      let batch = '';
      while (id <= due) {
        if (id % 100 === 0) {
          if (batch) {
            res.write(batch);
            batch = '';
          }
          res.write(permissionFrame(id, 'c1', `${id}.00000000${id.toString(16).padStart(8, '0')}`));
        } else {
          batch += toolOutputFrame(id, 'c1');
        }
        id++;
      }
      if (batch) {
        res.write(batch);
      }
      await new Promise((r) => setTimeout(r, 2));
    }
    res.end();
    server.close();
    process.exit(0);
  })();
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${(server.address() as AddressInfo).port}\n`);
});
