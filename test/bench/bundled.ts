/**
 * Runs a bench child as the extension runs: bundled by esbuild into one minified CommonJS file first (as esbuild.mjs
 * builds dist/extension.js), so a cold measurement pays for V8 parsing and compiling the product's code, not for tsx
 * transpiling TypeScript on first require. `vscode` stays external (the child puts its stand-in in place).
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as esbuild from 'esbuild';

export function runBundled(entry: string, nodeArgs: string[] = [], args: string[] = []): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fountain-bench-child-'));
  const out = path.join(dir, path.basename(entry).replace(/\.ts$/, '.js'));
  try {
    esbuild.buildSync({
      entryPoints: [path.join(__dirname, entry)],
      outfile: out,
      bundle: true,
      format: 'cjs',
      platform: 'node',
      target: 'node20',
      minify: true,
      external: ['vscode'],
      logLevel: 'warning',
    });
    return execFileSync(process.execPath, [...nodeArgs, out, ...args], { encoding: 'utf8' });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The last line of a child's output, as JSON. */
export function lastJson<T>(out: string): T {
  return JSON.parse(out.trim().split('\n').at(-1)!) as T;
}
