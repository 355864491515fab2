// `npm run soak`: bundles the scripted user (test/soak/host.ts, loaded in each window's extension host) to
// out/test/soak/host.js, then runs the soak harness (test/soak/main.ts) through tsx, like the integration harness.
import * as esbuild from 'esbuild';
import path from 'node:path';
import { tsImport } from 'tsx/esm/api';

const root = path.resolve(import.meta.dirname, '..', '..');
await esbuild.build({
  entryPoints: [path.join(root, 'test/soak/host.ts')],
  outfile: path.join(root, 'out/test/soak/host.js'),
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  packages: 'external',
  external: ['vscode'],
  logLevel: 'warning',
});
const { main } = await tsImport('../soak/main.ts', import.meta.url);
await main();
