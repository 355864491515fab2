/**
 * A part of the extension built as its own bundle beside dist/extension.js (esbuild.mjs entryPoints) and required on
 * its first use, so dist/extension.js and activation do not pay for it. Callers import only types from the module.
 */
import * as path from 'node:path';

export interface LazyBundle<T> {
  /** Requires the bundle once and returns its exports. */
  readonly load: () => T;
  /** True once it was loaded in this extension host (tests check that activation did not load it). */
  readonly loaded: () => boolean;
}

/** `file` is the bundle's name in dist/, e.g. 'policyEditor.js'. */
export function lazyBundle<T>(file: string): LazyBundle<T> {
  let exports: T | undefined;
  return {
    load: () => {
      // A computed path: esbuild leaves it alone, so the module stays out of the main bundle.
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      exports ??= require(path.join(__dirname, file)) as T;
      return exports;
    },
    loaded: () => exports !== undefined,
  };
}
