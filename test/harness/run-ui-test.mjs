// Entry point for tier 3: Playwright + Debian Chromium clicking real toasts in the real workbench.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
const root = path.resolve(import.meta.dirname, '..', '..');
const args = [
  path.join(root, 'node_modules/mocha/bin/mocha.js'),
  '--config',
  path.join(root, 'test/ui/.mocharc.json'),
  // MOCHA_GREP selects tests by title, as it does for the integration tier (test/integration/index.ts).
  ...(process.env.MOCHA_GREP ? ['--grep', process.env.MOCHA_GREP] : []),
  ...process.argv.slice(2),
];
const r = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
process.exit(r.status ?? 1);
