/**
 * How a sandboxed agent reaches the host proxy (host side of forwarder.ts): which Node runs the forwarder inside
 * (the editor's own: `process.execPath`, with `ELECTRON_RUN_AS_NODE=1` where that is Electron, desktop VS Code),
 * the fixed places inside the sandbox where the forwarder, that Node's folder and the proxy socket are mounted, and
 * the proxy variables the agent gets. On Linux the sandbox has a network of its own, so the port is fixed.
 */
import * as net from 'node:net';
import * as path from 'node:path';

/** The port the forwarder listens on inside a sandbox's own network namespace (nothing else is there). */
export const FORWARDER_PORT = 3128;
/** Inside the sandbox's private `/tmp` (Linux): where the pieces are mounted. */
export const SANDBOX_NET_DIR = '/tmp/.fountain-network';
export const SANDBOX_SOCKET = `${SANDBOX_NET_DIR}/proxy.sock`;
export const SANDBOX_FORWARDER = `${SANDBOX_NET_DIR}/forwarder.js`;
export const SANDBOX_NODE_DIR = `${SANDBOX_NET_DIR}/node`;

/** The Node that runs the forwarder: its executable, whether it is Electron, and the forwarder's bundle. */
export interface ForwarderRuntime {
  readonly node: string;
  readonly electron: boolean;
  readonly script: string;
}

/** The editor's own Node and dist/forwarder.js beside this bundle (dist/local.js). */
export function editorForwarder(): ForwarderRuntime {
  return {
    node: process.execPath,
    electron: process.versions.electron !== undefined,
    script: path.join(__dirname, 'forwarder.js'),
  };
}

/** A sandbox whose network goes through the host proxy. */
export interface SandboxNetwork {
  /** The proxy's Unix socket on the host (in a private 0700 folder the sandbox cannot see). */
  readonly socketPath: string;
  /** The port the forwarder listens on (Linux: {@link FORWARDER_PORT}; macOS: a free port of the host). */
  readonly port: number;
  readonly forwarder: ForwarderRuntime;
}

/** Proxy variables every runtime reads, both cases. */
const PROXY_NAMES = ['HTTPS_PROXY', 'HTTP_PROXY', 'ALL_PROXY'];
/**
 * Only the sandbox's own loopback goes around the proxy: inside the namespace it is not the host's (nothing of the
 * host is there), and an agent's own local servers (opencode's on 127.0.0.1:4096, a dev server it started) must
 * not be sent to the host. Every other host, the model's included, goes through the proxy.
 */
export const SANDBOX_NO_PROXY = 'localhost,127.0.0.1,::1';

/**
 * The agent's environment with its network through the forwarder on `port`: the proxy variables (upper and lower
 * case), {@link SANDBOX_NO_PROXY} in place of the user's own `NO_PROXY`, and `NODE_USE_ENV_PROXY=1` (Node 24's own
 * `fetch` and `http` honour the variables only with it; older Node ignores it).
 */
export function proxiedEnv(env: Readonly<Record<string, string>>, port: number): Record<string, string> {
  const url = `http://127.0.0.1:${port}`;
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) {
    if (!/^(no_proxy|https?_proxy|all_proxy)$/i.test(k)) {
      out[k] = v;
    }
  }
  for (const name of PROXY_NAMES) {
    out[name] = url;
    out[name.toLowerCase()] = url;
  }
  out.NO_PROXY = out.no_proxy = SANDBOX_NO_PROXY;
  out.NODE_USE_ENV_PROXY = '1';
  return out;
}

/**
 * The forwarder's port for this platform: {@link FORWARDER_PORT} inside Linux's own network namespace; on macOS,
 * where the sandbox shares the host's ports, one that was free a moment ago.
 */
export function forwarderPort(platform: NodeJS.Platform = process.platform): Promise<number> {
  if (platform !== 'darwin') {
    return Promise.resolve(FORWARDER_PORT);
  }
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}
