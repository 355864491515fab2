import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { EXTENSION_ID, getApi, harnessServer } from './support';
import { skipOrFail } from '../support/skipOrFail';

describe('activation in the real extension host', () => {
  it('activates on startup and returns the test API only in test mode', async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext);
    const api = await getApi();
    assert.equal(ext.isActive, true);
    assert.equal(typeof api.serverUrl, 'function');
  });

  it('does not load the parts built as their own bundles: dist/policyEditor.js, dist/details.js', async () => {
    const api = await getApi();
    assert.equal(api.policyEditorLoaded(), false, 'the agent-policy editor was loaded');
    assert.equal(api.detailsLoaded(), false, 'the details renderer was loaded');
  });

  it('does not load dist/evidence.js, dist/localui.js or dist/local.js', () => {
    const loaded = (file: string) => Object.keys(require.cache).some((k) => k.endsWith(`/dist/${file}`));
    for (const file of ['evidence.js', 'localui.js', 'local.js']) {
      assert.equal(loaded(file), false, `activation loaded dist/${file}`);
    }
  });

  it("Show Agent's Changes So Far works before and after dist/evidence.js loads (its stand-in hands over)", async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    // No request in front: the command says so (an information message) through the stand-in, then the real one.
    await vscode.commands.executeCommand('fountain.request.showSandboxDiff');
    assert.ok(
      Object.keys(require.cache).some((k) => k.endsWith('/dist/evidence.js')),
      'the bundle was not loaded',
    );
    await vscode.commands.executeCommand('fountain.request.showSandboxDiff');
    assert.ok((await vscode.commands.getCommands(true)).includes('fountain.request.showSandboxDiff'));
    // The real document provider took over the scheme: a document of a request nobody knows still opens.
    const doc = await vscode.workspace.openTextDocument(
      vscode.Uri.from({ scheme: 'fountain-sandbox-diff', path: '/Changes x', query: 'no-such-request' }),
    );
    assert.ok(doc.getText().length > 0);
  });

  it('registers its commands', async () => {
    const all = await vscode.commands.getCommands(true);
    for (const id of ['fountain.signIn', 'fountain.signOut', 'fountain.showLogs']) {
      assert.ok(all.includes(id), `${id} is not registered`);
    }
  });

  it('reads fountain.serverUrl from the remote machine settings and the key from FOUNTAIN_API_KEY', async function () {
    const server = harnessServer();
    if (!server) {
      skipOrFail(this, 'the local test server is not running (run through npm run test:integration)');
    }
    const api = await getApi();
    const inspected = vscode.workspace.getConfiguration('fountain').inspect<string>('serverUrl');
    assert.equal(
      inspected?.globalValue,
      server.url,
      'the harness wrote Machine/settings.json; VS Code should read it as the global value',
    );
    assert.equal(api.serverUrl(), server.url);
    assert.equal(await api.hasKey(), true);
  });

  it('never falls back to FOUNTAIN_TOKEN (a sandbox token) when no user key is available', async function () {
    if (!harnessServer()) {
      skipOrFail(this, 'the local test server is not running (run through npm run test:integration)');
    }
    const api = await getApi();
    const saved = process.env.FOUNTAIN_API_KEY;
    try {
      delete process.env.FOUNTAIN_API_KEY;
      process.env.FOUNTAIN_TOKEN = 'sprite:00000000-0000-0000-0000-000000000000';
      assert.equal(await api.hasKey(), false);
    } finally {
      process.env.FOUNTAIN_API_KEY = saved;
      delete process.env.FOUNTAIN_TOKEN;
    }
    assert.equal(await api.hasKey(), true);
  });
});
