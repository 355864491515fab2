import * as vscode from 'vscode';
import { refusalWords } from '../plainWords';

/** The Sign In and Sign Out flows' strings (dist/auth.js). */
export const SignInStrings = {
  cancel: vscode.l10n.t('Cancel'),
  apiKeyPrompt: (server: string) => vscode.l10n.t('API key for the Fountain server at {0}', server),
  apiKeyPlaceholder: vscode.l10n.t('A user key (ftn_…). Sandbox tokens cannot answer requests.'),
  apiKeyEmpty: vscode.l10n.t('Enter a key.'),
  apiKeySandbox: vscode.l10n.t(
    'This looks like a sandbox token (FOUNTAIN_TOKEN). Sandbox tokens may not answer requests: use a user key.',
  ),
  checkingKey: (server: string) => vscode.l10n.t('Checking the key with {0}…', server),
  signedInAs: (server: string, who: string) => vscode.l10n.t('Signed in to {0} as {1}.', server, who),
  keyRefused: (server: string, reason: string) =>
    vscode.l10n.t('{0} refused this key: {1}. Nothing was stored.', server, reason),
  /** Why the key was refused when the server sent no sentence: its code (§1 of the wire notes) in words. */
  refusalReason: (code: string | undefined, status: number): string =>
    code === 'api_key_revoked'
      ? vscode.l10n.t('the key was revoked')
      : code === 'api_key_expired'
        ? vscode.l10n.t('the key has expired')
        : code === 'account_unavailable'
          ? vscode.l10n.t('the account is suspended')
          : code === 'api_key_invalid' || status === 401
            ? vscode.l10n.t('the server does not know this key')
            : refusalWords(status),
  keyNotChecked: (server: string, why: string) =>
    vscode.l10n.t('Could not check the key with {0}: {1}. Nothing was stored.', server, why),
  confirmSignOut: (server: string) =>
    vscode.l10n.t('Sign out of Fountain at {0}? Approval requests stop arriving until you sign in again.', server),
  notSignedIn: (server: string) => vscode.l10n.t('You are not signed in to {0} with a stored key.', server),
  notSignedInKeyFromEnvironment: (server: string) =>
    vscode.l10n.t(
      'You are not signed in to {0} with a stored key. The key in use comes from the FOUNTAIN_API_KEY environment variable; unset it to stop using it.',
      server,
    ),
};
