/**
 * Sign In and Sign Out, as the composition root and the authentication provider call them. Their flows (password
 * box, key check, confirmation) are dist/auth.js (src/ui/auth/signInFlow.ts), loaded on first use.
 */
import type { Config } from '../../platform/config';
import type { Logger } from '../../platform/log';
import type { ApiKeyStore, StoredAccount } from '../../platform/secrets';
import { lazyBundle } from '../lazyBundle';

export const authBundle = lazyBundle<typeof import('./signInFlow')>('auth.js');

/** "Fountain: Sign In": see src/ui/auth/signInFlow.ts. */
export function signIn(
  config: Config,
  keys: ApiKeyStore,
  log: Logger,
): Promise<{ server: string; account: StoredAccount } | undefined> {
  return authBundle.load().signIn(config, keys, log);
}

/** "Fountain: Sign Out": see src/ui/auth/signInFlow.ts. */
export function signOut(config: Config, keys: ApiKeyStore): Promise<boolean> {
  return authBundle.load().signOut(config, keys);
}
