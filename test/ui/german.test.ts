/**
 * The extension in German in the real workbench: code-server started with `--locale de` and a German language pack
 * installed (a test fixture that translates none of the workbench's own strings, test/fixtures/language-pack-de/),
 * so VS Code loads the extension's own l10n/bundle.l10n.de.json and package.nls.de.json. The expected texts are read
 * from those bundles, formatted the way vscode.l10n.t formats them.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ROOT } from '../support/codeServer';
import { TestServer } from '../support/serverClient';
import { skipOrFail } from '../support/skipOrFail';
import { notification, openWorkbench, runCommand, screenshotOnFailure, textOf, type Workbench } from './workbench';

const readJson = (file: string) => JSON.parse(fs.readFileSync(path.join(ROOT, file), 'utf8')) as Record<string, string>;
const format = (template: string, ...args: string[]) =>
  template.replace(/\{(\d+)\}/g, (_m, i: string) => args[+i] ?? '');

describe('UI: the workbench in German', function () {
  this.timeout(240_000);
  let wb: Workbench | undefined;
  const de = readJson('l10n/bundle.l10n.de.json');
  const nlsDe = readJson('package.nls.de.json');
  const nlsEn = readJson('package.nls.json');

  before(async function () {
    wb = await openWorkbench({ withKeyInEnv: true, locale: 'de' });
    if (!wb.server) {
      skipOrFail(this, 'the local test server did not start for the workbench');
    }
  });
  screenshotOnFailure(() => wb);
  after(async () => {
    await wb?.close();
  });

  it("shows a request's toast, the Pending Approvals view and its conversation row in the German of the bundles", async () => {
    const w = wb as Workbench;
    const { page } = w;
    const server = new TestServer(w.server!.info);
    const title = 'Deutsch-Test';
    await server.startConversation('gemini', 'run: ls', { title });

    // The toast: "Approve {2}: {0} — {1}" in German, and not the English.
    const approveDe = de['Approve {2}: {0} — {1}'];
    assert.ok(approveDe && !approveDe.startsWith('Approve'), 'the German bundle translates the request toast');
    const toastText = format(approveDe, 'ls', title, 'execute');
    const toast = notification(page, toastText);
    await toast.waitFor({ timeout: 60_000 });
    assert.ok(!(await textOf(toast)).includes('Approve '), await textOf(toast));

    // The view's title comes from package.nls.de.json, the row's description from the l10n bundle.
    const viewTitle = nlsDe['views.pending'];
    assert.ok(viewTitle && viewTitle !== nlsEn['views.pending']);
    // The workbench's own words stay English (the fixture pack translates none); the view's name is German.
    await runCommand(page, `${nlsDe['viewsContainers.fountain']}: Focus on ${viewTitle} View`);
    await page.locator('.pane-header', { hasText: viewTitle }).first().waitFor({ timeout: 30_000 });
    const waitingDe = format(de['{0} waiting'] ?? '', '1');
    assert.ok(waitingDe && waitingDe !== '1 waiting');
    const row = page.locator('.pane-body .monaco-list-row', { hasText: title }).filter({ hasText: waitingDe }).first();
    await row.waitFor({ timeout: 30_000 });
    const rowText = await textOf(row);
    assert.ok(rowText.includes(waitingDe) && !rowText.includes('1 waiting'), rowText);
  });
});
