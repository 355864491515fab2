// One activation, in a fresh Node process: loads the production bundle (dist/extension.js) against a stand-in
// `vscode` module and times (1) require() of the bundle and (2) activate() until its first network request (the
// account-wide stream). The stand-in answers every API the extension calls at start-up with cheap objects; what real
// VS Code spends inside those calls (IPC to the main thread) is not counted. Prints one JSON line.
import Module, { createRequire } from 'node:module';
// The extension host has node:net loaded before any extension starts (its IPC with the workbench runs over a socket),
// so loading it is not this extension's cost: the window hub's socket uses it.
import 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';

const require = createRequire(import.meta.url);

const [bundle, serverUrl] = process.argv.slice(2);

/** Any property, call or construction works and returns another such object; awaiting one resolves to undefined. */
function anything() {
  const target = function () {};
  return new Proxy(target, {
    get: (_t, p) =>
      p === 'then' ? undefined : p === Symbol.toPrimitive ? () => '' : p === 'dispose' ? () => undefined : anything(),
    set: () => true,
    defineProperty: () => true,
    apply: () => anything(),
    construct: () => anything(),
  });
}

class EventEmitter {
  constructor() {
    this.listeners = new Set();
    this.event = (l) => {
      this.listeners.add(l);
      return { dispose: () => this.listeners.delete(l) };
    };
  }
  fire(e) {
    for (const l of [...this.listeners]) l(e);
  }
  dispose() {
    this.listeners.clear();
  }
}
class Disposable {
  constructor(fn) {
    this.fn = fn;
  }
  dispose() {
    this.fn?.();
  }
  static from(...d) {
    return new Disposable(() => d.forEach((x) => x.dispose()));
  }
}
const noEvent = () => ({ dispose() {} });
const settings = { serverUrl, allowInsecureHttp: false, notifications: 'all' };
const workspace = new Proxy(
  {
    getConfiguration: () => ({ get: (k, d) => (k in settings ? settings[k] : d), inspect: () => undefined }),
    onDidChangeConfiguration: noEvent,
    onDidCloseTextDocument: noEvent,
  },
  { get: (t, p) => (p in t ? t[p] : anything()) },
);
// Plain own keys: the bundle copies the module's own properties (esbuild's __toESM).
const vscode = {
  EventEmitter,
  Disposable,
  ExtensionMode: { Production: 1, Development: 2, Test: 3 },
  l10n: { t: (s, ...a) => String(s).replace(/\{(\d+)\}/g, (_m, i) => String(a[Number(i)])) },
  env: { language: 'en' },
  workspace,
};
for (const name of [
  'window',
  'commands',
  'authentication',
  'languages',
  'extensions',
  'Uri',
  'TreeItem',
  'ThemeIcon',
  'ThemeColor',
  'TreeItemCollapsibleState',
  'QuickPickItemKind',
  'StatusBarAlignment',
  'ProgressLocation',
  'MarkdownString',
  'ConfigurationTarget',
  'TreeItemLabel',
]) {
  vscode[name] = anything();
}

const realResolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  return request === 'vscode' ? 'vscode' : realResolve.call(this, request, ...rest);
};
require.cache.vscode = { id: 'vscode', filename: 'vscode', loaded: true, exports: vscode };

let firstFetchAt;
let resolveFirst;
const first = new Promise((r) => (resolveFirst = r));
globalThis.fetch = (url) => {
  if (firstFetchAt === undefined) {
    firstFetchAt = performance.now();
    resolveFirst(String(url));
  }
  return new Promise(() => undefined); // the stream never answers: nothing after the first attempt is timed
};

const memento = { get: (_k, d) => d, update: async () => undefined, keys: () => [] };
const context = {
  subscriptions: [],
  secrets: {
    get: async (k) => (k.startsWith('fountain.apiKey:') ? 'ftn_bench_key' : undefined),
    store: async () => undefined,
    delete: async () => undefined,
    onDidChange: noEvent,
  },
  globalState: memento,
  workspaceState: memento,
  globalStorageUri: { fsPath: path.join(os.tmpdir(), 'fountain-bench-storage') },
  // The sandbox hides the extension's own folders from local agents, read at activation.
  logUri: { fsPath: path.join(os.tmpdir(), 'fountain-bench-logs') },
  extensionMode: 1,
  extension: { packageJSON: { version: 'bench' } },
};

// Baseline in the same process: require() of one small dependency (the module loader's own cost).
const b0 = performance.now();
require('eventsource-parser');
const baselineMs = performance.now() - b0;

const t0 = performance.now();
const ext = require(path.resolve(bundle));
const t1 = performance.now();
void ext.activate(context);
first.then((url) => {
  process.stdout.write(JSON.stringify({ baselineMs, loadMs: t1 - t0, activateMs: firstFetchAt - t1, url }) + '\n');
  process.exit(0);
});
setTimeout(() => {
  process.stdout.write(JSON.stringify({ error: 'no connection attempt within 10 s' }) + '\n');
  process.exit(1);
}, 10_000).unref();
