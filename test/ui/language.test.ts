import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { workbenchSuite } from './suite';
import type { TestServer } from '../support/serverClient';
import { screenshot, textOf, toast, until, type Workbench } from './workbench';

// The workbench in German (code-server's --locale de): the extension's manifest strings come from
// package.nls.de.json and its code strings from l10n/bundle.l10n.de.json.
describe('UI: the extension in a second language (German)', function () {
  this.timeout(300_000);
  let wb: Workbench;
  let server: TestServer;

  workbenchSuite(
    'language',
    (w, s) => {
      wb = w;
      server = s;
    },
    undefined,
    { locale: 'de' },
  );

  it('a request shows a German toast, and the tree its German view title and row text', async () => {
    const { page } = wb;
    await server.startConversation('claude', 'run: touch sprache.txt', { title: 'Sprachprobe' });
    // The toast: "Approve {2}: {0} — {1}" in German.
    const t = toast(page, 'touch sprache.txt');
    await t.waitFor({ timeout: 60_000 });
    const text = await textOf(t);
    assert.match(text, /freigeben: touch sprache\.txt — Sprachprobe/, text);
    assert.doesNotMatch(text, /Approve /, text);
    // The tree: its view title (package.nls.de.json) and the conversation row's "1 waiting" (the bundle).
    await page.locator('.activitybar .action-item a[aria-label^="Fountain"]').first().click();
    const header = page.locator('.pane-header', { hasText: 'Ausstehende Freigaben' }).first();
    await header.waitFor({ timeout: 30_000 });
    const group = page.locator('.pane-body .monaco-list-row', { hasText: 'Sprachprobe' }).first();
    await until('the group row in German', async () => /1 wartend/.test(await textOf(group).catch(() => '')));
    await screenshot(page, path.join(wb.runDir, 'language-de.png'));
  });
});
