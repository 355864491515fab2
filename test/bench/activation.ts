/**
 * Bundle size and activation time of the production bundle: `dist/extension.js` built with --production, then
 * loaded and activated in fresh Node processes (test/bench/activationChild.mjs) until its first connection attempt.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');
const RUNS = 15;

export interface ActivationResult {
  bundleKb: number;
  baselineMs: number;
  loadMs: number;
  activateMs: number;
  totalMs: number;
  runs: number;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

export function activationBench(): ActivationResult {
  execFileSync(process.execPath, [path.join(ROOT, 'esbuild.mjs'), '--production'], { cwd: ROOT, stdio: 'inherit' });
  const bundle = path.join(ROOT, 'dist/extension.js');
  const bundleKb = fs.statSync(bundle).size / 1000; // decimal kB, as the 576 KB it started from
  const runs: Array<{ baselineMs: number; loadMs: number; activateMs: number }> = [];
  for (let i = 0; i < RUNS; i++) {
    const out = execFileSync(
      process.execPath,
      [path.join(__dirname, 'activationChild.mjs'), bundle, 'http://127.0.0.1:9'],
      { cwd: ROOT, encoding: 'utf8', env: { ...process.env, FOUNTAIN_API_KEY: '' } },
    );
    const r = JSON.parse(out.trim().split('\n').at(-1)!) as {
      baselineMs: number;
      loadMs: number;
      activateMs: number;
      url?: string;
      error?: string;
    };
    if (r.error || !r.url?.endsWith('/api/events/stream?streams=acp,stage&blocks=true')) {
      throw new Error(`activation run failed: ${out}`);
    }
    runs.push(r);
  }
  const loadMs = median(runs.map((r) => r.loadMs));
  const activateMs = median(runs.map((r) => r.activateMs));
  return {
    bundleKb,
    baselineMs: median(runs.map((r) => r.baselineMs)),
    loadMs,
    activateMs,
    totalMs: median(runs.map((r) => r.loadMs + r.activateMs)),
    runs: RUNS,
  };
}
