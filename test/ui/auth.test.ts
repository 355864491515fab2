import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { notification, openWorkbench, runCommand, screenshot, toast, until, type Workbench } from './workbench';

/** Open SSE streams on the local server (`GET /_control/streams`). */
async function openStreams(wb: Workbench): Promise<Array<{ path: string; user_id: string }>> {
  const info = wb.server!.info as unknown as { controlUrl: string; controlToken: string };
  const res = await fetch(`${info.controlUrl}/streams`, { headers: { authorization: `Bearer ${info.controlToken}` } });
  return ((await res.json()) as { data: Array<{ path: string; user_id: string }> }).data;
}

async function typeKey(page: Page, key: string): Promise<void> {
  await runCommand(page, 'Fountain: Sign In');
  await page
    .locator('.quick-input-widget', { hasText: 'API key for the Fountain server' })
    .waitFor({ timeout: 30_000 });
  // The palette's own input is reused for the key: it must have switched to a password field.
  const input = page.locator('.quick-input-widget input[type="password"]');
  await input.waitFor({ timeout: 10_000 });
  await input.fill(key);
  await page.keyboard.press('Enter');
}

/** Whether the palette offers a command (typed in full; the list shows only matches). */
async function paletteOffers(page: Page, title: string): Promise<boolean> {
  await page.keyboard.press('Escape');
  await page.keyboard.press('F1');
  await page.locator('.quick-input-widget input').fill('>' + title);
  await page.waitForTimeout(1000);
  const n = await page.locator('.quick-input-list .monaco-list-row', { hasText: title }).count();
  await page.keyboard.press('Escape');
  return n > 0;
}

async function openAccountsMenu(page: Page): Promise<void> {
  await page.keyboard.press('Escape');
  // The item itself: while a sign-in is requested its badge covers the icon.
  await page.locator('.activitybar .action-item:has(a[aria-label^="Accounts"])').first().click();
  await page.locator('.monaco-menu-container .monaco-menu').first().waitFor({ timeout: 10_000 });
}

describe('UI: signing in and out in the real workbench', function () {
  this.timeout(240_000);
  let wb: Workbench;
  let email: string;

  before(async () => {
    wb = await openWorkbench({ withKeyInEnv: false });
    const me = await fetch(`${wb.serverUrl}/api/auth/me`, {
      headers: { authorization: `Bearer ${String(wb.server?.info.apiKey)}` },
    });
    email = ((await me.json()) as { email: string }).email;
    assert.ok(email);
  });
  afterEach(async function () {
    if (this.currentTest?.state === 'failed') {
      const file = path.join(wb.runDir, `failure-${this.currentTest.title.slice(0, 20).replace(/\W+/g, '-')}.png`);
      await screenshot(wb.page, file).catch(() => undefined);
      console.log(`screenshot: ${file}`);
    }
  });
  after(async () => {
    await wb?.close();
  });

  it('while signed out, the Accounts menu offers Sign in with Fountain, which opens the sign-in', async () => {
    const { page } = wb;
    // The badge VS Code puts on the Accounts icon once an extension asked for a session it could not get.
    await page
      .locator('.activitybar a[aria-label="Accounts - Sign in requested"]')
      .first()
      .waitFor({ timeout: 60_000 });
    await openAccountsMenu(page);
    const entry = page.locator('.monaco-menu .action-item', {
      hasText: /Sign in with Fountain to use Fountain Approvals/,
    });
    await entry.first().waitFor({ timeout: 15_000 });
    await screenshot(page, path.join(wb.runDir, 'accounts-menu-signed-out.png'));
    await entry.first().hover();
    await entry.first().click();
    // Choosing it runs the provider's createSession: the same key prompt as Fountain: Sign In.
    const prompt = page.locator('.quick-input-widget', { hasText: 'API key for the Fountain server' });
    await prompt.waitFor({ timeout: 30_000 });
    await page.keyboard.press('Escape');
    await prompt.waitFor({ state: 'hidden', timeout: 10_000 });
    assert.deepEqual(await openStreams(wb), [], 'nothing was signed in');
  });

  it('refuses a key the server refuses, in the server words, and stores nothing', async () => {
    const { page } = wb;
    await typeKey(page, String(wb.server?.info.revokedKey));
    await toast(page, `${wb.serverUrl} refused this key:`).waitFor({ timeout: 30_000 });
    const text = await toast(page, `${wb.serverUrl} refused this key:`).innerText();
    // The server's sentence, in plain words: its code (api_key_revoked) and the status go to the log only.
    assert.match(text, /refused this key: [^()]+\. Nothing was stored\./);
    assert.doesNotMatch(text, /api_key_revoked|401/);
    // Nothing stored: no stream was opened, and Sign Out is not offered (the signed-in context key stayed false).
    assert.deepEqual(await openStreams(wb), []);
    assert.equal(await paletteOffers(page, 'Fountain: Sign Out'), false);
  });

  it('signs in with a checked key, says who you are, and the Accounts menu lists the Fountain account', async () => {
    const { page } = wb;
    await typeKey(page, String(wb.server?.info.apiKey));
    await toast(page, `Signed in to ${wb.serverUrl} as ${email}.`).waitFor({ timeout: 30_000 });
    await until('the stream to open', async () => ((await openStreams(wb)).length === 1 ? true : undefined));
    await openAccountsMenu(page);
    const account = page.locator('.monaco-menu .action-item', { hasText: `${email} on ${wb.serverUrl} (Fountain)` });
    await account.first().waitFor({ timeout: 10_000 });
    await screenshot(page, path.join(wb.runDir, 'accounts-menu.png'));
  });

  it('Sign Out in the Accounts menu deletes the key and stops the stream', async () => {
    const { page } = wb;
    const account = page.locator('.monaco-menu .action-item', { hasText: `${email} on ${wb.serverUrl} (Fountain)` });
    if (!(await account.first().isVisible())) {
      await openAccountsMenu(page);
    }
    await account.first().hover();
    await account.first().click();
    // The account's submenu: "Manage Trusted Extensions", "Sign Out".
    const signOut = page.locator('.monaco-menu .action-item', { hasText: /^\s*Sign Out\s*$/ }).last();
    await signOut.waitFor({ timeout: 10_000 });
    await signOut.hover();
    await signOut.click();
    // VS Code's own confirmation ("Sign out of '…'?"); only then does it call the provider's removeSession.
    const dialog = page.locator('.monaco-dialog-box');
    try {
      await dialog.waitFor({ timeout: 5000 });
    } catch {
      await page.keyboard.press('Enter'); // the highlighted menu entry, if the click only focused it
      await dialog.waitFor({ timeout: 10_000 });
    }
    await screenshot(page, path.join(wb.runDir, 'accounts-sign-out.png'));
    await dialog.getByRole('button', { name: 'Sign Out', exact: true }).click();
    await toast(page, `Signed out of Fountain at ${wb.serverUrl}.`).waitFor({ timeout: 30_000 });
    await until('the stream to close', async () => ((await openStreams(wb)).length === 0 ? true : undefined));
    assert.equal(await paletteOffers(page, 'Fountain: Sign Out'), false);
  });

  it('the Sign Out command asks first and signs out only when "Sign Out" is clicked', async () => {
    const { page } = wb;
    await typeKey(page, String(wb.server?.info.apiKey));
    await toast(page, `Signed in to ${wb.serverUrl} as ${email}.`).waitFor({ timeout: 30_000 });
    await runCommand(page, 'Fountain: Sign Out');
    const confirm = toast(page, 'Sign out of Fountain at');
    await confirm.waitFor({ timeout: 30_000 });
    await confirm.getByRole('button', { name: 'Sign Out', exact: true }).click();
    await notification(page, `Signed out of Fountain at ${wb.serverUrl}.`).waitFor({ timeout: 30_000 });
    await until('the stream to close', async () => ((await openStreams(wb)).length === 0 ? true : undefined));
    // Signed out: the palette no longer offers Sign Out.
    assert.equal(await paletteOffers(page, 'Fountain: Sign Out'), false);
  });
});
