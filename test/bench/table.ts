/** The bench's table: rows of [measure, value, target?, ok?] and section headings, printed as Markdown. */

/** measure, value, target ('—' when none), and whether it met the target (undefined: not judged). */
export type Row = [string, string, string?, boolean?] | { section: string };

/** Prints the table; returns true when a row missed its target. */
export function printTable(rows: readonly Row[]): boolean {
  const data = rows.filter((r): r is [string, string, string?, boolean?] => Array.isArray(r));
  const w = [Math.max(...data.map((r) => r[0].length)), Math.max(...data.map((r) => r[1].length)), 9];
  const line = (a: string, b: string, c: string, d: string) =>
    `| ${a.padEnd(w[0])} | ${b.padStart(w[1])} | ${c.padEnd(w[2])} | ${d} |`;
  console.log(line('measure', 'value', 'target', 'ok  '));
  console.log(line('-'.repeat(w[0]), '-'.repeat(w[1]), '-'.repeat(w[2]), '----'));
  for (const r of rows) {
    if (!Array.isArray(r)) {
      console.log(line(`**${r.section}**`, '', '', '    '));
      continue;
    }
    const [a, b, c = '—', ok] = r;
    console.log(line(a, b, c, ok === undefined ? '    ' : ok ? 'PASS' : 'FAIL'));
  }
  return data.some((r) => r[3] === false);
}
