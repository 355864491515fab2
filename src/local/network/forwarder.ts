/**
 * The forwarder that runs inside a sandbox without a network of its own (`--unshare-net`): it listens on
 * `127.0.0.1:port` inside the namespace and relays every connection byte for byte to the host proxy's Unix socket
 * (bound into the sandbox), then starts the agent with the same stdio, so the agent's `HTTPS_PROXY` points at it.
 * It decides nothing and reads nothing of what it relays: it runs with the agent's rights, inside the boundary (the
 * namespace and the proxy's decider are the boundary, not this). The agent's exit code and signal are its own; the
 * signals it is sent go on to the agent. Started by forwarderMain.ts (its own small bundle, dist/forwarder.js).
 */
import { spawn } from 'node:child_process';
import * as net from 'node:net';

/** Listens on `host:port` and relays each connection to the Unix socket `socketPath`. */
export function relay(socketPath: string, port: number, host = '127.0.0.1'): Promise<net.Server> {
  const server = net.createServer({ allowHalfOpen: true }, (client) => {
    const upstream = net.connect({ path: socketPath, allowHalfOpen: true });
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.removeListener('error', reject);
      resolve(server);
    });
  });
}

const FORWARDED: readonly NodeJS.Signals[] = ['SIGTERM', 'SIGINT', 'SIGHUP'];

/**
 * `forwarder <socket> <port> <command> [args…]`: relays, then runs the command with this process's stdio and
 * environment (less `ELECTRON_RUN_AS_NODE`, which only this process needed) and ends as it ended.
 */
export async function main(argv: readonly string[]): Promise<void> {
  const [socketPath, portText, command, ...args] = argv;
  const port = Number(portText);
  if (!socketPath || !command || !Number.isInteger(port) || port <= 0 || port > 65535) {
    process.stderr.write('fountain forwarder: usage: forwarder <socket> <port> <command> [args…]\n');
    process.exit(2);
  }
  try {
    (await relay(socketPath, port)).unref();
  } catch (e) {
    process.stderr.write(`fountain forwarder: cannot listen on 127.0.0.1:${port}: ${(e as Error).message}\n`);
    process.exit(1);
  }
  const env = { ...process.env };
  delete env.ELECTRON_RUN_AS_NODE;
  const child = spawn(command, args, { stdio: 'inherit', env });
  for (const sig of FORWARDED) {
    process.on(sig, () => child.kill(sig));
  }
  child.once('error', (e: NodeJS.ErrnoException) => {
    process.stderr.write(`fountain forwarder: cannot run ${command}: ${e.message}\n`);
    process.exit(e.code === 'ENOENT' ? 127 : 126);
  });
  child.once('exit', (code, signal) => {
    if (signal) {
      for (const sig of FORWARDED) {
        process.removeAllListeners(sig);
      }
      process.kill(process.pid, signal);
      return;
    }
    process.exit(code ?? 1);
  });
}
