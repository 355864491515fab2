/** The source ids of local agent sessions (`local:<session id>`): small, so every bundle can tell them apart. */
const PREFIX = 'local:';

/** The source id of a local session's requests (`RequestKey.server`). */
export function localSourceId(sessionId: string): string {
  return PREFIX + sessionId;
}

/** True for a key (or source id) of a local agent session. */
export function isLocalSource(server: string): boolean {
  return server.startsWith(PREFIX);
}

/** The session id a local source id (`local:<session id>`) names; undefined for any other source. */
export function localSessionIdOf(server: string): string | undefined {
  return isLocalSource(server) ? server.slice(PREFIX.length) : undefined;
}
