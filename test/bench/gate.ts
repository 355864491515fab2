/**
 * The local gate's decision time on long lines (issue 27): a 16 KB line of 8,000 operands (the longest the gate
 * reads, MAX_GATE_CHARS) and a 1 MB line (asked as too long; the denylist still reads its first 16 KB). Baseline
 * in the same run: splitting the same 16 KB line on spaces, the least reading there is.
 */
import { performance } from 'node:perf_hooks';
import { decide, type GateInput } from '../../src/policy';
import type { Row } from './table';

const ROOT = '/work/repo';
const RUNS = 60;

/** p99 of RUNS timed calls after `warm` untimed ones. */
function p99(f: () => void, warm = 5): number {
  for (let i = 0; i < warm; i++) {
    f();
  }
  const t: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const s = performance.now();
    f();
    t.push(performance.now() - s);
  }
  t.sort((a, b) => a - b);
  return t[Math.min(t.length - 1, Math.floor(t.length * 0.99))];
}

const input = (command: string): GateInput => ({
  request: { kind: 'execute', command, title: command, cwd: ROOT },
  mode: 'ask',
  config: { roots: [ROOT] },
  home: '/home/u',
});

export function gateRows(): Row[] {
  // `ls a b …`: 8,000 one-letter operands, 16,003 characters, each operand a path the gate places.
  const operands = `ls ${Array.from({ length: 8000 }, (_, i) => String.fromCharCode(97 + (i % 26))).join(' ')}`;
  const mb = `echo ${'x'.repeat(1024 * 1024 - 5)}`;
  let sink = 0;
  const first = performance.now();
  sink += decide(input(operands)).reason.length;
  const cold = performance.now() - first;
  const base = p99(() => {
    sink += operands.split(' ').length;
  });
  const long = p99(() => {
    sink += decide(input(operands)).reason.length;
  });
  const huge = p99(() => {
    sink += decide(input(mb)).reason.length;
  });
  if (sink === 0) {
    throw new Error('the gate bench measured nothing');
  }
  return [
    { section: 'Local gate (Node, one process; p99 of 60 decisions after 5 untimed)' },
    [
      `decide: the first ${operands.length}-character line of 8,000 operands (cold: JIT, first GC)`,
      `${cold.toFixed(1)} ms`,
      'reported',
    ],
    [`splitting a ${operands.length}-character line on spaces (baseline)`, `${base.toFixed(3)} ms`],
    [`decide: a ${operands.length}-character line of 8,000 operands`, `${long.toFixed(1)} ms`, '≤ 50 ms', long <= 50],
    ['same / baseline', (long / base).toFixed(0), 'reported'],
    [`decide: a ${(mb.length / 1024 / 1024).toFixed(0)} MB line`, `${huge.toFixed(1)} ms`, '≤ 50 ms', huge <= 50],
  ];
}

if (process.argv[1]?.endsWith('gate.ts')) {
  console.log(JSON.stringify(gateRows()));
}
