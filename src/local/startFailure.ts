/**
 * Why a local agent did not start, as data the UI turns into one plain sentence (never the agent's stack trace: its
 * stderr goes to the log). Read from how the start ended and from the agent's last stderr lines.
 */

export type StartFailure =
  /** The command is not on the agent's PATH. */
  | { readonly kind: 'notFound'; readonly command: string; readonly install?: string }
  /** The OS refused to run the command (or its sandbox wrapper): `code` is the error code (EACCES, ENOENT…). */
  | { readonly kind: 'cannotRun'; readonly command: string; readonly code: string }
  /** Node could not load a module the agent imports; `module` when its error named it. */
  | { readonly kind: 'missingModule'; readonly module?: string; readonly sandboxed: boolean }
  /** It exited (or was killed) before answering; `how` is `code 1` or `SIGKILL`. */
  | { readonly kind: 'exited'; readonly how: string }
  /** It did not answer initialize and session/new in time. */
  | { readonly kind: 'timeout'; readonly seconds: number }
  /** Anything else: the first line of what went wrong. */
  | { readonly kind: 'other'; readonly line: string };

/** Node's (and bun's) errors for a module it cannot load, and the module they name. */
const MISSING = /\bERR_MODULE_NOT_FOUND\b|\bMODULE_NOT_FOUND\b|Cannot find (?:module|package) '/;
const NAMED = /Cannot find (?:module|package) '([^']+)'/;

/** The module a stderr tail says could not be loaded (undefined: none); `''` when no name could be read. */
export function missingModule(tail: readonly string[]): string | undefined {
  if (!tail.some((l) => MISSING.test(l))) {
    return undefined;
  }
  for (const l of tail) {
    const m = NAMED.exec(l);
    if (m) {
      return m[1];
    }
  }
  return '';
}

/** What went wrong when a started process ended before answering, read from its exit and stderr tail. */
export function exitFailure(
  exit: { readonly code: number | null; readonly signal: string | null },
  tail: readonly string[],
  sandboxed: boolean,
): StartFailure {
  const module = missingModule(tail);
  if (module !== undefined) {
    return { kind: 'missingModule', sandboxed, ...(module ? { module } : {}) };
  }
  return { kind: 'exited', how: exit.signal ?? `code ${String(exit.code)}` };
}

/** The first line of an error's message (its stack and any following lines go to the log, not the user). */
export function firstLine(e: unknown): string {
  const message = e instanceof Error ? e.message : String(e);
  return message.split('\n')[0];
}
