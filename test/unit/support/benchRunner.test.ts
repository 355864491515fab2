import * as assert from 'node:assert/strict';
import { readmeWithTable, runBench, runLine, type BenchGroup } from '../../support/benchRunner';

const passing: BenchGroup = {
  name: 'Passing',
  half: 'node',
  run: () => [{ section: 'Passing section' }, ['a ratio', '0.90', '≤ 1', true], ['a figure', '12 ms']],
};

async function quietly(groups: BenchGroup[], setups?: Record<string, () => void>) {
  const printed: string[] = [];
  const errors: string[] = [];
  const outcome = await runBench({ groups, setups, print: (l) => printed.push(l), printError: (l) => errors.push(l) });
  return { outcome, printed, errors };
}

describe('the bench runner: every group on its own, the table always printed', () => {
  it('a group that throws prints FAILED with its one-line reason, the groups after it still run, exit 1', async () => {
    let ranAfter = false;
    const { outcome, printed, errors } = await quietly([
      {
        name: 'Sandbox start-up',
        half: 'node',
        run: () => {
          throw new Error('no bubblewrap sandbox here: bwrap missing\n    at sandboxBench (sandbox.ts:1)');
        },
      },
      { ...passing, run: () => ((ranAfter = true), passing.run()) },
    ]);
    assert.equal(ranAfter, true);
    assert.equal(outcome.exitCode, 1);
    assert.deepEqual(outcome.failed, [
      { name: 'Sandbox start-up', reason: 'no bubblewrap sandbox here: bwrap missing' },
    ]);
    assert.deepEqual(printed, outcome.table);
    const failedLine = printed.find((l) => l.includes('FAILED'));
    assert.match(
      failedLine ?? '',
      /^\| Sandbox start-up: no bubblewrap sandbox here: bwrap missing +\| +FAILED \| — +\| FAIL \|$/,
    );
    assert.ok(!failedLine?.includes('sandbox.ts:1'), 'the stack stays out of the table');
    assert.match(errors.join('\n'), /Sandbox start-up FAILED: .*at sandboxBench/s);
    assert.ok(printed.some((l) => /^\| a ratio +\| +0\.90 \| ≤ 1 +\| PASS \|$/.test(l)));
    assert.ok(printed.some((l) => l.includes('**Passing section**')));
  });

  it('exit 0 only when every group ran and every judged row met its target; a missed target is exit 1', async () => {
    assert.equal((await quietly([passing])).outcome.exitCode, 0);
    const missed = await quietly([
      passing,
      { name: 'Slow', half: 'node', run: () => [['ratio', '3.1', '≤ 3', false]] },
    ]);
    assert.deepEqual([missed.outcome.exitCode, missed.outcome.missed, missed.outcome.failed], [1, 1, []]);
    assert.ok(missed.printed.some((l) => /^\| ratio +\| +3\.1 \| ≤ 3 +\| FAIL \|$/.test(l)));
  });

  it('a failed set-up fails each group needing it (run once), a hanging group fails on its timeout', async () => {
    let setups = 0;
    const needy = (name: string): BenchGroup => ({ name, half: 'workbench', needs: ['runtime'], run: passing.run });
    const { outcome } = await quietly(
      [
        needy('Workbench A'),
        { name: 'Hangs', half: 'node', timeoutMs: 50, run: () => new Promise(() => undefined) },
        needy('Workbench B'),
        passing,
      ],
      {
        runtime: () => {
          setups++;
          throw new Error('Command failed: bash test/harness/setup-vscode-runtime.sh');
        },
      },
    );
    assert.equal(setups, 1);
    assert.deepEqual(outcome.failed, [
      {
        name: 'Workbench A',
        reason: 'set-up runtime failed: Command failed: bash test/harness/setup-vscode-runtime.sh',
      },
      { name: 'Hangs', reason: 'Hangs did not finish within 0 s' },
      {
        name: 'Workbench B',
        reason: 'set-up runtime failed: Command failed: bash test/harness/setup-vscode-runtime.sh',
      },
    ]);
    assert.equal(outcome.exitCode, 1);
    assert.ok(
      outcome.table.some((l) => l.includes('PASS')),
      'the passing group after them still ran',
    );
  });

  it('writes one run’s table between the README markers, with the run’s date, commit and outcome', async () => {
    const { outcome } = await quietly([
      passing,
      { name: 'Broken', half: 'node', run: () => Promise.reject(new Error('gone')) },
    ]);
    const line = runLine({
      start: new Date('2026-12-03T12:00:00Z'),
      end: new Date('2026-12-03T12:14:00Z'),
      commit: 'abc1234',
      node: 'v20.19.0',
      outcome,
    });
    assert.equal(
      line,
      'One full `npm run bench`, 2026-12-03 12:00–12:14 UTC, at commit abc1234, Node v20.19.0: 1 group(s) FAILED (Broken), no row missed its target (exit 1).',
    );
    const begin = '<!-- bench-table: begin (npm run bench -- --readme writes what is between these lines) -->';
    const end = '<!-- bench-table: end -->';
    const readme = `# T\n\n${begin}\nold table\n${end}\n\nafter\n`;
    const written = readmeWithTable(readme, [...outcome.table, '', line]);
    assert.equal(written, `# T\n\n${begin}\n${[...outcome.table, '', line].join('\n')}\n${end}\n\nafter\n`);
    assert.ok(written.includes('| Broken: gone'));
    assert.throws(() => readmeWithTable('# no markers\n', ['x']), /needs exactly one/);
    assert.throws(() => readmeWithTable(`${end}\n${begin}\n`, ['x']), /needs exactly one/);
  });
});
