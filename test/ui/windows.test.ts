/**
 * Two windows of one code-server on the same folder (two pages, so two extension hosts sharing one global storage
 * folder): one stream, one toast, an answer from one shows in the other, and the follower takes over when the
 * leader's window closes. The bounds (1 s, 6 s) are wait timeouts, not measurements.
 */
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { TestServer } from '../support/serverClient';
import { openWorkbench, screenshot, toast, until, type Workbench, openView } from './workbench';
import { skipOrFail } from '../support/skipOrFail';

/** A row of the Pending Approvals tree (whose label starts with the command; History rows start with "│ "). */
function treeRow(page: Page, command: string, state?: RegExp) {
  const row = page.locator(`.pane-body .monaco-list-row[aria-label^="${command}"]`);
  return state ? row.filter({ hasText: state }) : row;
}

describe('UI: two windows share one stream', function () {
  this.timeout(300_000);
  let wb: Workbench;
  let server: TestServer;
  /** The window opened first: it holds the stream. */
  let first: Page;
  let second: Page;

  async function streamIds(): Promise<number[]> {
    const r = await server.control<{ data: { id: number; kind: string }[] }>('GET', '/streams');
    return r.data.filter((s) => s.kind === 'account').map((s) => s.id);
  }
  const accountStreams = async () => (await streamIds()).length;

  before(async function () {
    wb = await openWorkbench({ withKeyInEnv: true });
    if (!wb.server) {
      skipOrFail(this, 'the local test server did not start for the workbench');
    }
    server = new TestServer(wb.server.info);
    first = wb.page;
    await until("the first window's stream", async () => (await accountStreams()) === 1, 90_000);
    // A page of its own context (the fixture's page owns its context), on the same code-server URL and folder.
    second = await first
      .context()
      .browser()!
      .newPage({ viewport: { width: 1400, height: 900 } });
    await second.goto(first.url());
    await second.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    await openView(first);
    await openView(second);
  });
  afterEach(async function () {
    if (this.currentTest?.state === 'failed') {
      for (const [i, p] of [first, second].entries()) {
        if (!p.isClosed()) {
          await screenshot(p, path.join(wb.runDir, `failure-window${i + 1}-${Date.now()}.png`)).catch(() => undefined);
        }
      }
      console.log(`screenshots and logs in ${wb.runDir}`);
    }
  });
  after(async () => {
    await wb?.close();
  });

  it('one open stream, one toast across both windows, and an answer in one shows in the other within 1 s', async () => {
    await server.startConversation('claude', 'run: touch two-windows.txt', { title: 'Two windows' });
    await treeRow(first, 'touch two-windows.txt').first().waitFor({ timeout: 30_000 });
    await treeRow(second, 'touch two-windows.txt').first().waitFor({ timeout: 30_000 });
    const toasts = () => Promise.all([first, second].map((p) => toast(p, 'touch two-windows.txt').count()));
    await until('a toast in either window', async () => (await toasts()).some((n) => n > 0));
    // Both windows have the request in their tree; give the other one time to (wrongly) toast it too.
    await first.waitForTimeout(3000);
    const counts = await toasts();
    assert.equal(counts[0] + counts[1], 1, `toasts per window: ${counts.join(', ')}`);
    assert.equal(await accountStreams(), 1, 'the server holds one account stream for both windows');
    const [here, there] = counts[0] === 1 ? [first, second] : [second, first];
    await toast(here, 'touch two-windows.txt').getByRole('button', { name: 'Allow', exact: true }).click();
    await treeRow(here, 'touch two-windows.txt', /answered/).waitFor({ timeout: 30_000 });
    await treeRow(there, 'touch two-windows.txt', /answered/).waitFor({ timeout: 1000 });
  });

  it("after the leader's window closes, a new request raises a toast in the remaining one within 6 s", async () => {
    const streams = await streamIds();
    assert.equal(streams.length, 1, 'one account stream before the leader closes');
    const [leaderStream] = streams;
    await first.close();
    await server.startConversation('claude', 'run: touch after-close.txt', { title: 'After close' });
    await toast(second, 'touch after-close.txt').waitFor({ timeout: 6000 });
    // The remaining window took the stream over: one account stream, and not the closed window's.
    await until('one new account stream', async () => {
      const ids = await streamIds();
      return ids.length === 1 && ids[0] !== leaderStream;
    });
  });
});
