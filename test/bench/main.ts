/**
 * `npm run bench`: every row beside a baseline measured in the same run, printed as a table. A target is a ratio to
 * that baseline (so a busy machine moves both sides); absolute figures are reported, not judged, except sizes and
 * counts, which load does not move. Not part of `npm test`. `--requests N` (default 30) sets the requests per
 * workbench section; `--only node|workbench` runs one half, `--only "<group name>"` one group (for working on the
 * bench; the README's table is a full run). The workbench half starts code-server and Chromium under
 * `flock /tmp/fountain-vscode.lock`.
 */
import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createParser } from 'eventsource-parser';
import { runBench, readmeWithTable, runLine, type BenchGroup, type Row } from '../support/benchRunner';
import { nullLogger } from '../../src/protocol/env';
import { RequestAssembler } from '../../src/protocol/requestAssembler';
import { activationBench } from './activation';
import { backfillOnLocalServer, CONVERSATIONS, DETACHED, LATENCY_MS } from './backfill';
import { lastJson, runBundled } from './bundled';
import { gateRows } from './gate';
import { generate } from './gen';
import { latency, STARTUP_MS } from './latency';
import { networkProxyRows } from './networkProxy';
import { sandboxRows } from './sandbox';
import { TOAST_REQUESTS, toastLatencyBench } from './toasts';
import { TREE_CONVERSATIONS, TREE_REQUESTS, treeRenderBench } from './tree';
import type { WorkbenchResult } from './workbench/run';
import { workbenchRows } from './workbenchRows';

const EVENTS = 200_000;
const args = process.argv.slice(2);
const opt = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const REQUESTS = Number(opt('--requests') ?? 30);
const ONLY = opt('--only');

function pipelineRates(): { baseRate: number; pipeRate: number; ratio: number } {
  const input = generate(EVENTS);
  const baselineSeconds = () => {
    let n = 0;
    const t0 = performance.now();
    const p = createParser({ onEvent: () => void n++ });
    for (const c of input.chunks) {
      p.feed(c);
    }
    if (n !== EVENTS) {
      throw new Error(`baseline parsed ${n} events`);
    }
    return (performance.now() - t0) / 1000;
  };
  const pipelineSeconds = () => {
    let opened = 0;
    const tracker = new RequestAssembler('https://f.example', nullLogger);
    const t0 = performance.now();
    const p = createParser({
      onEvent: (m) => {
        for (const e of tracker.handleSse(m).events) {
          if (e.type === 'requestOpened') {
            opened++;
          }
        }
      },
    });
    for (const c of input.chunks) {
      p.feed(c);
    }
    if (opened !== input.permissions) {
      throw new Error(`pipeline opened ${opened} of ${input.permissions} requests`);
    }
    return (performance.now() - t0) / 1000;
  };
  baselineSeconds();
  pipelineSeconds(); // warm-up
  // Interleaved pairs, so that a busy spell of the machine falls on both sides; the ratio is the median of the
  // pairs' ratios (not the ratio of two bests taken a second apart), the rates are the medians of each side.
  const base: number[] = [];
  const pipe: number[] = [];
  const ratios: number[] = [];
  for (let i = 0; i < PIPELINE_PAIRS; i++) {
    // Which side goes first alternates.
    let b: number;
    let p: number;
    if (i % 2) {
      b = baselineSeconds();
      p = pipelineSeconds();
    } else {
      p = pipelineSeconds();
      b = baselineSeconds();
    }
    base.push(EVENTS / b);
    pipe.push(EVENTS / p);
    ratios.push(b / p);
  }
  return { baseRate: median(base), pipeRate: median(pipe), ratio: median(ratios) };
}

const PIPELINE_PAIRS = 11;
/** Fresh processes for the tree rows through the real provider (each renders once cold, then once after a change). */
const TREE_PROCESSES = 5;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

function heap(file: string, what?: string): { mb: number; open: number } {
  const out = execFileSync(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', path.join(__dirname, file), ...(what ? [what] : [])],
    { encoding: 'utf8' },
  );
  const r = lastJson<{ open: number; growthBytes: number }>(out);
  return { mb: r.growthBytes / (1024 * 1024), open: r.open };
}

function workbench(): Promise<WorkbenchResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      'flock',
      [
        '/tmp/fountain-vscode.lock',
        process.execPath,
        '--import',
        'tsx',
        path.join(__dirname, 'workbench/cli.ts'),
        String(REQUESTS),
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    // Its progress and errors pass through to stderr; the last line is the reason when it fails.
    let lastErr = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => {
      process.stderr.write(d);
      lastErr =
        d
          .toString()
          .split('\n')
          .filter((l) => l.trim())
          .at(-1) ?? lastErr;
    });
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0
        ? resolve(lastJson<WorkbenchResult>(out))
        : reject(new Error(`the workbench child exited ${code}: ${lastErr || 'no output'}`)),
    );
  });
}

const n = (x: number, digits = 0) =>
  x.toLocaleString('en', { maximumFractionDigits: digits, minimumFractionDigits: digits });

const treeWhat = `${n(TREE_REQUESTS)} requests in ${n(TREE_CONVERSATIONS)} conversations`;

function pipelineRows(): Row[] {
  const { baseRate, pipeRate, ratio } = pipelineRates();
  return [
    { section: 'Protocol pipeline (Node, one process)' },
    [
      `\`eventsource-parser\` alone on 200,000 stream events, median of ${PIPELINE_PAIRS} (baseline)`,
      `${n(baseRate)} events/s`,
    ],
    [`pipeline: parse + validate + map into domain events, median of ${PIPELINE_PAIRS}`, `${n(pipeRate)} events/s`],
    [
      `pipeline / baseline, median of ${PIPELINE_PAIRS} interleaved pairs' ratios`,
      ratio.toFixed(2),
      '≥ 0.5',
      ratio >= 0.5,
    ],
  ];
}

async function latencyRows(): Promise<Row[]> {
  const lat = await latency();
  const r = lat.steady.p99 / lat.baseline.p99;
  return [
    [
      `minimal client (fetch + eventsource-parser + JSON.parse), permission frame p99, steady (baseline)`,
      `${lat.baseline.p99.toFixed(3)} ms`,
    ],
    [
      `FountainClient: permission frame bytes → domain event, p50, steady (${lat.steady.samples} frames, 5k ev/s)`,
      `${lat.steady.p50.toFixed(3)} ms`,
    ],
    ['same, p99, steady', `${lat.steady.p99.toFixed(3)} ms`],
    ['p99 / baseline p99', r.toFixed(1), '≤ 10', r <= 10],
    [
      `same, p99, first ${STARTUP_MS / 1000} s of the connection (V8 still optimizing)`,
      `${lat.startup.p99.toFixed(3)} ms`,
      'reported',
    ],
  ];
}

function memoryRows(): Row[] {
  const tracker = heap('heap.ts');
  const whole = heap('heapWhole.ts', 'whole');
  const parsed = heap('heapWhole.ts', 'baseline');
  const r = whole.mb / parsed.mb;
  return [
    { section: 'Memory (Node, --expose-gc, one child process each)' },
    [
      `each request's parsed JSON-RPC message kept in an array, ${n(parsed.open)} requests (baseline)`,
      `${parsed.mb.toFixed(1)} MB`,
    ],
    [
      `the protocol tracker alone, ${n(tracker.open)} open requests (the row before)`,
      `${tracker.mb.toFixed(1)} MB`,
      'reported',
    ],
    [
      `tracker + Inbox (denylist marks) + Pending Approvals provider after one render, ${n(whole.open)} open`,
      `${whole.mb.toFixed(1)} MB`,
    ],
    ['whole / baseline', r.toFixed(2), '≤ 4', r <= 4 && whole.open === 10_000],
  ];
}

async function backfillRows(): Promise<Row[]> {
  const bf = await backfillOnLocalServer();
  const r = bf.ms / bf.replayMs;
  return [
    { section: 'Start-up backfill (local server in this process, 5 ms per response)' },
    [`the same ${bf.calls} calls replayed by plain fetch, 4 in flight (baseline)`, `${n(bf.replayMs)} ms`],
    [
      `FountainClient backfill: ${CONVERSATIONS} conversations, ${LATENCY_MS} ms per response, ${bf.opened}/${DETACHED} detached requests found`,
      `${n(bf.ms)} ms`,
    ],
    ['backfill / baseline', r.toFixed(2), '≤ 1.5', r <= 1.5 && bf.opened === DETACHED && bf.openKeys === DETACHED],
    [
      'most backfill requests in flight at once (counted by the server; a count)',
      String(bf.maxInFlight),
      '≤ 4',
      bf.maxInFlight <= 4,
    ],
  ];
}

function standInActivationRows(): Row[] {
  const act = activationBench();
  const r = act.totalMs / act.baselineMs;
  return [
    { section: 'Stand-in extension host (Node, fresh processes; the rows before the workbench ones)' },
    [
      '`dist/extension.js`, minified, 1 KB = 1,000 bytes (a size)',
      `${act.bundleKb.toFixed(1)} KB`,
      '≤ 150 KB',
      act.bundleKb <= 150,
    ],
    [
      `\`require()\` of \`eventsource-parser\` alone, median of ${act.runs} processes (baseline)`,
      `${act.baselineMs.toFixed(2)} ms`,
    ],
    [
      'stand-in activation: `require()` of the bundle + `activate()` to its first connection attempt, median',
      `${act.totalMs.toFixed(2)} ms`,
    ],
    ['stand-in activation / baseline', r.toFixed(1), '≤ 15', r <= 15],
  ];
}

function treeRows(): Row[] {
  const tree = treeRenderBench();
  // Fresh processes, the medians of their cold and second renders (one process alone swings with the machine's load).
  type Child = { ms: number; rows: number; changeMs: number; changeRows: number; whole: boolean };
  const runs = Array.from({ length: TREE_PROCESSES }, () => lastJson<Child>(runBundled('treeChild.ts')));
  const provider = {
    ...runs[0],
    ms: median(runs.map((c) => c.ms)),
    changeMs: median(runs.map((c) => c.changeMs)),
    rows: Math.min(...runs.map((c) => c.rows)),
    whole: runs.some((c) => c.whole),
  };
  const r = { tree: provider.ms / tree.oldMs, treeChange: provider.changeMs / provider.ms };
  return [
    [`tree render before issue 9 (grouping per conversation ask), ${treeWhat} (baseline)`, `${n(tree.oldMs)} ms`],
    [
      `tree render through the pure model (src/domain/treeModel.ts), best of 5 (the row before)`,
      `${tree.newMs.toFixed(1)} ms`,
      'reported',
    ],
    [
      `tree render through the real provider (src/ui/tree/pendingTree.ts), one cold render, ${n(provider.rows)} rows, median of ${TREE_PROCESSES} processes`,
      `${n(provider.ms)} ms`,
    ],
    [
      'provider cold render / baseline',
      r.tree.toFixed(3),
      '≤ 0.05',
      r.tree <= 0.05 && provider.rows === TREE_REQUESTS + TREE_CONVERSATIONS,
    ],
    [
      `same provider, after one new request: inbox → refresh → what VS Code asks again (${n(provider.changeRows)} rows${provider.whole ? ', the whole tree' : ''}), median`,
      `${provider.changeMs.toFixed(1)} ms`,
    ],
    ['after one change / cold render', r.treeChange.toFixed(3), '≤ 0.13', r.treeChange <= 0.13],
  ];
}

async function toastRows(): Promise<Row[]> {
  const toasts = await toastLatencyBench();
  return [
    [
      `toast before issue 13 (1.5 s burst window + provenance wait), stand-in \`vscode\`, p50, ${TOAST_REQUESTS} requests (the row before)`,
      `${n(toasts.old.p50)} ms`,
      'reported',
    ],
    [
      'toast now, stand-in `vscode`: the event into the inbox → the `show*Message` call, p50 / p99 (the row before)',
      `${toasts.now.p50.toFixed(2)} / ${toasts.now.p99.toFixed(2)} ms`,
      'reported',
    ],
  ];
}

const ROOT = path.resolve(__dirname, '../..');

/**
 * The bench's rows, in table order: each group runs on its own (test/support/benchRunner.ts). Add a group here;
 * `needs: ['runtime']` runs test/harness/setup-vscode-runtime.sh (what `npm test` installs) once before it.
 */
const GROUPS: BenchGroup[] = [
  { name: 'Protocol pipeline', half: 'node', run: pipelineRows },
  { name: 'Permission frame latency', half: 'node', run: latencyRows },
  { name: 'Memory', half: 'node', run: memoryRows },
  { name: 'Start-up backfill', half: 'node', run: backfillRows },
  { name: 'Stand-in activation', half: 'node', run: standInActivationRows },
  { name: 'Tree render', half: 'node', run: treeRows },
  { name: 'Toast, stand-in vscode', half: 'node', run: toastRows },
  { name: 'Local agent start-up in the OS sandbox', half: 'node', needs: ['runtime'], run: sandboxRows },
  { name: 'Local gate decision time', half: 'node', run: async () => Promise.resolve(gateRows()) },
  { name: 'Network proxy', half: 'node', run: networkProxyRows },
  {
    name: 'Real workbench',
    half: 'workbench',
    needs: ['runtime'],
    timeoutMs: 45 * 60_000,
    run: async () => workbenchRows(await workbench(), REQUESTS),
  },
];

const SETUPS = {
  /** code-server, Node 24, Chromium, bubblewrap and the ACP agents, as `npm test` installs them (its output on stderr). */
  runtime: () => {
    execFileSync('bash', [path.join(ROOT, 'test/harness/setup-vscode-runtime.sh')], { stdio: ['ignore', 2, 2] });
  },
};

function commitOf(): string {
  const git = (...a: string[]) => execFileSync('git', a, { cwd: ROOT, encoding: 'utf8' }).trim();
  try {
    return `${git('rev-parse', '--short', 'HEAD')}${git('status', '--porcelain', '--untracked-files=no') ? ' (with uncommitted changes)' : ''}`;
  } catch {
    return 'unknown (not a git checkout)';
  }
}

async function main(): Promise<void> {
  const readme = args.includes('--readme');
  if (readme && ONLY) {
    throw new Error('--readme writes the table of one full run: drop --only');
  }
  const start = new Date();
  console.log(`node ${process.version}, ${start.toISOString()}`);
  const outcome = await runBench({
    groups: GROUPS.filter((g) => !ONLY || g.half === ONLY || g.name === ONLY),
    setups: SETUPS,
  });
  if (readme) {
    const file = path.join(ROOT, 'README.md');
    const line = runLine({ start, end: new Date(), commit: commitOf(), node: process.version, outcome });
    fs.writeFileSync(file, readmeWithTable(fs.readFileSync(file, 'utf8'), [...outcome.table, '', line]));
    console.log(`README.md: the Performance table written (${line})`);
  }
  // exit, not exitCode: a group that timed out may have left its work (timers, sockets) running.
  process.exit(outcome.exitCode);
}

void main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
