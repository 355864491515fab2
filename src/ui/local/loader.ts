/**
 * src/local (the ACP client, with @agentclientprotocol/sdk) is built as its own bundle, dist/local.js, and loaded
 * only when the first local agent starts: activation and dist/extension.js do not pay for it. Only types are
 * imported from src/local in the VS Code layer.
 */
import * as path from 'node:path';

export type LocalModule = typeof import('../../local');

let loaded: LocalModule | undefined;

/** Loads dist/local.js once (it sits beside dist/extension.js, which is this code's bundle). */
export function loadLocalBundle(): LocalModule {
  // A computed path: esbuild leaves it alone, so src/local stays out of the main bundle.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  loaded ??= require(path.join(__dirname, 'local.js')) as LocalModule;
  return loaded;
}

/** True once dist/local.js was loaded in this extension host (tests check that activation did not load it). */
export function localBundleLoaded(): boolean {
  return loaded !== undefined;
}
