/**
 * The scripted loopback model the real ACP agents talk to, re-exported so that any tier (including the extension
 * host's bundle, which must not pull in the rest of the local server) can start one without importing the server tier.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import { QUIET_CLAUDE_ENV } from '../server/agents/real/fakeModel';

export {
  startFakeModel,
  QUIET_CLAUDE_ENV,
  type FakeModel,
  type FakeModelOptions,
} from '../server/agents/real/fakeModel';

/** Writes `<claudeDir>/settings.json` for a Claude Code on the scripted model: no web-fetch preflight, no traffic. */
export function writeQuietClaudeSettings(claudeDir: string): void {
  fs.mkdirSync(claudeDir, { recursive: true });
  fs.writeFileSync(
    path.join(claudeDir, 'settings.json'),
    JSON.stringify({ skipWebFetchPreflight: true, env: QUIET_CLAUDE_ENV }),
  );
}
