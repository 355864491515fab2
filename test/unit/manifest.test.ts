import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');
// @vscode/vsce ships no type declarations; listFiles is what `vsce ls` prints. PackageManager.None (a number, not
// the string 'none', which vsce reads as npm and then runs `npm list`) is `vsce package --no-dependencies`.
const vsce = createRequire(__filename)('@vscode/vsce') as {
  PackageManager: { None: number };
  listFiles(o: { cwd: string; packageManager: number }): Promise<string[]>;
};

/**
 * A copy of the checkout (what it holds now: sources, the built bundles and out/) without its dependency folders and
 * .git, for vsce to walk. vsce globs the whole tree before it applies .vscodeignore, skipping only the top-level
 * node_modules: in a clone where `npm test` installed the node_modules of test/runtime (about 15,000 files; CI's case)
 * the walk took 50-60 s on the shared 2-core machine, past the 20 s test timeout, against about 700 files here.
 * The package has no dependencies (`vsce package --no-dependencies`) and .vscodeignore lets nothing of a
 * node_modules folder through, so the list is the same.
 */
function checkoutWithoutDependencies(): string {
  const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'fountain-vsix-'));
  fs.cpSync(ROOT, copy, {
    recursive: true,
    filter: (src) => !['node_modules', '.git'].includes(path.basename(src)),
  });
  return copy;
}

interface Manifest {
  icon?: string;
  engines: { vscode: string };
  extensionKind?: string[];
  categories: string[];
  repository?: { url: string };
  bugs?: { url: string };
  homepage?: string;
  devDependencies: Record<string, string>;
  contributes: { keybindings: Array<{ key: string; mac?: string; when?: string }> };
}
const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as Manifest;

describe('the manifest and the packaged files', () => {
  it('the .vsix holds the bundles, the 128 px icon, the l10n bundle and docs, and no screenshots or sources', async () => {
    const copy = checkoutWithoutDependencies();
    const files = await vsce
      .listFiles({ cwd: copy, packageManager: vsce.PackageManager.None })
      .then((f) => f.sort())
      .finally(() => fs.rmSync(copy, { recursive: true, force: true }));
    assert.deepEqual(
      files.filter((f) => !f.startsWith('media/walkthrough/')),
      [
        'CHANGELOG.md',
        'LICENSE',
        'README.md',
        // the Sign In / Sign Out flows, loaded on their first use
        ...(fs.existsSync(path.join(ROOT, 'dist/auth.js')) ? ['dist/auth.js'] : []),
        // (the bundles exist once built: npm test builds before the unit tier); the confusables table is loaded on
        // the first option-name comparison
        ...(fs.existsSync(path.join(ROOT, 'dist/confusables.js')) ? ['dist/confusables.js'] : []),
        // the denylist check of the danger mark, loaded when the first request arrives
        ...(fs.existsSync(path.join(ROOT, 'dist/danger.js')) ? ['dist/danger.js'] : []),
        // the request details document's renderer, loaded when details are first shown
        ...(fs.existsSync(path.join(ROOT, 'dist/details.js')) ? ['dist/details.js'] : []),
        // the evidence before the click (git status, current file, the agent's changes), loaded on first use
        ...(fs.existsSync(path.join(ROOT, 'dist/evidence.js')) ? ['dist/evidence.js'] : []),
        ...(fs.existsSync(path.join(ROOT, 'dist/extension.js')) ? ['dist/extension.js'] : []),
        // the relay a sandboxed agent's network goes through, run inside the sandbox
        ...(fs.existsSync(path.join(ROOT, 'dist/forwarder.js')) ? ['dist/forwarder.js'] : []),
        // the History view's rows and recommendation texts, loaded when the view first shows
        ...(fs.existsSync(path.join(ROOT, 'dist/history.js')) ? ['dist/history.js'] : []),
        // the window hub and the stream sharing between windows, required at activation
        ...(fs.existsSync(path.join(ROOT, 'dist/hub.js')) ? ['dist/hub.js'] : []),
        // the local-agent bundle, loaded on the first Start Local Agent
        ...(fs.existsSync(path.join(ROOT, 'dist/local.js')) ? ['dist/local.js'] : []),
        // the local agents' commands and transcripts, loaded on the first local command
        ...(fs.existsSync(path.join(ROOT, 'dist/localui.js')) ? ['dist/localui.js'] : []),
        // the agent-policy editor, loaded on its first command
        ...(fs.existsSync(path.join(ROOT, 'dist/policyEditor.js')) ? ['dist/policyEditor.js'] : []),
        // Reject with Reason… and the plan document's text, loaded on first use
        ...(fs.existsSync(path.join(ROOT, 'dist/steer.js')) ? ['dist/steer.js'] : []),
        // the tree's batch answers, Retry and selection after an answer, loaded on first use
        ...(fs.existsSync(path.join(ROOT, 'dist/treeActions.js')) ? ['dist/treeActions.js'] : []),
        'l10n/bundle.l10n.de.json',
        'l10n/bundle.l10n.json',
        'media/fountain.svg',
        'media/icon.png',
        'package.json',
        'package.nls.de.json',
        'package.nls.json',
      ],
    );
    assert.ok(files.includes('media/walkthrough/signIn.md'));
  });

  it('the icon is a 128 × 128 PNG', () => {
    assert.equal(manifest.icon, 'media/icon.png');
    const png = fs.readFileSync(path.join(ROOT, manifest.icon));
    assert.equal(png.subarray(1, 4).toString('latin1'), 'PNG');
    assert.deepEqual([png.readUInt32BE(16), png.readUInt32BE(20)], [128, 128]);
  });

  it('findable and remote-ready: links, categories, extensionKind; the engines floor is the API version type-checked', () => {
    assert.ok(manifest.repository?.url && manifest.bugs?.url && manifest.homepage);
    assert.deepEqual(manifest.categories, ['AI', 'Chat']);
    assert.deepEqual(manifest.extensionKind, ['ui', 'workspace']);
    // `npm run typecheck` compiles src against @types/vscode; it must be the floor, not newer.
    assert.equal(manifest.engines.vscode, `^${manifest.devDependencies['@types/vscode']}`);
  });
});
