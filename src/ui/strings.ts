import * as vscode from 'vscode';

/** Every user-facing string of the code side, localisable (house style §8.17). */
export const Strings = {
  showLogs: vscode.l10n.t('Show Logs'),
  openSettings: vscode.l10n.t('Open Settings'),
  signIn: vscode.l10n.t('Sign In'),
  signOut: vscode.l10n.t('Sign Out'),
  cancel: vscode.l10n.t('Cancel'),
  noServer: vscode.l10n.t('No Fountain server is configured. Set "fountain.serverUrl" (or FOUNTAIN_BASE_URL).'),
  apiKeyPrompt: (server: string) => vscode.l10n.t('API key for the Fountain server at {0}', server),
  apiKeyPlaceholder: vscode.l10n.t('A user key (ftn_…). Sandbox tokens cannot answer requests.'),
  apiKeyEmpty: vscode.l10n.t('Enter a key.'),
  apiKeySandbox: vscode.l10n.t(
    'This looks like a sandbox token (FOUNTAIN_TOKEN). Sandbox tokens may not answer requests: use a user key.',
  ),
  signedIn: (server: string) => vscode.l10n.t('Signed in to Fountain at {0}.', server),
  confirmSignOut: (server: string) =>
    vscode.l10n.t('Sign out of Fountain at {0}? Approval requests stop arriving until you sign in again.', server),
  signedOut: (server: string) => vscode.l10n.t('Signed out of Fountain at {0}.', server),
  notSignedIn: (server: string) => vscode.l10n.t('You are not signed in to {0} with a stored key.', server),
  keyFromEnvironment: vscode.l10n.t(
    'The key in use comes from the FOUNTAIN_API_KEY environment variable; unset it to stop using it.',
  ),
};
