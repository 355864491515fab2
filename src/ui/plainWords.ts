import * as vscode from 'vscode';

/**
 * A server's refusal in words a person reads: what happened, never the HTTP status, the server's code or the route
 * (those go to the log). Each phrase completes a sentence such as "…was not sent: {0}." (lower case, no full stop).
 */
export function refusalWords(status: number | undefined): string {
  if (status === undefined) {
    return vscode.l10n.t('the server could not be reached');
  }
  if (status === 401) {
    return vscode.l10n.t('the server no longer accepts your key');
  }
  if (status === 403) {
    return vscode.l10n.t('your key may not do this');
  }
  if (status === 404) {
    return vscode.l10n.t('the server does not know it');
  }
  if (status === 409) {
    return vscode.l10n.t('the server is busy with something that conflicts with it');
  }
  if (status === 400 || status === 422) {
    return vscode.l10n.t('the server did not accept it as valid');
  }
  if (status === 429) {
    return vscode.l10n.t('the server is rate-limiting requests');
  }
  if (status >= 500) {
    return vscode.l10n.t('the server had a problem');
  }
  return vscode.l10n.t('the server refused it');
}

/** The shape of protocol/apiClient's errors, by name: the lazy bundles each hold their own copy of those classes. */
interface NamedError {
  readonly name: string;
  readonly status?: unknown;
}

/**
 * An error's cause in plain words: a FountainHttpError by what its status means, a FountainNetworkError as "could
 * not be reached", anything else (the extension's own errors) by its message. Log `errorDetail(e)` beside it.
 */
export function errorWords(e: unknown): string {
  const n = e as NamedError | null;
  if (n?.name === 'FountainHttpError' && typeof n.status === 'number') {
    return refusalWords(n.status);
  }
  if (n?.name === 'FountainNetworkError') {
    return refusalWords(undefined);
  }
  return e instanceof Error ? e.message : String(e);
}

/** The technical text of an error, for the log only. */
export function errorDetail(e: unknown): string {
  return e instanceof Error ? `${e.name}: ${e.message}` : String(e);
}

/**
 * Counted nouns, one message per form (1 and other, as VS Code's own bundles do), for sentences that hold two
 * counts or a count inside a longer phrase. A sentence with one count picks its own two messages instead.
 */
export const Counted = {
  pastRequests: (n: number) => (n === 1 ? vscode.l10n.t('1 past request') : vscode.l10n.t('{0} past requests', n)),
  conversations: (n: number) => (n === 1 ? vscode.l10n.t('1 conversation') : vscode.l10n.t('{0} conversations', n)),
  times: (n: number) => (n === 1 ? vscode.l10n.t('once') : vscode.l10n.t('{0} times', n)),
  waitingRequests: (n: number) =>
    n === 1 ? vscode.l10n.t('1 waiting request') : vscode.l10n.t('{0} waiting requests', n),
  otherWaitingRequests: (n: number) =>
    n === 1 ? vscode.l10n.t('1 other waiting request') : vscode.l10n.t('{0} other waiting requests', n),
};
