/**
 * A stand-in `vscode` module for the bench's child processes that run src/ui code in plain Node (the tree and heap
 * rows): the classes the tree provider builds (TreeItem, ThemeIcon, ThemeColor, EventEmitter, Disposable) as plain
 * objects, `l10n.t`, a tree view that records its badge, and a no-op for anything else. VS Code's own work behind
 * these calls (IPC to the workbench, drawing) is not counted. Lazily loaded bundles (src/ui/lazyBundle.ts) are files
 * beside dist/extension.js; run from the sources, each maps to its esbuild entry (esbuild.mjs).
 */
import Module from 'node:module';

function anything(): unknown {
  const target = function () {};
  return new Proxy(target, {
    get: (_t, p) =>
      p === 'then' ? undefined : p === Symbol.toPrimitive ? () => '' : p === 'dispose' ? () => undefined : anything(),
    apply: () => anything(),
    construct: () => anything() as object,
  });
}

const noEvent = () => ({ dispose() {} });

class EventEmitter<T> {
  private readonly listeners = new Set<(e: T) => void>();
  readonly event = (l: (e: T) => void) => {
    this.listeners.add(l);
    return { dispose: () => this.listeners.delete(l) };
  };
  fire(e: T): void {
    for (const l of [...this.listeners]) {
      l(e);
    }
  }
  dispose(): void {
    this.listeners.clear();
  }
}

class Disposable {
  constructor(private readonly fn?: () => void) {}
  dispose(): void {
    this.fn?.();
  }
  static from(...d: Array<{ dispose(): void }>): Disposable {
    return new Disposable(() => d.forEach((x) => x.dispose()));
  }
}

class TreeItem {
  description?: string;
  tooltip?: unknown;
  contextValue?: string;
  iconPath?: unknown;
  id?: string;
  constructor(
    public label: unknown,
    public collapsibleState = 0,
  ) {}
}

class ThemeIcon {
  constructor(
    public id: string,
    public color?: unknown,
  ) {}
}

class ThemeColor {
  constructor(public id: string) {}
}

class MarkdownString {
  constructor(public value = '') {}
  appendText(s: string): this {
    this.value += s;
    return this;
  }
  appendMarkdown(s: string): this {
    this.value += s;
    return this;
  }
}

const l10n = { t: (s: string, ...a: unknown[]) => s.replace(/\{(\d+)\}/g, (_m, i: string) => String(a[Number(i)])) };

const treeView = () => ({
  badge: undefined as unknown,
  message: undefined as unknown,
  title: undefined as unknown,
  description: undefined as unknown,
  visible: true,
  selection: [],
  onDidChangeSelection: noEvent,
  onDidChangeVisibility: noEvent,
  onDidExpandElement: noEvent,
  onDidCollapseElement: noEvent,
  onDidChangeCheckboxState: noEvent,
  reveal: async () => undefined,
  dispose: () => undefined,
});

const stub: Record<string, unknown> = {
  EventEmitter,
  Disposable,
  TreeItem,
  ThemeIcon,
  ThemeColor,
  MarkdownString,
  TreeItemCollapsibleState: { None: 0, Collapsed: 1, Expanded: 2 },
  l10n,
  env: { language: 'en' },
  window: new Proxy<Record<string, unknown>>(
    { createTreeView: treeView, state: { focused: true }, onDidChangeWindowState: noEvent },
    { get: (t, p: string) => (p in t ? t[p] : anything()) },
  ),
  commands: anything(),
  workspace: anything(),
};

/** Lazily loaded bundles and their sources (run from the sources with tsx); a bundled child includes them. */
const LAZY_SOURCES: Record<string, string> = {
  'details.js': '../../src/ui/details/detailsDocument.ts',
  'danger.js': '../../src/ui/danger/dangerModal.ts',
};

/** Puts the stand-in in place; call before requiring any src/ui module. */
export function installStandInVscode(): void {
  type Resolve = (request: string, ...rest: unknown[]) => string;
  const mod = Module as unknown as { _resolveFilename: Resolve };
  const realResolve = mod._resolveFilename;
  mod._resolveFilename = function (this: unknown, request: string, ...rest: unknown[]) {
    if (request === 'vscode') {
      return 'vscode';
    }
    const lazy = /[\\/]src[\\/]ui[\\/](\w+\.js)$/.exec(request)?.[1];
    return lazy && LAZY_SOURCES[lazy] ? require.resolve(LAZY_SOURCES[lazy]) : realResolve.call(this, request, ...rest);
  };
  require.cache.vscode = { id: 'vscode', filename: 'vscode', loaded: true, exports: stub } as NodeJS.Module;
}
