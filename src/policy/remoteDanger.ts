/**
 * The danger mark of a remote (Fountain) request: its command, or else its title, matches the local gate's
 * built-in denylist. Only a mark for the inbox (a warning and a modal confirmation before allowing): a remote
 * request is never answered for the user because of it.
 */
import { denylistMatch } from './denylist';

export interface RemoteDanger {
  /** What the command does, as the denylist words it ("removes the home directory recursively"). */
  readonly reason: string;
}

/** The danger of a remote request's `command` (preferred) or `title`; undefined when neither is denylisted. */
export function remoteDanger(commandOrTitle: string | undefined, title?: string): RemoteDanger | undefined {
  for (const text of [commandOrTitle, title]) {
    if (typeof text === 'string' && text.trim() !== '') {
      const hit = denylistMatch(text);
      if (hit) {
        return { reason: hit.reason };
      }
    }
  }
  return undefined;
}
