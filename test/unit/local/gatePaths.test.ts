// The local gate's paths on a real file system: symlinks out of the workspace (tool locations and command operands),
// not-yet-existing files through a link, and bounded work on hostile command lines.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { LocalGate } from '../../../src/local';
import { resolveRealPath } from '../../../src/local/gate';
import { file, shell } from '../../support/gateRequests';

describe('local gate: paths on a real file system', () => {
  let tmp: string;
  let ws: string;
  let outside: string;
  before(() => {
    tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gate-paths-')));
    ws = path.join(tmp, 'ws');
    outside = path.join(tmp, 'secret');
    fs.mkdirSync(ws);
    fs.mkdirSync(outside);
    fs.writeFileSync(path.join(outside, 'key'), 'k');
    fs.writeFileSync(path.join(ws, 'a.txt'), 'a');
    fs.symlinkSync(outside, path.join(ws, 'link'));
  });
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('resolveRealPath follows links, and for a file that does not exist yet resolves its nearest parent', () => {
    assert.equal(resolveRealPath(path.join(ws, 'link', 'key')), path.join(outside, 'key'));
    assert.equal(resolveRealPath(path.join(ws, 'link', 'new', 'x')), path.join(outside, 'new', 'x'));
    assert.equal(resolveRealPath(path.join(ws, 'no', '..', 'a.txt')), path.join(ws, 'a.txt'));
    assert.equal(resolveRealPath('relative'), undefined);
  });

  it('a read or an edit through a link out of the workspace is asked, in ask and acceptEdits; inside is allowed', () => {
    const gate = new LocalGate({ cwd: ws, roots: [ws], policy: { default: 'ask' }, trusted: true });
    for (const c of ['cat link/key', `cat ${ws}/link/key`, 'grep -r k link', 'head < link/key', 'ls link/']) {
      const d = gate.decide(shell(c)).decision;
      assert.equal(d.verdict, 'ask', c);
      assert.equal(d.rule, 'path-scope', c);
      assert.ok(d.reason.includes(outside), d.reason);
    }
    assert.equal(gate.decide(shell('cat a.txt')).decision.verdict, 'allow');
    assert.equal(gate.decide(file('read', path.join(ws, 'link', 'key'))).decision.rule, 'path-scope');
    gate.setMode('acceptEdits');
    assert.equal(gate.decide(file('edit', path.join(ws, 'link', 'new.txt'))).decision.verdict, 'ask');
    assert.equal(gate.decide(file('edit', path.join(ws, 'b.txt'))).decision.verdict, 'allow');
    assert.equal(gate.decide(file('edit', path.join(ws, '.git', 'config'))).decision.rule, 'protected');
    assert.equal(gate.decide(file('edit', path.join(ws, '.vscode', 'tasks.json'))).decision.rule, 'protected');
    gate.setMode('yolo');
    assert.equal(gate.decide(file('edit', path.join(ws, '.claude', 'settings.json'))).decision.verdict, 'ask');
  });

  it('a 1 MB command line is decided quickly (asked, or refused when its start is denylisted)', () => {
    const gate = new LocalGate({ cwd: ws, roots: [ws], policy: { default: 'ask' }, trusted: true });
    for (const c of [
      'ls ' + 'a'.repeat(1_000_000),
      'rm -rf ~; ' + 'a '.repeat(500_000),
      '${a:-'.repeat(100_000) + '}'.repeat(100_000),
      '`'.repeat(1_000_000),
      '$('.repeat(500_000),
      "'".repeat(1_000_000),
    ]) {
      const t = performance.now();
      const d = gate.decide(shell(c)).decision;
      const ms = performance.now() - t;
      assert.notEqual(d.verdict, 'allow');
      // 50 ms on an idle machine; the bound leaves room for a loaded CI runner.
      assert.ok(ms < 1500, `${ms.toFixed(0)} ms for ${c.slice(0, 20)}…`);
    }
  });
});
