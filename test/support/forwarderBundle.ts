/**
 * dist/forwarder.js as the build makes it (src/local/network/forwarderMain.ts bundled by esbuild), written into a
 * test's temp folder, so tests that run from the sources run the same forwarder a packaged extension runs.
 */
import * as path from 'node:path';
import { buildSync } from 'esbuild';
import type { ForwarderRuntime } from '../../src/local/network/forwarderLine';

const ENTRY = path.resolve(__dirname, '../../src/local/network/forwarderMain.ts');

/** Bundles the forwarder into `dir`; run by this process's Node (not Electron here). */
export function bundleForwarder(dir: string): ForwarderRuntime {
  const script = path.join(dir, 'forwarder.js');
  buildSync({
    entryPoints: [ENTRY],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    outfile: script,
    logLevel: 'warning',
  });
  return { node: process.execPath, electron: false, script };
}
