/**
 * The timing hook of the workbench rows, as an extension of its own (fountain-bench.hook, activated on `*`, so before
 * the `onStartupFinished` extensions; code-server strips NODE_OPTIONS from the extension host, so a preload is not
 * possible). Loading it patches CommonJS loading (Module._extensions['.js']) in the extension host: for the two
 * extensions the bench measures (fountain-approvals and the baseline fountain-bench.minimal) it records every one of
 * their .js files that is required, with its bytes and when its loading began and ended, and for each main file when
 * `activate` was called, returned, and when the promise it returned settled. Times are performance.timeOrigin +
 * performance.now() (epoch ms with a fraction), as the relay (./wire.ts) and the page (./page.ts) stamp them. One
 * JSON line per fact in FOUNTAIN_BENCH_HOOK. The measured extension is not changed. It also records every window
 * state VS Code reports to this extension host (`windowState`: the focus the product picks the toast window by), and
 * starts the baseline extension after the extension's activation (see `activate`).
 */
import { appendFileSync, statSync } from 'node:fs';
import Module from 'node:module';
import { performance } from 'node:perf_hooks';
import * as vscode from 'vscode';

type Loader = (this: unknown, module: { exports: unknown }, filename: string) => void;
type Activate = (this: unknown, ...args: unknown[]) => unknown;

const out = process.env.FOUNTAIN_BENCH_HOOK;
const WATCH = /[\\/](fountain-approvals\.fountain-approvals|fountain-bench\.minimal)-[^\\/]+[\\/](.+\.js)$/;
const extensions = (Module as unknown as { _extensions: Record<string, Loader> })._extensions;

const now = () => performance.timeOrigin + performance.now();
const rec = (fact: Record<string, unknown>) =>
  out && appendFileSync(out, JSON.stringify({ pid: process.pid, ...fact }) + '\n');

if (out) {
  const js = extensions['.js'];
  extensions['.js'] = function (module, filename) {
    const m = WATCH.exec(filename);
    if (!m) {
      return js.call(this, module, filename);
    }
    const ext = m[1].startsWith('fountain-approvals') ? 'fountain' : 'minimal';
    const t0 = now();
    js.call(this, module, filename);
    const t1 = now();
    rec({ fact: 'load', ext, file: m[2], bytes: statSync(filename).size, t0, t1 });
    const exports = module.exports as { activate?: Activate } | undefined;
    if (typeof exports?.activate === 'function' && (m[2] === 'dist/extension.js' || ext === 'minimal')) {
      const activate = exports.activate;
      module.exports = {
        ...exports,
        activate(this: unknown, ...args: unknown[]) {
          rec({ fact: 'activateCalled', ext, t: now() });
          const r = activate.apply(this, args);
          rec({ fact: 'activateReturned', ext, t: now() });
          void Promise.resolve(r).then(
            () => {
              rec({ fact: 'activateSettled', ext, t: now() });
              fountainSettled ||= ext === 'fountain';
            },
            () => rec({ fact: 'activateSettled', ext, t: now(), failed: true }),
          );
          return r;
        },
      };
    }
  };
}

/** Whether the extension's `activate` settled in this extension host. */
let fountainSettled = false;

/**
 * Starts the baseline (`onCommand:benchMinimal.start`) once the extension's activation settled and the host was quiet
 * for 2 s, so neither activation runs inside the other's (one extension host runs both on one thread).
 */
export function activate(): void {
  // What VS Code tells this extension host about its window's focus (the product picks the toast window from it).
  rec({ fact: 'windowState', focused: vscode.window.state.focused, t: now() });
  vscode.window.onDidChangeWindowState((s) => rec({ fact: 'windowState', focused: s.focused, t: now() }));
  const timer = setInterval(() => {
    if (fountainSettled) {
      clearInterval(timer);
      setTimeout(() => void vscode.commands.executeCommand('benchMinimal.start'), 2000);
    }
  }, 50);
}
