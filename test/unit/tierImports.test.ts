/**
 * No test tier imports another: each folder under test/ (unit, conformance, server, integration, ui, bench, harness)
 * imports only itself, test/support, files at the top of test/, src and packages. The local server's own modules
 * (test/server, not its *.test.ts) are the product the support fixtures and the bench run, so those two may import
 * them.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import ts from 'typescript';

const TEST = path.resolve(__dirname, '..');
const SHARED = 'support';
const SKIP = new Set(['runtime', 'fixtures', 'node_modules']);
/** Tiers that may run the local server's modules directly. */
const RUNS_THE_SERVER = new Set([SHARED, 'bench']);

/** The test/ folder a path is in, or '' for a file at the top of test/ or outside it. */
function tierOf(file: string): string {
  const rel = path.relative(TEST, file);
  if (rel.startsWith('..')) {
    return '';
  }
  const parts = rel.split(path.sep);
  return parts.length > 1 ? parts[0] : '';
}

/** Relative imports of one source file (static, dynamic, `export … from` and `require`). */
function relativeImports(text: string): string[] {
  return ts
    .preProcessFile(text, true, true)
    .importedFiles.map((f) => f.fileName)
    .filter((f) => f.startsWith('.'));
}

/** Why `from` may not import `target` (both absolute), or undefined when it may. */
function crossTier(from: string, target: string): string | undefined {
  const own = tierOf(from);
  const other = tierOf(target);
  if (!other || other === own || other === SHARED) {
    return undefined;
  }
  if (other === 'server' && RUNS_THE_SERVER.has(own) && !/\.test(\.ts)?$/.test(target)) {
    return undefined;
  }
  return `${own || 'test'} imports ${other}`;
}

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) {
      return SKIP.has(e.name) ? [] : sources(p);
    }
    return /\.(ts|mjs)$/.test(e.name) ? [p] : [];
  });
}

describe('test tiers import test/support, not each other', () => {
  it('tells a cross-tier import from an allowed one', () => {
    const at = (p: string) => path.join(TEST, p);
    assert.equal(crossTier(at('ui/inbox.test.ts'), at('integration/serverClient')), 'ui imports integration');
    assert.equal(crossTier(at('harness/demo.ts'), at('ui/workbench')), 'harness imports ui');
    assert.equal(crossTier(at('ui/inbox.test.ts'), at('server/server')), 'ui imports server');
    assert.equal(crossTier(at('bench/backfill.ts'), at('server/answer.test')), 'bench imports server');
    assert.equal(crossTier(at('ui/inbox.test.ts'), at('support/serverClient')), undefined);
    assert.equal(crossTier(at('ui/inbox.test.ts'), at('ui/workbench')), undefined);
    assert.equal(crossTier(at('bench/backfill.ts'), at('server')), undefined);
    assert.equal(crossTier(at('support/serverFixture.ts'), at('server/index')), undefined);
    assert.deepEqual(relativeImports("import a from './a';\nexport * from '../b';\nvoid import('./c');"), [
      './a',
      '../b',
      './c',
    ]);
  });

  it('no file under test/ imports another tier', () => {
    const files = sources(TEST);
    assert.ok(files.length > 50, 'found the test sources');
    const bad = files.flatMap((f) =>
      relativeImports(fs.readFileSync(f, 'utf8'))
        .map((spec) => ({ spec, why: crossTier(f, path.resolve(path.dirname(f), spec)) }))
        .filter((x) => x.why)
        .map((x) => `${path.relative(TEST, f)}: ${x.spec} (${x.why})`),
    );
    assert.deepEqual(bad, []);
  });
});
