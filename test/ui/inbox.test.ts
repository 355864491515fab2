import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { TestServer } from '../support/serverClient';
import {
  clickNotificationButton,
  notification,
  openWorkbench,
  runCommand,
  screenshot,
  textOf,
  toast,
  until,
  type Workbench,
  openView,
} from './workbench';
import { skipOrFail } from '../support/skipOrFail';

/** The text of every button on a toast, in order. */
async function buttonTexts(t: ReturnType<typeof toast>): Promise<string[]> {
  return (await t.locator('.monaco-button').allInnerTexts()).map((s) => s.trim()).filter(Boolean);
}

function treeRow(page: Page, text: string | RegExp) {
  return page.locator('.pane-body .monaco-list-row', { hasText: text });
}

describe('UI: approving in the real workbench', function () {
  this.timeout(240_000);
  let wb: Workbench;
  let server: TestServer;
  /** Screenshots go to the run folder; FOUNTAIN_UPDATE_SCREENSHOTS=1 writes the README's pictures in media/. */
  let MEDIA: string;

  before(async function () {
    wb = await openWorkbench({ withKeyInEnv: true });
    if (!wb.server) {
      skipOrFail(this, 'the local test server did not start for the workbench');
    }
    server = new TestServer(wb.server.info);
    MEDIA = process.env.FOUNTAIN_UPDATE_SCREENSHOTS
      ? path.resolve(__dirname, '..', '..', 'media')
      : path.join(wb.runDir, 'screenshots');
  });
  afterEach(async function () {
    if (this.currentTest?.state === 'failed') {
      await screenshot(wb.page, path.join(wb.runDir, `failure-${Date.now()}.png`)).catch(() => undefined);
      console.log(`screenshot and logs in ${wb.runDir}`);
    }
    await wb?.page.keyboard.press('Escape');
    // Start each test with no notifications and the notification centre closed (new ones then show as toasts).
    await runCommand(wb.page, 'Notifications: Clear All Notifications').catch(() => undefined);
    await wb.page.keyboard.press('Escape');
    // Keep tests independent: end every turn still holding a request, so nothing left over counts in the next one.
    const state = await server.control<{ requests: { conversation_id: string }[] }>('GET', '/state');
    for (const c of new Set(state.requests.map((r) => r.conversation_id))) {
      await server.control('POST', `/conversations/${c}/interrupt`);
    }
    // Past the burst rule's 2 s (a third toast within 2 s folds): each test's first request gets its own toast.
    await wb.page.waitForTimeout(2_100);
  });
  after(async () => {
    await wb?.close();
  });

  it('a claude-style request raises a toast highlighting "Allow", then "Always Allow", "Reject"; clicking Allow sends exactly one answer', async () => {
    const { page } = wb;
    // The agent asks a moment into its turn, once the conversation (and so its runtime) is known, as usual.
    const id = await server.startConversation('claude', 'sleep: 2500\nrun: touch approved-from-toast.txt', {
      title: 'Fix the build',
    });
    const t = toast(page, 'touch approved-from-toast.txt');
    await t.waitFor({ timeout: 30_000 });
    const buttons = await buttonTexts(t);
    assert.deepEqual(buttons.slice(0, 3), ['Allow', 'Always Allow', 'Reject']);
    // VS Code draws the first button as the primary one and every other as secondary: the persistent option is not it.
    const secondary = await t
      .locator('.monaco-button')
      .evaluateAll((els) => els.slice(0, 3).map((e) => e.classList.contains('secondary')));
    assert.deepEqual(secondary, [false, true, true]);
    // What "Always Allow" keeps, before the click: Claude Code's known behaviour in a Fountain sandbox.
    assert.match(
      await t.innerText(),
      /"Always Allow": a rule in the sandbox's \.claude\/settings\.local\.json, gone with it; not for writes outside the cwd/,
    );
    fs.mkdirSync(MEDIA, { recursive: true });
    await t.screenshot({ path: path.join(MEDIA, 'toast.png') });
    await t.getByRole('button', { name: 'Allow', exact: true }).click();
    const state = await server.conversationState(id);
    await until('the approved command to run', () => fs.existsSync(path.join(state.cwd, 'approved-from-toast.txt')));
    const answers = await server.answersFor(id);
    assert.deepEqual(
      answers.map((a) => [a.status, a.body]),
      [[200, { option_id: 'allow' }]],
    );
  });

  it('a click on a toast answered elsewhere first sends nothing and says so; the tree shows it', async () => {
    const { page } = wb;
    const id = await server.startConversation('claude', 'run: touch raced.txt', { title: 'Race' });
    const t = toast(page, 'touch raced.txt');
    await t.waitFor({ timeout: 30_000 });
    const held = await until(
      'the server to hold the request',
      async () => (await server.conversationState(id)).held[0],
    );
    const direct = await server.api('POST', `/api/conversations/${id}/requests/${encodeURIComponent(held)}`, {
      option_id: 'reject',
    });
    assert.equal(direct.status, 200);
    await openView(page);
    await treeRow(page, /touch raced\.txt.*answered elsewhere: Reject · /).waitFor({ timeout: 30_000 });
    const before = (await server.answersFor(id)).length;
    await clickNotificationButton(page, 'touch raced.txt', 'Allow');
    await notification(page, 'Already answered elsewhere: Reject').waitFor({ timeout: 20_000 });
    assert.equal((await server.answersFor(id)).length, before, 'the stale click sent nothing');
  });

  it('groups requests from three conversations, counts them on the badge, and the keyboard queue answers them oldest first', async () => {
    const { page } = wb;
    const ids: string[] = [];
    for (const [agent, title, file] of [
      ['claude', 'Alpha', 'queue-1.txt'],
      ['gemini', 'Beta', 'queue-2.txt'],
      ['codex', 'Gamma', 'queue-3.txt'],
    ] as const) {
      const id = await server.startConversation(agent, `run: touch ${file}`, { title });
      ids.push(id);
      // In order, oldest first (three within 2 s may share a notification now: the view is what this test reads).
      await until(`the server to hold ${file}`, async () => (await server.conversationState(id)).held[0]);
    }
    await openView(page);
    for (const title of ['Alpha', 'Beta', 'Gamma']) {
      await treeRow(page, title).first().waitFor({ timeout: 20_000 });
    }
    const badge = page.locator('.activitybar .action-item:has([aria-label^="Fountain"]) .badge-content');
    await until('the badge to count 3', async () => (await badge.innerText()).trim() === '3');
    await page.waitForTimeout(600); // let the palette fade out of the picture
    await screenshot(page, path.join(MEDIA, 'tree.png'));
    await page.keyboard.press('Escape');
    await page.keyboard.press('Control+Alt+Shift+Y');
    for (const file of ['queue-1.txt', 'queue-2.txt', 'queue-3.txt']) {
      const first = page.locator('.quick-input-list .monaco-list-row').first();
      await until(`the queue to offer ${file} first`, async () => (await first.innerText()).includes(`touch ${file}`));
      await page.keyboard.press('Enter');
      await page.locator('.quick-input-widget', { hasText: 'Answer:' }).waitFor({ timeout: 10_000 });
      // Pick the allow-once option by its kind shown in the list.
      const row = page.locator('.quick-input-list .monaco-list-row', { hasText: 'allow_once' }).first();
      await row.click();
    }
    for (const [i, id] of ids.entries()) {
      const answers = await until(`answer ${i + 1}`, async () => {
        const a = await server.answersFor(id);
        return a.length ? a : undefined;
      });
      assert.equal(answers.length, 1);
      assert.equal(answers[0].status, 200);
    }
    await until(
      'the badge to clear',
      async () =>
        (await page.locator('.activitybar .badge-content').count()) === 0 || (await badge.innerText()).trim() === '',
    );
  });

  it('a request with four options (qwen style) lets the user reach every option', async () => {
    const { page } = wb;
    const id = await server.startConversation('qwen', 'run: touch four-options.txt', { title: 'Four' });
    const t = toast(page, 'touch four-options.txt');
    await t.waitFor({ timeout: 30_000 });
    const buttons = await buttonTexts(t);
    assert.ok(buttons.includes('More…'), `buttons: ${buttons.join(' | ')}`);
    await t.getByRole('button', { name: 'More…', exact: true }).click();
    const rows = page.locator('.quick-input-list .monaco-list-row');
    await rows.first().waitFor({ timeout: 10_000 });
    // The four options, then Reject with Reason… (ours, after them).
    const texts = (await rows.allInnerTexts()).filter((t) => t.includes('option id:'));
    assert.equal(texts.length, 4, texts.join(' | '));
    for (const id of ['proceed_always_project', 'proceed_always_user', 'proceed_once', 'cancel']) {
      assert.ok(
        texts.some((t) => t.includes(id)),
        `option ${id} is reachable`,
      );
    }
    // Choose the second "always" option, which has no toast button of its own.
    await rows.filter({ hasText: 'proceed_always_user' }).click();
    const answers = await until('the answer', async () => {
      const a = await server.answersFor(id);
      return a.length ? a : undefined;
    });
    assert.deepEqual(answers[0].body, { option_id: 'proceed_always_user' });
  });

  it('shows a hostile title literally: markdown, a command: link and HTML are inert', async () => {
    const { page } = wb;
    const hostile =
      'echo [Click me](command:workbench.action.quit) <img src=x onerror=alert(1)> **bold** \u202Etxt.exe';
    const id = await server.startConversation('claude', `run: ${hostile}`, { title: 'Hostile' });
    const t = toast(page, 'Click me');
    await t.waitFor({ timeout: 30_000 });
    const text = await t.locator('.notification-list-item-message').innerText();
    assert.ok(text.includes('<img src=x onerror=alert(1)>'), text);
    assert.ok(text.includes('**bold**'), text);
    assert.ok(text.includes('⟨U+202E⟩'), 'the bidi override is shown as a visible escape');
    assert.equal(
      await t.locator('.notification-list-item-message a').count(),
      0,
      'no link was rendered in the message',
    );
    await t.locator('.notification-list-item-message').click();
    await page.waitForTimeout(500);
    assert.ok(!page.isClosed(), 'clicking the text ran nothing');
    await clickNotificationButton(page, 'Click me', 'Details');
    const editor = page.locator('.editor-instance .view-lines').first();
    await until('the details document', async () => (await textOf(editor)).includes('Fountain approval request'));
    const details = await textOf(editor);
    assert.ok(details.includes('[Click me](command:workbench.action.quit)'), 'the full text, literally');
    await screenshot(page, path.join(MEDIA, 'details.png'));
    assert.equal((await server.answersFor(id)).length, 0);
  });

  it('an edit request with diff content opens a diff editor with the old and new text', async () => {
    const { page } = wb;
    const id = await server.startConversation('claude', 'say: ready', { title: 'Edit notes' });
    const { cwd } = await server.conversationState(id);
    fs.writeFileSync(path.join(cwd, 'notes.txt'), 'the old text\n');
    await until('the first turn to end', async () => (await server.conversationState(id)).status === 'idle');
    const sent = await server.api('POST', `/api/conversations/${id}/prompts`, {
      prompt: 'edit: notes.txt => the new text',
    });
    assert.ok(sent.status < 300, `prompt: ${sent.status}`);
    await toast(page, 'notes.txt').waitFor({ timeout: 30_000 });
    await clickNotificationButton(page, 'notes.txt', 'Details');
    const editor = page.locator('.editor-instance .view-lines').first();
    await until('the details document', async () => (await textOf(editor)).includes('Fountain approval request'));
    await runCommand(page, 'Fountain: Open Diff');
    const diff = page.locator('.monaco-diff-editor');
    await diff.waitFor({ timeout: 20_000 });
    await until('the old and the new text in the diff editor', async () => {
      const text = await textOf(diff);
      return text.includes('the old text') && text.includes('the new text');
    });
    await screenshot(page, path.join(MEDIA, 'diff.png'));
    assert.equal((await server.answersFor(id)).length, 0, 'looking sends nothing');
  });

  it('the tree answers too: the inline Reject action, and Ctrl+Alt+Shift+A on the focused request', async () => {
    const { page } = wb;
    const rejectId = await server.startConversation('gemini', 'run: touch tree-reject.txt', { title: 'Tree reject' });
    const allowId = await server.startConversation('claude', 'run: touch tree-allow.txt', { title: 'Tree allow' });
    await openView(page);
    const rejectRow = treeRow(page, 'touch tree-reject.txt').first();
    await rejectRow.waitFor({ timeout: 30_000 });
    await rejectRow.hover();
    await rejectRow.locator('.actions .action-label[aria-label^="Reject"]').click();
    const rejected = await until('the inline reject', async () => {
      const a = await server.answersFor(rejectId);
      return a.length ? a : undefined;
    });
    assert.deepEqual(
      rejected.map((a) => [a.status, a.body]),
      [[200, { option_id: 'cancel' }]],
      "gemini's own reject option",
    );
    // The answered row changes state and the rows re-sort under the pointer: a click can land while the tree
    // redraws and select nothing (seen in CI: the key then went to the editor). Clicking a row only selects it, so
    // click until the row is selected with the focus in the Pending Approvals tree.
    const allowRow = treeRow(page, 'touch tree-allow.txt').first();
    await until('the allow row selected, with the focus in the Pending Approvals tree', async () => {
      const selected = (await allowRow.getAttribute('aria-selected')) === 'true';
      const focusInTree = await allowRow.evaluate((row) => {
        const list = row.closest('.monaco-list');
        return !!list && !!document.activeElement && list.contains(document.activeElement);
      });
      if (selected && focusInTree) {
        return true;
      }
      await allowRow.click(); // selects it and shows its details, keeping the focus in the tree
      return false;
    });
    await page.keyboard.press('Control+Alt+Shift+A');
    const allowed = await until('the keyboard allow', async () => {
      const a = await server.answersFor(allowId);
      return a.length ? a : undefined;
    });
    assert.deepEqual(
      allowed.map((a) => [a.status, a.body]),
      [[200, { option_id: 'allow' }]],
      "claude's allow_once option",
    );
    const { cwd } = await server.conversationState(allowId);
    await until('the allowed command to run', () => fs.existsSync(path.join(cwd, 'tree-allow.txt')));
  });

  it('hostile requests: a 1 MB title toasts and shows in the tree and details, a "Reject"-named allow option shows its kind, look-alike names differ, $(icon) text is literal', async () => {
    const { page } = wb;
    const spec = {
      toolCall: { title: 'git status $(poweroff)', kind: 'execute', rawInput: { command: 'git status $(poweroff)' } },
      options: [
        { optionId: 'evil', name: 'Reject', kind: 'allow_always' },
        { optionId: 'once', name: 'Allow once', kind: 'allow_once' },
        { optionId: 'once2', name: '\u0410llow once', kind: 'allow_once' },
      ],
    };
    const spoofId = await server.startConversation('claude', `ask: ${JSON.stringify(spec)}`, { title: 'Spoof' });
    const t = toast(page, 'git status $(poweroff)');
    await t.waitFor({ timeout: 30_000 });
    assert.equal(await t.locator('.codicon-poweroff').count(), 0, 'no icon drawn in the toast');
    const buttons = await buttonTexts(t);
    assert.deepEqual(buttons.slice(0, 3), ['Allow once (once)', 'Allow always: "Reject"', '\u0410llow once (once2)']);
    await screenshot(page, path.join(wb.runDir, 'screenshots', 'spoofed-options.png'));

    // The queue and the option list are QuickPicks, which draw $(icon) references: they must show them literally.
    await page.keyboard.press('Escape');
    await page.keyboard.press('Control+Alt+Shift+Y');
    const row = page.locator('.quick-input-list .monaco-list-row', { hasText: 'git status $(poweroff)' }).first();
    await row.waitFor({ timeout: 10_000 });
    assert.equal(await page.locator('.quick-input-list .codicon-poweroff').count(), 0, 'no icon drawn in the queue');
    await row.click();
    const reject = page.locator('.quick-input-list .monaco-list-row', { hasText: 'Reject' }).first();
    await reject.waitFor({ timeout: 10_000 });
    assert.ok((await reject.innerText()).includes('allow_always'), 'the option list shows the kind next to the name');
    await page.keyboard.press('Escape');
    assert.equal((await server.answersFor(spoofId)).length, 0, 'looking sends nothing');

    const huge = 'echo ' + 'x'.repeat(1_000_000);
    const hugeId = await server.startConversation('claude', `run: ${huge}`, { title: 'Huge ' + 'T'.repeat(900_000) });
    const ht = toast(page, 'echo xxxxxxxx');
    await ht.waitFor({ timeout: 60_000 });
    assert.ok(
      (await ht.locator('.notification-list-item-message').innerText()).includes('…'),
      'the toast is shortened',
    );
    await openView(page);
    await treeRow(page, /echo xxxx.*…/)
      .first()
      .waitFor({ timeout: 20_000 });
    await treeRow(page, 'git status $(poweroff)').first().waitFor({ timeout: 20_000 }); // the other rows stay
    assert.equal(await page.locator('.pane-body .monaco-list-row .codicon-poweroff').count(), 0);
    await clickNotificationButton(page, 'echo xxxxxxxx', 'Details');
    const editor = page.locator('.editor-instance .view-lines').first();
    await until('the details document', async () => (await textOf(editor)).includes('Fountain approval request'));
    assert.equal((await server.answersFor(hugeId)).length, 0);
  });

  it('requests a few seconds apart each get their own toast; a burst of five gets two, then one "3 more approvals waiting"', async () => {
    const { page } = wb;
    await server.startConversation('claude', 'run: touch apart-1.txt', { title: 'Apart one' });
    await toast(page, 'touch apart-1.txt').waitFor({ timeout: 30_000 });
    await page.waitForTimeout(2500); // spacing the input, not timing the output: the next request comes later
    await server.startConversation('gemini', 'run: touch apart-2.txt', { title: 'Apart two' });
    await toast(page, 'touch apart-2.txt').waitFor({ timeout: 30_000 });
    assert.equal(await notification(page, 'more approval').count(), 0, 'no shared notification for two');
    await runCommand(page, 'Notifications: Clear All Notifications');
    await page.keyboard.press('Escape');
    await page.waitForTimeout(2500); // the burst below starts a run of its own

    // A burst: the stream holds its frames until the server holds all five requests, then writes them at once.
    await server.control('POST', '/streams/stall', { stalled: true });
    const files = [1, 2, 3, 4, 5].map((i) => `burst-${i}.txt`);
    try {
      const ids = await Promise.all(
        files.map((f, i) => server.startConversation('claude', `run: touch ${f}`, { title: `Burst ${i + 1}` })),
      );
      for (const id of ids) {
        await until('the server to hold the burst', async () => (await server.conversationState(id)).held[0]);
      }
    } finally {
      await server.control('POST', '/streams/stall', { stalled: false });
    }
    await notification(page, '3 more approvals waiting').waitFor({ timeout: 30_000 });
    const own = await until('two toasts of their own', async () => {
      const shown: string[] = [];
      for (const f of files) {
        if ((await notification(page, `touch ${f}`).count()) > 0) {
          shown.push(f);
        }
      }
      return shown.length === 2 ? shown : undefined;
    });
    await page.waitForTimeout(1000); // nothing else follows: no third toast of its own, no second shared one
    let singles = 0;
    for (const f of files) {
      singles += await notification(page, `touch ${f}`).count();
    }
    assert.equal(singles, 2, `toasts of their own: ${own.join(', ')}`);
    assert.equal(await page.locator('.notification-toast', { hasText: 'more approval' }).count(), 1);
    await clickNotificationButton(page, '3 more approvals waiting', 'Review');
    await page.locator('.quick-input-widget', { hasText: 'touch burst-' }).waitFor({ timeout: 10_000 });
  });

  it('the status bar item gets the warning background once a request has waited over a minute', async () => {
    const { page } = wb;
    const item = page.locator('.statusbar-item:has([aria-label^="Fountain Approvals:"])').first();
    await item.waitFor({ timeout: 20_000 });
    assert.ok(!(await item.getAttribute('class'))?.includes('warning-kind'), 'no warning before');
    // The server's clock goes back 90 s, so the request it holds next was asked 90 s ago.
    await server.control('POST', '/clock/rewind', { seconds: 90 });
    let id: string;
    try {
      id = await server.startConversation('claude', 'run: touch waited-long.txt', { title: 'Long wait' });
      await until('the server to hold it', async () => (await server.conversationState(id)).held[0]);
    } finally {
      await server.control('POST', '/clock/advance', { seconds: 90 });
    }
    await until('the warning background', async () => (await item.getAttribute('class'))?.includes('warning-kind'));
    const label = await item.locator('[aria-label^="Fountain Approvals:"]').first().getAttribute('aria-label');
    assert.match(label ?? '', /waited over a minute/);
    await server.control('POST', `/conversations/${id}/interrupt`);
    await until(
      'no warning once nothing has waited long',
      async () => !(await item.getAttribute('class'))?.includes('warning-kind'),
    );
  });

  it('a window gaining focus brings back a request whose toast has hidden: one "1 approval waiting", not again on a flicker', async () => {
    const { page } = wb;
    // The workbench reads the window's focus from document.hasFocus() when the page's visibility or focus changes.
    const setFocus = (focused: boolean | undefined) =>
      page.evaluate((f) => {
        if (f === undefined) {
          delete (document as { hasFocus?: () => boolean }).hasFocus; // the real one again
        } else {
          document.hasFocus = () => f;
        }
        document.dispatchEvent(new Event('visibilitychange'));
      }, focused);
    await server.startConversation('claude', 'run: touch come-back.txt', { title: 'Come back' });
    const t = toast(page, 'touch come-back.txt');
    await t.waitFor({ timeout: 30_000 });
    await page.mouse.move(0, 0); // a hovered toast stays
    await t.waitFor({ state: 'hidden', timeout: 60_000 }); // VS Code hides it after 10–12 s in a focused window
    const reminders = page.locator('.notification-toast', { hasText: /approvals? waiting/ });
    assert.equal(await reminders.count(), 0, 'no reminder while the window keeps its focus');
    try {
      await setFocus(false);
      await page.waitForTimeout(200);
      await setFocus(true);
      const r = toast(page, '1 approval waiting');
      await r.waitFor({ timeout: 20_000 });
      assert.ok((await buttonTexts(r)).includes('Review'));
      // VS Code replaces a notification with the same text by a new one: mark this one to tell them apart.
      await r.evaluate((el) => el.setAttribute('data-first-reminder', ''));
      await setFocus(false);
      await page.waitForTimeout(200);
      await setFocus(true);
      await page.waitForTimeout(2000); // a second reminder would show at once
      assert.equal(await reminders.count(), 1, 'one reminder toast');
      assert.equal(
        await page.locator('.notification-toast[data-first-reminder]').count(),
        1,
        'still the first reminder: none on a flicker right after it',
      );
    } finally {
      await setFocus(undefined);
    }
  });

  // Last: it turns notifications off for the rest of this workbench.
  it('"Don\'t Show Again" writes fountain.notifications = off; later requests only update the view and badge', async () => {
    const { page } = wb;
    await server.startConversation('claude', 'run: touch mute-me.txt', { title: 'Mute' });
    await clickNotificationButton(page, 'touch mute-me.txt', "Don't Show Again");
    await notification(page, 'Approval notifications are off').waitFor({ timeout: 20_000 });
    const settingsFile = path.join(wb.runDir, 'user-data', 'User', 'settings.json');
    await until('the user setting', () =>
      /"fountain\.notifications":\s*"off"/.test(fs.readFileSync(settingsFile, 'utf8')),
    );
    await server.startConversation('gemini', 'run: touch after-mute.txt', { title: 'After mute' });
    await openView(page);
    await treeRow(page, 'touch after-mute.txt').waitFor({ timeout: 30_000 });
    await page.waitForTimeout(4000); // a toast shows as the request arrives: it would show by now
    assert.equal(await notification(page, 'touch after-mute.txt').count(), 0, 'no notification once muted');
  });
});
