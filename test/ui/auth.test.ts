import * as path from 'node:path';
import { openWorkbench, runCommand, screenshot, toast, type Workbench } from './workbench';

describe('UI: signing in and out in the real workbench', function () {
  this.timeout(180_000);
  let wb: Workbench;

  before(async () => {
    wb = await openWorkbench({ withKeyInEnv: false });
  });
  after(async function () {
    if (this.currentTest?.state === 'failed') {
      await screenshot(wb.page, path.join(wb.runDir, 'failure.png')).catch(() => undefined);
    }
    await wb?.close();
  });

  it('signs in with a key typed into a password box, which is never shown', async () => {
    const { page } = wb;
    await runCommand(page, 'Fountain: Sign In');
    await page
      .locator('.quick-input-widget', { hasText: 'API key for the Fountain server' })
      .waitFor({ timeout: 30_000 });
    // The palette's own input is reused for the key: it must have switched to a password field.
    const input = page.locator('.quick-input-widget input[type="password"]');
    await input.waitFor({ timeout: 10_000 });
    await input.fill(String(wb.server?.info.apiKey ?? 'ftn_test_key'));
    await page.keyboard.press('Enter');
    await toast(page, `Signed in to Fountain at ${wb.serverUrl}.`).waitFor({ timeout: 30_000 });
  });

  it('asks before signing out and signs out only when "Sign Out" is clicked', async () => {
    const { page } = wb;
    await runCommand(page, 'Fountain: Sign Out');
    const confirm = toast(page, 'Sign out of Fountain at');
    await confirm.waitFor({ timeout: 30_000 });
    await confirm.getByRole('button', { name: 'Sign Out', exact: true }).click();
    await toast(page, `Signed out of Fountain at ${wb.serverUrl}.`).waitFor({ timeout: 30_000 });
    // Signing out again finds no stored key: the first sign-out really deleted it.
    await runCommand(page, 'Fountain: Sign Out');
    await toast(page, 'You are not signed in to').waitFor({ timeout: 30_000 });
  });
});
