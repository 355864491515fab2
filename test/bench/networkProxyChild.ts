/**
 * The other end of the network proxy's download bench (networkProxy.ts), in a process of its own as an agent and a
 * server are (the proxy runs in the extension host): a loopback server that sends DOWNLOAD_BYTES on each connection,
 * and a client that downloads it directly or through a CONNECT tunnel of the proxy's Unix socket. Reads one command
 * per stdin line (`direct`, or `tunnel <socket path>`), answers each with one line: the MB/s, or `error: why`.
 */
import * as net from 'node:net';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { startUpstream, type Upstream } from '../support/proxyPeers';

export const DOWNLOAD_BYTES = 50 * 1024 * 1024;

/** Serves DOWNLOAD_BYTES on each connection (with backpressure), then ends. */
function download(s: net.Socket): void {
  const chunk = Buffer.alloc(64 * 1024, 120);
  let left = DOWNLOAD_BYTES;
  const more = () => {
    while (left > 0) {
      left -= chunk.length;
      if (!s.write(chunk)) {
        s.once('drain', more);
        return;
      }
    }
    s.end();
  };
  more();
}

/** A socket on the far side of a CONNECT tunnel of the proxy at `sock`, once it answered 200. */
function tunnelTo(sock: string, port: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const s = net.connect({ path: sock });
    s.once('error', reject);
    s.once('connect', () => s.write(`CONNECT files.test:${port} HTTP/1.1\r\n\r\n`));
    let head = Buffer.alloc(0);
    const onData = (d: Buffer) => {
      head = Buffer.concat([head, d]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) {
        return;
      }
      s.off('data', onData);
      s.pause();
      if (!head.toString('latin1').startsWith('HTTP/1.1 200')) {
        reject(new Error(`CONNECT answered ${head.toString('latin1').split('\r\n')[0]}`));
        return;
      }
      if (head.length > end + 4) {
        s.unshift(head.subarray(end + 4));
      }
      resolve(s);
    };
    s.on('data', onData);
  });
}

/** MB/s of one download: connect (through a tunnel when `sock` is given), count bytes to the end. */
async function rate(up: Upstream, sock?: string): Promise<number> {
  const t0 = performance.now();
  const socket = sock ? await tunnelTo(sock, up.port) : net.connect({ port: up.port, host: '127.0.0.1' });
  let n = 0;
  await new Promise<void>((resolve, reject) => {
    socket.on('data', (d: Buffer) => (n += d.length));
    socket.once('end', resolve);
    socket.once('error', reject);
    socket.resume();
  });
  socket.destroy();
  const seconds = (performance.now() - t0) / 1000;
  if (n !== DOWNLOAD_BYTES) {
    throw new Error(`the download gave ${n} of ${DOWNLOAD_BYTES} bytes`);
  }
  return DOWNLOAD_BYTES / (1024 * 1024) / seconds;
}

async function main(): Promise<void> {
  const up = await startUpstream(download);
  for await (const line of createInterface({ input: process.stdin })) {
    const [mode, sock] = line.split(' ');
    try {
      console.log(String(await rate(up, mode === 'tunnel' ? sock : undefined)));
    } catch (e) {
      console.log(`error: ${(e as Error).message}`);
    }
  }
  await up.close();
}

if (require.main === module) {
  void main();
}
