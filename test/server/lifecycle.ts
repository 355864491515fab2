/**
 * Lifecycle: the state file (open, seed a fresh one, reload after a hard restart) and the HTTP listener (listen on
 * 127.0.0.1, keep the port across restarts, drop every connection on close).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { AgentDefinition } from './agents/types';
import { sendJson } from './http';
import { newKey, Store } from './store';

/** Opens (or creates) the state; a fresh one gets the two users and their keys. Returns whether it was fresh. */
export function openState(
  stateFile: string | undefined,
  now: number,
  keys: { alice?: string; bob?: string } | undefined,
  agents: Iterable<AgentDefinition>,
): { store: Store; fresh: boolean } {
  const store = new Store(stateFile);
  const fresh = store.isEmpty;
  if (fresh) {
    seed(store, now, keys);
  }
  // Agents from the registry that the state does not know yet (a new scripted agent, or real ones now present).
  for (const a of agents) {
    if (!store.agents.has(a.id)) {
      const t = new Date(now).toISOString();
      store.saveAgent({
        id: a.id,
        name: a.name,
        runtime: a.runtime,
        description: a.description,
        permission_policy: { ...a.policy },
        inserted_at: t,
        updated_at: t,
      });
    }
  }
  return { store, fresh };
}

function seed(store: Store, now: number, keys: { alice?: string; bob?: string } | undefined): void {
  store.saveUser({ id: 'user-alice', email: 'alice@example.test', role: 'owner' });
  store.saveUser({ id: 'user-bob', email: 'bob@example.test', role: 'owner' });
  store.saveKey({ key: keys?.alice ?? newKey(), user_id: 'user-alice', scope: 'full' });
  store.saveKey({ key: keys?.bob ?? newKey(), user_id: 'user-bob', scope: 'full' });
  store.saveKey({ key: newKey(), user_id: 'user-alice', scope: 'full', revoked: true });
  store.saveKey({ key: newKey(), user_id: 'user-alice', scope: 'full', expires_at: now - 1000 });
}

/** `node:http` on 127.0.0.1 that can close every connection and listen again on the same port. */
export class HttpListener {
  private http: Server | undefined;
  private readonly sockets = new Set<Socket>();

  constructor(
    private port: number,
    private readonly handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>,
    private readonly log: (msg: string) => void,
  ) {}

  get boundPort(): number {
    return this.port;
  }

  async listen(): Promise<void> {
    const http = createServer((req, res) => {
      this.handle(req, res).catch((err: unknown) => {
        this.log(`request failed: ${String(err)}`);
        sendJson(res, { status: 500, body: { error: 'internal_error' } });
      });
    });
    this.http = http;
    http.keepAliveTimeout = 5_000;
    http.on('connection', (s: Socket) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
    await new Promise<void>((resolve, reject) => {
      http.once('error', reject);
      http.listen(this.port, '127.0.0.1', () => {
        http.off('error', reject);
        resolve();
      });
    });
    const addr = http.address();
    if (addr && typeof addr === 'object') {
      this.port = addr.port;
    }
  }

  /** Stops listening and destroys every open connection. */
  async close(): Promise<void> {
    const http = this.http;
    if (!http) {
      return;
    }
    const closed = new Promise<void>((r) => http.close(() => r()));
    for (const s of this.sockets) {
      s.destroy();
    }
    this.sockets.clear();
    await closed;
  }
}
