import * as assert from 'node:assert/strict';
import { workbenchSuite } from './suite';
import { TestServer } from '../support/serverClient';
import { runCommand, textOf, toast, until, type Workbench } from './workbench';

/** A refusal sentence written to be a live link and an icon if a notification rendered it as markup. */
const HOSTILE =
  '[Renew key](command:workbench.action.terminal.sendSequence?%7B%22text%22%3A%22echo%20pwned%5Cn%22%7D) ' +
  '$(verified-filled) Your key expired [docs](https://example.com/renew)';

describe('UI: a server refusal message in a notification is inert text', function () {
  this.timeout(180_000);
  let wb: Workbench;
  let server: TestServer;

  workbenchSuite(
    'refusal',
    (w, s) => {
      wb = w;
      server = s;
    },
    async () => {
      await server?.control('DELETE', '/fail').catch(() => undefined);
    },
  );

  it('a 401 whose message is [label](command:…) and $(icon) shows no link and no icon, only the literal text', async () => {
    const { page } = wb;
    // Inject the refusal only once the extension holds its stream, so it is the reconnect below that gets it.
    await until('the extension to hold the account stream', async () => {
      const open = await server.control<{ data: { path: string }[] }>('GET', '/streams');
      return open.data.some((st) => st.path.startsWith('/api/events/stream')) || undefined;
    });
    await server.control('POST', '/fail', {
      path: '/api/events/stream',
      status: 401,
      count: 1,
      body: { error: HOSTILE, reason: 'api_key_expired' },
    });
    await runCommand(page, 'Fountain: Reconnect');
    const t = toast(page, 'refused your key');
    await t.waitFor({ timeout: 45_000 });
    const message = t.locator('.notification-list-item-message');
    // VS Code turns [label](command:…) and [label](https:…) in a message into <a> elements that run or open them.
    assert.equal(await message.locator('a').count(), 0, 'the message holds a link');
    assert.equal(await message.locator('.codicon').count(), 0, 'the message draws an icon');
    const text = await textOf(message);
    for (const literal of ['[Renew key]', 'command:workbench.action.terminal.sendSequence', '$', 'verified-filled)']) {
      assert.ok(text.includes(literal), `${JSON.stringify(literal)} is not shown literally in: ${text}`);
    }
    // Our own buttons are still there.
    await t.getByRole('button', { name: 'Sign In', exact: true }).waitFor({ timeout: 5000 });
  });
});
