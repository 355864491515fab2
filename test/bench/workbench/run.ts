/**
 * The workbench rows, in one real workbench: the local Fountain server behind a loopback relay (./wire.ts),
 * code-server (real VS Code) with the extension from its .vsix and the baseline extension (./minimalExtension.ts)
 * installed side by side with the timing hook (./hostHook.ts, activated first), and headless Chromium pages stamping
 * toasts and clicks (./page.ts). Sections, in order: activation (read from the hook and the relay), remote requests in
 * one window, a local agent's requests (./localAgent.ts), remote requests with two windows. Run under
 * `flock /tmp/fountain-vscode.lock` (test/bench/main.ts takes it).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import {
  QUIET_SETTINGS,
  installVsix,
  launchBrowser,
  makeRunDir,
  startCodeServer,
  type CodeServer,
} from '../../support/codeServer';
import { startLocalServer, type LocalServer } from '../../support/serverFixture';
import { runCommand } from '../../support/workbench';
import { fountainVsix, hookVsix, localAgentBundle, minimalVsix } from './extensions';
import { BASELINE, clickToast, clicksOf, stampPage, waitToast } from './page';
import { activationOf, facts, loadedBy, type Activation } from './readings';
import { startRelay, wallNow, type WireRelay } from './wire';

const AGENT = 'Bench agent';
const MARKER = /\b(wb[a-z]\d+x)\b/;

export interface Section {
  /** event on the wire → our toast in the DOM, ms, one per request, in order. */
  readonly ours: number[];
  /** the same event on the baseline's stream → the baseline's toast in the same window. */
  readonly base: number[];
  /** click on our toast's button → the answer's request line on the wire. */
  readonly oursClick: number[];
  readonly baseClick: number[];
  /** Toasts shown by the window that does not hold the stream (two windows). */
  readonly inFollower: number;
  /** When the first request's toast was in the DOM (epoch ms). */
  readonly firstToastAt: number;
  /** Requests whose baseline toast did not show in our toast's window within 20 s (their clicks are not timed). */
  readonly baseMissing: number;
}

export interface LocalSection {
  /** the agent writes session/request_permission → our toast in the DOM. */
  readonly ask: number[];
  /** click on the toast's Reject → the answer arrives on the agent's stdin. */
  readonly click: number[];
}

export interface WorkbenchResult {
  readonly activation: Activation;
  readonly single: Section;
  readonly local: LocalSection;
  readonly two: Section;
  /**
   * Window-state reports VS Code gave during the two-window section that contradict the set-up (the first window
   * focused, or the second not); 0 when the harness's focus held.
   */
  readonly focusAgainst: number;
  /** The extension's own files required by the end of activation, and by the first toast. */
  readonly atActivation: { files: string[]; bytes: number };
  readonly byFirstToast: { files: string[]; bytes: number };
  readonly runDir: string;
}

/** Seeded gaps of 1–3 s, as requests of a few agents at work come. */
function gaps(n: number, seed: number): number[] {
  let x = seed;
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out.push(1000 + ((x >>> 0) % 2000));
  }
  return out;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitFor<T>(what: string, fn: () => T | undefined | Promise<T | undefined>, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v !== undefined) {
      return v;
    }
    if (Date.now() > deadline) {
      throw new Error(`bench: no ${what} within ${ms} ms`);
    }
    await sleep(20);
  }
}

/** The first request line on the wire after `after` that passes `pick`, and when. */
function postAfter(relay: WireRelay, after: number, pick: RegExp): number | undefined {
  return relay.log.requests.find((r) => r.at >= after && pick.test(r.line))?.at;
}

/** Remote requests, one at a time, each toast clicked (which one first alternates). */
async function remoteSection(
  server: LocalServer,
  relay: WireRelay,
  pages: Page[],
  tag: string,
  n: number,
): Promise<Section> {
  const s = { ours: [] as number[], base: [] as number[], oursClick: [] as number[], baseClick: [] as number[] };
  let inFollower = 0;
  let firstToastAt = 0;
  let baseMissing = 0;
  const convs: string[] = [];
  const schedule = gaps(n, 0x2545f491 + tag.charCodeAt(0));
  for (let i = 0; i < n; i++) {
    const marker = `wb${tag}${i}x`;
    const prompt = `run: touch ${marker}.txt`;
    if (convs.length < 3) {
      const r = await server.client.control<{ data: { id: string } }>('POST', '/conversations', {
        agent_id: 'claude',
        prompt,
        title: `Bench ${tag}${i}`,
      });
      convs.push(r.data.id);
    } else {
      await server.client.control('POST', `/conversations/${convs[i % 3]}/prompts`, { prompt });
    }
    const mine = (t: string) => t.includes(marker) && !t.includes(BASELINE);
    const found = await Promise.any(
      pages.map(async (p, k) => ({ k, page: p, stamp: await waitToast(p, mine, 60_000) })),
    );
    const page = found.page;
    firstToastAt ||= found.stamp.at;
    if (found.k > 0) {
      inFollower++;
    }
    const askedOurs = await waitFor('our frame on the wire', () => relay.log.asked.get(`fountain:${marker}`));
    s.ours.push(found.stamp.at - askedOurs);
    const base = await waitToast(page, (t) => t.includes(marker) && t.includes(BASELINE), 20_000).catch(
      () => undefined,
    );
    const askedBase = relay.log.asked.get(`minimal:${marker}`);
    if (!base || askedBase === undefined) {
      // Counted in the table (`baseMissing`), never silently: the baseline's toast did not show in that window.
      baseMissing++;
      console.error(`[bench workbench] ${marker}: no baseline toast in window ${found.k + 1}`);
      await clickToast(page, marker, 'Allow', false);
      await sleep(schedule[i]);
      continue;
    }
    s.base.push(base.at - askedBase);
    const clicks = [
      [true, /^POST \/bench-baseline\/answer\//, s.baseClick],
      [false, /^POST \/api\/conversations\/[^/]+\/requests\//, s.oursClick],
    ] as const;
    // Alternate which toast is clicked first: the second click follows a toast closing.
    for (const [baseline, pick, into] of i % 2 ? [clicks[1], clicks[0]] : clicks) {
      const before = (await clicksOf(page)).length;
      await clickToast(page, marker, 'Allow', baseline);
      const click = await waitFor('the click stamp', async () => (await clicksOf(page))[before]);
      const posted = await waitFor('the answer on the wire', () => postAfter(relay, click.at, pick));
      into.push(posted - click.at);
    }
    await sleep(schedule[i]);
  }
  return { ...s, inFollower, firstToastAt, baseMissing };
}

interface AgentStamp {
  kind: 'ask' | 'answer';
  at: number;
  line: string;
}

/** A local agent's requests: Send Prompt… once per request, the toast's Reject clicked. */
async function localSection(page: Page, stampsFile: string, n: number): Promise<LocalSection> {
  const out: LocalSection = { ask: [], click: [] };
  const stamps = () =>
    (fs.existsSync(stampsFile) ? fs.readFileSync(stampsFile, 'utf8') : '')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as AgentStamp);
  const input = page.locator('.quick-input-widget input');
  await runCommand(page, 'Fountain: Start Local Agent…');
  await input.fill(AGENT);
  await page.locator('.quick-input-list .monaco-list-row', { hasText: AGENT }).first().click();
  const schedule = gaps(n, 0x1b873593);
  for (let i = 0; i < n; i++) {
    const marker = `wbl${i}x`;
    await waitFor(
      'the Send Prompt… box',
      async () => {
        await runCommand(page, 'Fountain: Send Prompt…', 90_000);
        return (await input.isVisible()) ? true : undefined;
      },
      90_000,
    );
    await input.fill(`run: curl -fsS https://example.invalid/${marker}`);
    await input.press('Enter');
    const toast = await waitToast(page, (t) => t.includes(marker), 90_000);
    const asked = await waitFor('the agent ask stamp', () =>
      stamps().find((x) => x.kind === 'ask' && x.line.includes(marker)),
    );
    out.ask.push(toast.at - asked.at);
    const answersBefore = stamps().filter((x) => x.kind === 'answer').length;
    const before = (await clicksOf(page)).length;
    await clickToast(page, marker, 'Reject', false);
    const click = await waitFor('the click stamp', async () => (await clicksOf(page))[before]);
    const answer = await waitFor(
      'the answer on the agent stdin',
      () => stamps().filter((x) => x.kind === 'answer')[answersBefore],
    );
    out.click.push(answer.at - click.at);
    await sleep(schedule[i]);
  }
  await runCommand(page, 'Fountain: Stop Agent').catch(() => undefined);
  return out;
}

/**
 * Makes `to` the focused window and `from` a window in the background. Headless Chromium gives every page the focus:
 * `document.hasFocus()` is true in both pages, with or without Playwright's focus emulation (turning it off over CDP
 * changed nothing), so VS Code told both extension hosts `focused: true` and the product's rule for a tie (the most
 * recently focused window, whose time moves with every window-state event) sent about half the toasts to the first
 * window. VS Code reads its window's focus from `document.hasFocus()` on focus and blur events; `from` is made to
 * answer false, as a background window does, and hears a blur. The caller checks what VS Code then told each
 * extension host (the hook's `windowState` facts).
 */
async function focusOnly(from: Page, to: Page): Promise<void> {
  // A string, not a function: the bundler's name helper is not defined in the page.
  await from.evaluate(
    "Object.defineProperty(document, 'hasFocus', { configurable: true, value: function () { return false; } });" +
      "window.dispatchEvent(new Event('blur'));",
  );
  await to.bringToFront();
  await to.evaluate(() => window.dispatchEvent(new Event('focus')));
}

/** The last focus VS Code reported to the extension host `pid` (the hook's `windowState` facts). */
function lastFocus(hookFile: string, pid: number): boolean | undefined {
  return facts(hookFile)
    .filter((f) => f.pid === pid && f.fact === 'windowState')
    .at(-1)?.focused;
}

async function openPage(browser: Browser, url: string): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  await stampPage(page);
  await page.goto(url, { timeout: 120_000 });
  await page.locator('.monaco-workbench').waitFor({ timeout: 90_000 });
  return page;
}

export async function workbenchBench(n: number, log: (s: string) => void): Promise<WorkbenchResult> {
  const runDir = makeRunDir('fountain-bench-wb-');
  const hookFile = path.join(runDir, 'host-hook.jsonl');
  const stampsFile = path.join(runDir, 'agent-stamps.jsonl');
  const agentWork = path.join(runDir, 'agent-work');
  fs.mkdirSync(agentWork);
  installVsix(runDir, fountainVsix(runDir));
  installVsix(runDir, minimalVsix(runDir));
  installVsix(runDir, hookVsix(runDir));
  const agent = localAgentBundle(runDir);
  let server: LocalServer | undefined;
  let relay: WireRelay | undefined;
  let cs: CodeServer | undefined;
  let browser: Browser | undefined;
  try {
    server = await startLocalServer({ scenario: 'empty', logFile: path.join(runDir, 'local-server.log') });
    relay = await startRelay(server.info.url, MARKER);
    cs = await startCodeServer({
      runDir,
      env: {
        FOUNTAIN_API_KEY: server.info.apiKey,
        FOUNTAIN_BASE_URL: relay.url,
        FOUNTAIN_BENCH_HOOK: hookFile,
      },
      userSettings: { ...QUIET_SETTINGS },
      machineSettings: {
        'fountain.serverUrl': relay.url,
        'fountain.localAgents': [
          { name: AGENT, command: process.execPath, args: [agent, stampsFile, agentWork], runtime: 'claude' },
        ],
        // The agent runs in the product's sandbox (a private /tmp): its bundle, stamps and work folder are in the run
        // folder, a writable allowPaths entry.
        'fountain.local.allowPaths': [{ pattern: `${runDir}/...`, access: 'rw' }],
      },
    });
    browser = await launchBrowser(runDir);
    const url = `${cs.url}/?folder=${encodeURIComponent(path.join(__dirname, '../../fixtures/ws'))}`;
    const first = await openPage(browser, url);
    log('workbench up; waiting for both activations');
    const r = relay;
    const activation = await waitFor('both activations', () => activationOf(hookFile, r.log), 120_000);
    log('remote requests, one window');
    const single = await remoteSection(server, relay, [first], 's', n);
    log('local agent requests');
    const local = await localSection(first, stampsFile, n);
    log('remote requests, two windows');
    const second = await openPage(browser, url);
    const secondPid = await waitFor(
      "the second window's activations",
      () =>
        facts(hookFile).find((f) => f.pid !== activation.pid && f.fact === 'activateSettled' && f.ext === 'minimal')
          ?.pid,
      180_000,
    );
    await focusOnly(first, second);
    // The user works in the second window: VS Code has told the first extension host it lost the focus, the second
    // that it has it (the second window then reports its focus to the hub, so give it a moment).
    await waitFor(
      'VS Code reporting the first window unfocused and the second focused',
      () =>
        lastFocus(hookFile, activation.pid) === false && lastFocus(hookFile, secondPid) === true ? true : undefined,
      30_000,
    );
    await sleep(3000);
    const twoFrom = wallNow();
    const two = await remoteSection(server, relay, [first, second], 't', n);
    // What VS Code reported during the section against that (counted in the table: it should be none).
    const focusAgainst = facts(hookFile).filter(
      (f) =>
        f.fact === 'windowState' &&
        (f.t ?? 0) >= twoFrom &&
        ((f.pid === activation.pid && f.focused) || (f.pid === secondPid && !f.focused)),
    ).length;
    const atActivation = loadedBy(hookFile, activation.pid, activation.fountain.settledAt);
    const byFirstToast = loadedBy(hookFile, activation.pid, single.firstToastAt);
    return { activation, single, local, two, focusAgainst, atActivation, byFirstToast, runDir };
  } finally {
    await browser?.close().catch(() => undefined);
    await cs?.stop();
    await relay?.close();
    await server?.stop();
  }
}
