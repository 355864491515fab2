/**
 * The workbench half of the table (./workbench/run.ts): each row beside the baseline extension's figure from the same
 * workbench, and a ratio as the target.
 */
import type { Row } from './table';
import type { WorkbenchResult } from './workbench/run';

function pct(xs: readonly number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
}

const ms = (x: number) => `${x.toLocaleString('en', { maximumFractionDigits: x < 100 ? 1 : 0 })} ms`;
const kb = (b: number) => `${(b / 1000).toFixed(1)} KB`;

/** Rows for p50 and p99 of `ours` against `base`, with ratio targets. */
function pair(what: string, baseWhat: string, ours: number[], base: number[], p50Max: number, p99Max: number): Row[] {
  const r50 = pct(ours, 50) / pct(base, 50);
  const r99 = pct(ours, 99) / pct(base, 99);
  return [
    [`${baseWhat}, p50 / p99 (baseline)`, `${ms(pct(base, 50))} / ${ms(pct(base, 99))}`],
    [`${what}, p50 / p99`, `${ms(pct(ours, 50))} / ${ms(pct(ours, 99))}`],
    ['p50 / baseline p50', r50.toFixed(2), `≤ ${p50Max}`, r50 <= p50Max],
    ['p99 / baseline p99', r99.toFixed(2), `≤ ${p99Max}`, r99 <= p99Max],
  ];
}

export function workbenchRows(w: WorkbenchResult, requests: number): Row[] {
  const a = w.activation;
  const oursAct = a.fountain.load + a.fountain.activate;
  const baseAct = a.minimal.load + a.minimal.activate;
  const actRatio = oursAct / baseAct;
  const streamRatio = a.fountain.toStream / a.minimal.toStream;
  const files = (f: { files: string[] }) => f.files.map((x) => x.replace(/^dist\//, '')).join(', ');
  return [
    { section: `Real workbench (code-server + Chromium), ${requests} requests a section, 1–3 s apart` },
    ...pair(
      'event on the wire → our toast in the DOM, one window',
      'the baseline extension: the same event on its stream → its toast',
      w.single.ours,
      w.single.base,
      1.5,
      2,
    ),
    ...pair(
      'click on our toast’s Allow → the answer POST on the wire',
      'click on the baseline’s Allow → its POST',
      w.single.oursClick,
      w.single.baseClick,
      1.5,
      2,
    ),
    ...pair(
      `two windows, the stream held by the first: wire → our toast (${w.two.inFollower}/${requests} in the second)`,
      'the baseline in the window our toast was in',
      w.two.ours,
      w.two.base,
      1.5,
      2,
    ),
    [
      'requests whose baseline toast did not show in that window within 20 s (a count; one window / two windows)',
      `${w.single.baseMissing} / ${w.two.baseMissing}`,
      '= 0 / 0',
      w.single.baseMissing === 0 && w.two.baseMissing === 0,
    ],
    [
      'window-state reports against the set-up during the two-window section (first focused, or second not; a count)',
      String(w.focusAgainst),
      '= 0',
      w.focusAgainst === 0,
    ],
    [
      'toasts in the window that does not hold the stream (a count)',
      `${w.two.inFollower}/${requests}`,
      `= ${requests}`,
      w.two.inFollower === requests,
    ],
    ...pair(
      'local agent writes `session/request_permission` → our toast in the DOM',
      'the baseline’s wire → toast, one window (as above)',
      w.local.ask,
      w.single.base,
      2,
      2,
    ),
    ...pair(
      'click on the local toast’s Reject → the answer on the agent’s stdin',
      'click → POST of the baseline (as above)',
      w.local.click,
      w.single.baseClick,
      1.5,
      2,
    ),
    { section: 'Activation in the real extension host (the timing hook: require() of the main file, `activate`)' },
    [
      'baseline extension: require() + activate() (sync), started after ours (baseline)',
      `${ms(a.minimal.load)} + ${ms(a.minimal.activate)}`,
    ],
    [
      'ours: require() of dist/extension.js + activate() until its promise settled',
      `${ms(a.fountain.load)} + ${ms(a.fountain.activate)}`,
    ],
    ['ours / baseline', actRatio.toFixed(1), '≤ 40', actRatio <= 40],
    ['baseline: its first line → its stream’s first byte on the wire', ms(a.minimal.toStream), 'reported'],
    [
      'ours: first line of dist/extension.js → the stream’s first byte on the wire',
      ms(a.fountain.toStream),
      'reported',
    ],
    [
      'ours / baseline (VS Code’s scheduling between require and activate counted on both sides)',
      streamRatio.toFixed(1),
      'reported',
    ],
    [`our files required by the end of activation (${files(w.atActivation)})`, kb(w.atActivation.bytes), 'reported'],
    [`our files required by the first toast (${files(w.byFirstToast)})`, kb(w.byFirstToast.bytes), 'reported'],
  ];
}
