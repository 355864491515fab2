import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { getL10nJson } from '@vscode/l10n-dev';

const ROOT = path.resolve(__dirname, '../..');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? sourceFiles(p) : e.name.endsWith('.ts') ? [p] : [];
  });
}

describe('localisation bundle', () => {
  it('l10n/bundle.l10n.json holds exactly the strings the sources pass to vscode.l10n.t (run `npm run l10n`)', async function () {
    // The extraction parses every source file: 3.4 s on an idle machine, past the 20 s default once seen under load.
    this.timeout(120_000);
    const files = sourceFiles(path.join(ROOT, 'src')).map((f) => ({
      extension: '.ts',
      contents: fs.readFileSync(f, 'utf8'),
    }));
    const fresh = await getL10nJson(files);
    const committed = JSON.parse(fs.readFileSync(path.join(ROOT, 'l10n/bundle.l10n.json'), 'utf8')) as object;
    assert.ok(Object.keys(fresh).length > 100, 'the extraction found the strings');
    const missing = Object.keys(fresh).filter((k) => !(k in committed));
    const stale = Object.keys(committed).filter((k) => !(k in fresh));
    assert.deepEqual({ missing, stale }, { missing: [], stale: [] }, 'the bundle is out of date: run npm run l10n');
    assert.deepEqual(committed, fresh, 'the bundle is out of date: run npm run l10n');
  });

  it('the manifest points VS Code at the bundle and every %key% of package.json has an English string', () => {
    const manifest = fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8');
    assert.equal((JSON.parse(manifest) as { l10n?: string }).l10n, './l10n');
    const nls = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.nls.json'), 'utf8')) as Record<string, string>;
    const keys = [...manifest.matchAll(/"%([^%"]+)%"/g)].map((m) => m[1]);
    assert.ok(keys.length > 20);
    assert.deepEqual(
      keys.filter((k) => !(k in nls)),
      [],
    );
  });
});
