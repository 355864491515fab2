/**
 * What the bench reads in a workbench page: an init script (before the workbench loads) stamps every toast the moment
 * it is in the DOM with text (a MutationObserver: the callback runs after the mutation, before the next paint; the
 * paint itself is not counted), and every click in the capture phase (before VS Code's own handler). Times are
 * performance.timeOrigin + performance.now(), the clock of ./wire.ts and ./hostHook.ts.
 */
import type { Page } from 'playwright-core';

/** The baseline extension's toasts start with it (./minimalExtension.ts). */
export const BASELINE = 'Baseline: ';

export interface Stamp {
  at: number;
  text: string;
}

const INIT = `(() => {
  const now = () => performance.timeOrigin + performance.now();
  const bench = (window.__bench = { toasts: [], clicks: [] });
  const seen = new WeakSet();
  const scan = () => {
    for (const el of document.querySelectorAll('.notifications-toasts .notification-toast')) {
      if (seen.has(el)) continue;
      const text = el.textContent || '';
      if (!text.trim()) continue;
      seen.add(el);
      bench.toasts.push({ at: now(), text });
    }
  };
  new MutationObserver(scan).observe(document, { subtree: true, childList: true, characterData: true });
  document.addEventListener('click', (e) => {
    const t = e.target && e.target.closest ? e.target.closest('.notification-toast') : null;
    bench.clicks.push({ at: now(), text: t ? t.textContent || '' : '' });
  }, true);
})();`;

export async function stampPage(page: Page): Promise<void> {
  await page.addInitScript(INIT);
}

export async function toastsOf(page: Page): Promise<Stamp[]> {
  return page.evaluate(() => (window as unknown as { __bench: { toasts: Stamp[] } }).__bench.toasts);
}

export async function clicksOf(page: Page): Promise<Stamp[]> {
  return page.evaluate(() => (window as unknown as { __bench: { clicks: Stamp[] } }).__bench.clicks);
}

/** Waits for the first toast whose text passes `pick`, polling the page's stamps. */
export async function waitToast(page: Page, pick: (text: string) => boolean, timeoutMs: number): Promise<Stamp> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const t = (await toastsOf(page)).find((s) => pick(s.text));
    if (t) {
      return t;
    }
    if (Date.now() > deadline) {
      throw new Error(`no toast within ${timeoutMs} ms`);
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Clicks a button of the visible toast containing `marker`, with or without `baseline` in its text. */
export async function clickToast(page: Page, marker: string, button: string, baseline: boolean): Promise<void> {
  const all = page.locator('.notifications-toasts .notification-toast', { hasText: marker });
  const t = baseline ? all.filter({ hasText: BASELINE }) : all.filter({ hasNotText: BASELINE });
  await t.first().getByRole('button', { name: button, exact: true }).click({ timeout: 10_000 });
}
