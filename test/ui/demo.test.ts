import * as assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as readline from 'node:readline';
import type { Browser, Page } from 'playwright-core';
import { ROOT, freePort, launchBrowser, makeRunDir } from '../support/codeServer';
import { notification, openView, runCommand, screenshot, until } from './workbench';

/** Whether anything still answers HTTP at `url`. */
async function answers(url: string): Promise<boolean> {
  try {
    await fetch(url, { signal: AbortSignal.timeout(2000) });
    return true;
  } catch {
    return false;
  }
}

/** The pids of live processes whose command line names `needle` (the demo's run folder). */
function processesNaming(needle: string): number[] {
  const out: number[] = [];
  for (const pid of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'latin1');
      const state = fs.readFileSync(`/proc/${pid}/stat`, 'latin1').split(') ')[1]?.[0];
      if (cmd.includes(needle) && state !== 'Z') {
        out.push(Number(pid));
      }
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/**
 * `npm run demo` as the README's quick start runs it: its set-up, the local server with the demo scenario (scripted
 * agents plus the installed real claude-agent-acp and Gemini CLI on the scripted model, all on loopback), and
 * code-server with the freshly packaged extension. The test opens the URL the demo prints, sees the demo's
 * conversations in the tree and a request toasted, then stops it with Ctrl+C (SIGINT) and checks nothing is left.
 */
describe('UI: npm run demo, as the README starts it', function () {
  this.timeout(420_000);
  let demo: ChildProcess | undefined;
  let browser: Browser | undefined;
  let page: Page | undefined;
  const lines: string[] = [];
  const home = makeRunDir('fountain-demo-test-');
  let runDir: string | undefined;

  after(async () => {
    await browser?.close().catch(() => undefined);
    if (demo?.pid && demo.exitCode === null) {
      try {
        process.kill(-demo.pid, 'SIGKILL');
      } catch {
        // gone
      }
    }
    // A failed run may leave the demo's parts (each in its own process group) behind: end them by their folder.
    for (const pid of runDir ? processesNaming(runDir) : []) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone
      }
    }
  });

  it('prints the URL, shows the conversations and a toast, and Ctrl+C stops every process it started', async function () {
    const port = await freePort();
    const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port) };
    for (const k of Object.keys(env).filter((k) => /^npm_/i.test(k))) {
      delete env[k];
    }
    delete env.FOUNTAIN_API_KEY;
    delete env.FOUNTAIN_TOKEN;
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    demo = spawn(npm, ['run', 'demo'], { cwd: ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const log = fs.createWriteStream(path.join(home, 'demo.out'));
    demo.stderr!.pipe(log);
    readline.createInterface({ input: demo.stdout! }).on('line', (l) => {
      lines.push(l);
      log.write(l + '\n');
    });
    const exited = new Promise<string>((resolve) =>
      demo!.once('exit', (code, signal) => resolve(signal ?? `exit ${code}`)),
    );

    const open = await until(
      'the demo to print the URL to open',
      () => {
        assert.equal(demo!.exitCode, null, `the demo exited early:\n${lines.join('\n')}`);
        return lines.map((l) => /^Open (http:\/\/127\.0\.0\.1:\d+\/\S*)/.exec(l)?.[1]).find(Boolean);
      },
      300_000,
    );
    assert.ok(open.startsWith(`http://127.0.0.1:${port}/`), `the demo used PORT=${port}: ${open}`);
    const serverUrl = lines.map((l) => /local Fountain server at (http:\/\/\S+)/.exec(l)?.[1]).find(Boolean);
    assert.ok(serverUrl, `the demo names its local server:\n${lines.join('\n')}`);
    runDir = lines.map((l) => /\(logs in (\S+);/.exec(l)?.[1]).find(Boolean);
    assert.ok(runDir, 'the demo names its log folder');
    assert.ok(
      lines.some((l) => l.includes('Claude Code on the scripted model (demo)')),
      'the demo offers its local agent',
    );

    browser = await launchBrowser(home);
    page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    try {
      await page.goto(open);
      await page.locator('.monaco-workbench').waitFor({ timeout: 90_000 });
      await openView(page);
      const tree = page.locator('.pane-body .monaco-list-row');
      // Scripted conversations at once, a scripted edit after 8 s, the real agents once their models asked.
      for (const title of ['Nightly release', 'Fix the flaky test', 'Tidy the README', 'Real Claude adapter']) {
        await tree.filter({ hasText: title }).first().waitFor({ timeout: 120_000 });
      }
      // The real Gemini CLI, on the scripted Gemini API, asks to write its file.
      await tree.filter({ hasText: 'Real Gemini CLI' }).first().waitFor({ timeout: 150_000 });
      // Its requests were toasted: a toast may have hidden itself by now, so look in the notification centre too.
      await runCommand(page, 'Notifications: Show Notifications');
      await notification(
        page,
        /npm test -- --grep flaky|git push --force|rm -rf build dist|approvals? waiting/,
      ).waitFor({
        timeout: 60_000,
      });
    } catch (err) {
      await screenshot(page, path.join(home, 'failure-demo.png')).catch(() => undefined);
      console.log(`demo test: screenshot and output in ${home}; demo logs in ${runDir}`);
      throw err;
    }
    await browser.close();
    browser = undefined;

    const folder = runDir;
    assert.ok(processesNaming(folder).length > 0, 'code-server runs from the demo folder while the demo runs');
    // Ctrl+C in the terminal: SIGINT to the foreground process group (npm, its shell, the demo).
    process.kill(-demo.pid!, 'SIGINT');
    const code = await Promise.race([exited, new Promise<'hung'>((r) => setTimeout(() => r('hung'), 60_000))]);
    assert.notEqual(code, 'hung', 'the demo did not stop within 60 s of Ctrl+C');
    // npm itself ends by the signal, as in a terminal; the demo under it exits 0 after stopping its parts.
    assert.ok(['SIGINT', 'exit 0'].includes(code), `the demo ended with ${code}:\n${lines.join('\n')}`);
    assert.ok(
      lines.some((l) => l.includes('demo: stopping')),
      'the demo said it was stopping',
    );
    await until('code-server and the local server to close their ports', async () =>
      !(await answers(open)) && !(await answers(`${serverUrl}/healthz`)) ? true : undefined,
    );
    await until('no process of the demo folder to remain', () =>
      processesNaming(folder).length === 0 ? true : undefined,
    );
  });
});
