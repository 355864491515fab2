/**
 * The bench's framework (`npm run bench`, test/bench/main.ts): a registry of row groups, each run on its own, and the
 * table they print. A group that throws, times out or whose set-up failed prints one FAILED row with its one-line
 * reason in place of its rows, and the groups after it still run. The exit code is 1 when any group failed or any row
 * missed its target. Here (not in test/bench) so that the unit tier can test it.
 *
 * To add rows: push a `BenchGroup` to the registry in test/bench/main.ts, `{ name, half, run }`, where `run` returns
 * the group's rows (a section heading first, then `[measure, value, target, ok]` rows; `ok` false is a missed target).
 */

/** measure, value, target ('—' when none), and whether it met the target (undefined: not judged). */
export type Row = [string, string, string?, boolean?] | { section: string };

export interface BenchGroup {
  /** Shown in the FAILED row and matched by `--only` (with `half`). */
  readonly name: string;
  /** Which half of the bench it belongs to: `node` (plain Node) or `workbench` (code-server and Chromium). */
  readonly half: 'node' | 'workbench';
  /** Set-ups it needs first (run once each, before the first group needing them), by name in `BenchRun.setups`. */
  readonly needs?: readonly string[];
  /** Longer than this and the group is FAILED (its work is left to end with the process). Default 10 minutes. */
  readonly timeoutMs?: number;
  readonly run: () => Row[] | Promise<Row[]>;
}

export interface BenchRun {
  readonly groups: readonly BenchGroup[];
  /** Named set-ups (`needs`): each runs at most once; if it throws, every group needing it is FAILED with why. */
  readonly setups?: Readonly<Record<string, () => void | Promise<void>>>;
  /** Where the table's lines go (console.log by default). */
  readonly print?: (line: string) => void;
  /** Where a failed group's whole error goes (its stack), beside the one-line reason in the table. */
  readonly printError?: (line: string) => void;
}

export interface BenchOutcome {
  readonly rows: Row[];
  /** The table, as printed. */
  readonly table: string[];
  /** Groups that did not run to the end, with their one-line reason. */
  readonly failed: { name: string; reason: string }[];
  /** Rows that ran and missed their target. */
  readonly missed: number;
  /** 0 when every group ran and every judged row met its target, else 1. */
  readonly exitCode: number;
}

const DEFAULT_TIMEOUT_MS = 10 * 60_000;

/** An error's first non-empty line, with control characters as spaces (a table cell is one line). */
export function oneLine(e: unknown): string {
  const text = e instanceof Error ? e.message || e.name : String(e);
  const first = text.split('\n').find((l) => l.trim()) ?? 'failed without a message';
  // eslint-disable-next-line no-control-regex
  return first.replace(/[\u0000-\u001f\u007f|]/g, ' ').trim();
}

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${Math.round(ms / 1000)} s`)), ms);
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

/** The row a group that could not run leaves in the table: judged, and failed. */
export function failedRow(name: string, reason: string): Row {
  return [`${name}: ${reason}`, 'FAILED', '—', false];
}

/** Runs every group in order, each on its own, then prints the table. */
export async function runBench(o: BenchRun): Promise<BenchOutcome> {
  const print = o.print ?? ((l: string) => console.log(l));
  const printError = o.printError ?? ((l: string) => console.error(l));
  const setups = new Map<string, Promise<void>>();
  const setUp = (name: string): Promise<void> => {
    let p = setups.get(name);
    if (!p) {
      const f = o.setups?.[name];
      p = f ? Promise.resolve().then(f) : Promise.reject(new Error(`no set-up named ${name}`));
      setups.set(name, p);
    }
    return p.catch((e: unknown) => {
      throw new Error(`set-up ${name} failed: ${oneLine(e)}`);
    });
  };
  const rows: Row[] = [];
  const failed: { name: string; reason: string }[] = [];
  for (const g of o.groups) {
    try {
      for (const need of g.needs ?? []) {
        await setUp(need);
      }
      rows.push(...(await withTimeout(Promise.resolve().then(g.run), g.timeoutMs ?? DEFAULT_TIMEOUT_MS, g.name)));
    } catch (e) {
      const reason = oneLine(e);
      failed.push({ name: g.name, reason });
      printError(`bench: ${g.name} FAILED: ${e instanceof Error && e.stack ? e.stack : reason}`);
      rows.push({ section: g.name }, failedRow(g.name, reason));
    }
  }
  const table = tableLines(rows);
  for (const l of table) {
    print(l);
  }
  const missed = rows.filter((r) => Array.isArray(r) && r[3] === false && r[1] !== 'FAILED').length;
  return { rows, table, failed, missed, exitCode: failed.length || missed ? 1 : 0 };
}

/** The table as Markdown lines: measure, value, target, ok (PASS, FAIL, or blank when not judged). */
export function tableLines(rows: readonly Row[]): string[] {
  const data = rows.filter((r): r is [string, string, string?, boolean?] => Array.isArray(r));
  const w = [
    Math.max(7, ...data.map((r) => r[0].length)),
    Math.max(5, ...data.map((r) => r[1].length)),
    Math.max(9, ...data.map((r) => (r[2] ?? '—').length)),
  ];
  const line = (a: string, b: string, c: string, d: string) =>
    `| ${a.padEnd(w[0])} | ${b.padStart(w[1])} | ${c.padEnd(w[2])} | ${d} |`;
  const out = [
    line('measure', 'value', 'target', 'ok  '),
    line('-'.repeat(w[0]), '-'.repeat(w[1]), '-'.repeat(w[2]), '----'),
  ];
  for (const r of rows) {
    if (!Array.isArray(r)) {
      out.push(line(`**${r.section}**`, '', '', '    '));
      continue;
    }
    const [a, b, c = '—', ok] = r;
    out.push(line(a, b, c, ok === undefined ? '    ' : ok ? 'PASS' : 'FAIL'));
  }
  return out;
}

const BEGIN = '<!-- bench-table: begin (npm run bench -- --readme writes what is between these lines) -->';
const END = '<!-- bench-table: end -->';

/**
 * README.md with the text between the bench-table markers replaced by `block` (the table of one full run and the line
 * saying when and at which commit). Throws when the markers are missing or out of order, rather than guess a place.
 */
export function readmeWithTable(readme: string, block: readonly string[]): string {
  const b = readme.indexOf(BEGIN);
  const e = readme.indexOf(END);
  if (b < 0 || e < b || readme.indexOf(BEGIN, b + 1) >= 0) {
    throw new Error(`README.md needs exactly one "${BEGIN}" line before a "${END}" line`);
  }
  return `${readme.slice(0, b + BEGIN.length)}\n${block.join('\n')}\n${readme.slice(e)}`;
}

/** The line under the README's table: the run's span, commit, Node and outcome. */
export function runLine(o: { start: Date; end: Date; commit: string; node: string; outcome: BenchOutcome }): string {
  const day = o.start.toISOString().slice(0, 10);
  const hm = (d: Date) => d.toISOString().slice(11, 16);
  const failed = o.outcome.failed.length
    ? `${o.outcome.failed.length} group(s) FAILED (${o.outcome.failed.map((f) => f.name).join('; ')})`
    : 'every group ran';
  const missed = o.outcome.missed ? `${o.outcome.missed} row(s) missed their target` : 'no row missed its target';
  return (
    `One full \`npm run bench\`, ${day} ${hm(o.start)}–${hm(o.end)} UTC, at commit ${o.commit}, Node ${o.node}: ` +
    `${failed}, ${missed} (exit ${o.outcome.exitCode}).`
  );
}
