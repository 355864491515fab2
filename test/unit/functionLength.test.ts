/**
 * Keeps the local server (test/server) split by role: no function, method, arrow or accessor in its sources may span
 * more than MAX_LINES lines. A function's lines include the functions nested in it, so one closure holding many routes
 * counts as one long function. The server's own tests (*.test.ts, whose `describe` callbacks group many cases) are
 * not part of the server and are not measured.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { functionSpans } from '../support/functionSpans';

const MAX_LINES = 150;
const ROOT = path.resolve(__dirname, '..', '..');
const CHECKED_DIR = path.join(ROOT, 'test', 'server');

function tsFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) {
      return tsFiles(p);
    }
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [p] : [];
  });
}

describe('the local server stays split by role', () => {
  it('measures a function with everything nested in it, arrows, methods and accessors included', () => {
    const body = Array.from({ length: 150 }, (_, i) => `  const v${i} = ${i};`).join('\n');
    const spans = functionSpans(
      'sample.ts',
      [
        'export function outer() {',
        '  const inner = () => {',
        body,
        '  };',
        '  return inner;',
        '}',
        'class C {',
        '  m() {',
        '    return 1;',
        '  }',
        '  get g() {',
        '    return 2;',
        '  }',
        '}',
      ].join('\n'),
    );
    const by = (n: string) => spans.find((s) => s.name === n)?.lines;
    assert.equal(by('outer'), 155);
    assert.equal(by('inner'), 152);
    assert.equal(by('m'), 3);
    assert.equal(by('g'), 3);
  });

  it(`no function in test/server is longer than ${MAX_LINES} lines`, () => {
    const files = tsFiles(CHECKED_DIR);
    assert.ok(files.length > 10, 'found the server sources');
    const tooLong = files.flatMap((f) =>
      functionSpans(f, fs.readFileSync(f, 'utf8'))
        .filter((s) => s.lines > MAX_LINES)
        .map((s) => `${path.relative(ROOT, f)}:${s.line} ${s.name} (${s.lines} lines)`),
    );
    assert.deepEqual(tooLong, []);
  });
});
