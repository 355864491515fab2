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

/**
 * The longest text parsed: a megabyte takes the parser a few hundred milliseconds of the extension host. A longer one
 * is marked as unchecked rather than not marked, so padding a command never hides it.
 */
export const MAX_CHECKED_CHARS = 65_536;

/**
 * The danger of a remote request's `command` (preferred) or `title`; undefined when neither is denylisted. A text
 * longer than MAX_CHECKED_CHARS is not parsed and is marked as too long to check.
 */
export function remoteDanger(commandOrTitle: string | undefined, title?: string): RemoteDanger | undefined {
  for (const text of [commandOrTitle, title]) {
    if (typeof text === 'string' && text.trim() !== '') {
      if (text.length > MAX_CHECKED_CHARS) {
        return { reason: `is too long to check against the denylist (${text.length} characters)` };
      }
      const hit = denylistMatch(text);
      if (hit) {
        return { reason: hit.reason };
      }
    }
  }
  return undefined;
}
