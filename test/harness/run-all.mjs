// `npm test`: type-check, lint, build, then the test tiers in order (unit, integration in the real extension host,
// a one-minute soak, UI in the real workbench). Every step runs even if an earlier one failed, so one run shows everything.
// Ends with one line `N passed, N failed` (a failed check such as lint counts as one failure) and a non-zero exit
// code when anything failed.
import { spawn } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..', '..');
const node = process.execPath;
const bin = (pkg, rel) => path.join(root, 'node_modules', pkg, rel);
const only = process.env.FOUNTAIN_TIERS ? process.env.FOUNTAIN_TIERS.split(',') : undefined;

const steps = [
  { name: 'typecheck', kind: 'check', cmd: [node, bin('typescript', 'bin/tsc'), '--noEmit', '-p', '.'] },
  {
    name: 'lint',
    kind: 'check',
    cmd: [node, bin('eslint', 'bin/eslint.js'), '--config', '.eslint.config.mjs', '--max-warnings', '0', 'src', 'test'],
  },
  {
    name: 'format',
    kind: 'check',
    cmd: [
      node,
      bin('prettier', 'bin/prettier.cjs'),
      '--check',
      'src/**/*.ts',
      'test/**/*.{ts,mjs}',
      '--log-level',
      'warn',
    ],
  },
  { name: 'build', kind: 'check', cmd: [node, 'esbuild.mjs'] },
  { name: 'build tests', kind: 'check', cmd: [node, 'esbuild.mjs', '--tests'] },
  { name: 'unit', kind: 'tier', cmd: [node, bin('mocha', 'bin/mocha.js')] },
  { name: 'integration', kind: 'tier', cmd: [node, 'test/harness/run-ext-tests.mjs'] },
  // A one-minute soak (test/soak): two windows under the fault schedule, then the reconciliation; it prints a
  // mocha-style `1 passing` / `1 failing` line (about 3 minutes with its code-server; `npm run soak` runs ten).
  { name: 'soak', kind: 'tier', cmd: [node, 'test/harness/soak.mjs', '--minutes', '1', '--mocha'] },
  { name: 'ui', kind: 'tier', cmd: [node, 'test/harness/run-ui-test.mjs'] },
];

/**
 * Mocha's failure report of a tier (from `N failing` to the end, colours stripped), at most 80 lines, so the end of
 * the output (all a CI log may keep) names what failed.
 */
function failureReport(out) {
  // eslint-disable-next-line no-control-regex
  const plain = out.replace(/\x1b\[[0-9;]*m/g, '');
  const at = plain.search(/^\s*\d+ failing\b/m);
  if (at < 0) return '';
  const lines = plain.slice(at).split('\n');
  return lines.length > 80
    ? [...lines.slice(0, 80), `… ${lines.length - 80} more lines in the full output`].join('\n')
    : lines.join('\n');
}

function run(step) {
  return new Promise((resolve) => {
    const started = Date.now();
    console.log(`\n=== ${step.name} ===`);
    const child = spawn(step.cmd[0], step.cmd.slice(1), { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const tee = (stream, dest) =>
      stream.on('data', (d) => {
        out += d;
        dest.write(d);
      });
    tee(child.stdout, process.stdout);
    tee(child.stderr, process.stderr);
    child.on('close', (code) => {
      const count = (word) =>
        [...out.matchAll(new RegExp(`^\\s*(\\d+) ${word}\\b`, 'gm'))].reduce((n, m) => n + Number(m[1]), 0);
      resolve({
        code: code ?? 1,
        passing: count('passing'),
        failing: count('failing'),
        pending: count('pending'),
        secs: (Date.now() - started) / 1000,
        failures: failureReport(out),
      });
    });
  });
}

let passed = 0;
let failed = 0;
let skipped = 0;
const summary = [];
const failures = [];
for (const step of steps) {
  if (only && !only.includes(step.name)) continue;
  const r = await run(step);
  if (step.kind === 'tier') {
    passed += r.passing;
    skipped += r.pending;
    // A tier that exits non-zero without a mocha failure count (a crash, a harness error) still counts as a failure.
    const f = r.failing || (r.code !== 0 ? 1 : 0);
    failed += f;
    if (r.code === 0 && r.passing === 0) {
      failed += 1;
      summary.push(`${step.name}: ran no test`);
    }
    if (r.failures) failures.push(`--- ${step.name} ---\n${r.failures}`);
    summary.push(`${step.name}: ${r.passing} passed, ${f} failed, ${r.pending} skipped (${r.secs.toFixed(1)} s)`);
  } else {
    if (r.code !== 0) failed += 1;
    summary.push(`${step.name}: ${r.code === 0 ? 'ok' : 'FAILED'} (${r.secs.toFixed(1)} s)`);
  }
}
if (failures.length > 0) console.log('\n=== failures ===\n' + failures.join('\n'));
console.log('\n=== summary ===\n' + summary.join('\n'));
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 ? 1 : 0);
