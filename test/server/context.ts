/**
 * What every route reads: the clock, the SSE hub, the store and engine of the current life (a hard restart replaces
 * both), the fault knobs, and the server's programmatic face. Also the lookups routes share: who a key belongs to,
 * which conversation it may see, a user by name.
 */
import type { IncomingMessage } from 'node:http';
import type { ServerClock } from './clock';
import type { FaultKnobs } from './control/faults';
import type { LatencyKnob } from './control/latency';
import type { RequestLog } from './control/requestLog';
import type { Engine } from './engine';
import { unauthorized, type HttpResult } from './http';
import type { RunningServer } from './server';
import type { SandboxKnobs } from './sandboxes';
import type { SseHub } from './sse';
import type { ConversationRec, KeyRec, Store, UserRec } from './store';

export interface ServerContext {
  readonly clock: ServerClock;
  readonly hub: SseHub;
  readonly store: Store;
  readonly engine: Engine;
  readonly faults: FaultKnobs;
  readonly latency: LatencyKnob;
  readonly requestLog: RequestLog;
  /** The sandboxes' knobs (state, repository, changes); their files are the conversations' working directories. */
  readonly sandboxes: SandboxKnobs;
  readonly log: (msg: string) => void;
  /** The programmatic face (control routes call it so the two stay one behaviour). */
  readonly server: RunningServer;
}

export interface Auth {
  user: UserRec;
  key: KeyRec;
}

export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The bearer key's user, or the 401 Fountain answers (missing, unknown, revoked, expired, account unavailable). */
export function authenticate(store: Store, now: number, req: IncomingMessage): Auth | HttpResult {
  const h = req.headers.authorization;
  const m = h ? /^Bearer\s+(\S+)\s*$/i.exec(h) : null;
  if (!m) {
    return unauthorized('api_key_invalid', 'Missing or malformed API key');
  }
  const key = store.keys.get(m[1]);
  if (!key) {
    return unauthorized('api_key_invalid', 'Invalid API key');
  }
  if (key.revoked) {
    return unauthorized('api_key_revoked', 'This API key was revoked');
  }
  if (key.expires_at != null && key.expires_at <= now) {
    return unauthorized('api_key_expired', 'This API key has expired');
  }
  const user = store.users.get(key.user_id);
  if (!user) {
    return unauthorized('api_key_invalid', 'Invalid API key');
  }
  if (user.unavailable) {
    return unauthorized('account_unavailable', 'This account is unavailable');
  }
  return { user, key };
}

/** The conversation if this key may see it; a sprite key sees only its own conversation. */
export function visibleConv(store: Store, auth: Auth, id: string): ConversationRec | undefined {
  if (!UUID_RE.test(id)) {
    return undefined;
  }
  const c = store.conversations.get(id.toLowerCase());
  if (!c || c.user_id !== auth.user.id) {
    return undefined;
  }
  if (auth.key.scope !== 'full' && auth.key.scope !== `sprite:${c.id}`) {
    return undefined;
  }
  return c;
}

/** A user by id, `alice`-style short name or e-mail local part; no name means alice. */
export function userByName(store: Store, name: string | undefined): UserRec | undefined {
  if (!name) {
    return store.users.get('user-alice');
  }
  return (
    store.users.get(name) ??
    [...store.users.values()].find((u) => u.email.split('@')[0] === name || u.id === `user-${name}`)
  );
}

/** The user's current full key, or one of its revoked / expired keys. */
export function keyOf(store: Store, userId: string, kind: 'full' | 'revoked' | 'expired'): string {
  return (
    [...store.keys.values()].find(
      (k) =>
        k.user_id === userId &&
        k.scope === 'full' &&
        (kind === 'revoked'
          ? k.revoked
          : kind === 'expired'
            ? k.expires_at != null
            : !k.revoked && k.expires_at == null),
    )?.key ?? ''
  );
}
