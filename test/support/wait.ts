/**
 * The one polling wait every tier uses: calls `check` until it returns a truthy value, or fails after `timeoutMs`
 * naming what it waited for. (Playwright's own locator waits are separate: they wait on the page.)
 */
export async function waitFor<T>(
  what: string,
  check: () => T | undefined | null | false | Promise<T | undefined | null | false>,
  timeoutMs = 20_000,
  intervalMs = 100,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v) {
      return v;
    }
    if (Date.now() > end) {
      throw new Error(`timed out waiting for ${what}`);
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/** `waitFor` with the UI tier's longer default (a real workbench in headless Chromium on 2 cores). */
export function until<T>(
  what: string,
  check: () => T | undefined | null | false | Promise<T | undefined | null | false>,
  ms = 30_000,
): Promise<T> {
  return waitFor(what, check, ms, 200);
}
