// CLI entry for the local Fountain-compatible test server (see test/server/README.md).
// Runs the TypeScript sources through tsx, so no build step is needed after `npm ci`.
import { register } from 'tsx/esm/api';
// The package is CommonJS, so tsx also needs its require() hook: with only the ESM hook, Node 20.19+ loads the
// .ts files through require(esm) and fails with ERR_REQUIRE_CYCLE_MODULE.
import { register as registerCjs } from 'tsx/cjs/api';

register();
registerCjs();
await import('./cli.ts');
