/**
 * The sandbox as a path scope: what a path looks like from inside (writable, read-only, absent), read off the same
 * layers the sandbox is built from, and the sentence a request gets when what it asks for lies outside ("outside
 * the sandbox: it will fail unless you add … to fountain.local.allowPaths and restart the agent"). Pure.
 */
import { isInside, normalisePath } from '../../policy';
import type { Layer, SandboxPlan } from './plan';

/** What the agent finds at a path: `rw`, `ro`, `private` (its own empty `/tmp`), or `absent` (emptied or hidden). */
export type SandboxView = 'rw' | 'ro' | 'private' | 'absent';

/** What {@link sandboxView} needs of a plan (what a session keeps). */
export type SandboxScope = Pick<SandboxPlan, 'layers' | 'hiddenPatterns' | 'home'>;

const depth = (p: string) => (p === '/' ? 0 : p.split('/').length - 1);

export function sandboxView(scope: SandboxScope, path: string): SandboxView {
  const p = normalisePath(path);
  if (p === undefined) {
    return 'absent';
  }
  if (scope.hiddenPatterns.some((h) => isInside(p, h))) {
    return 'absent';
  }
  let top: Layer | undefined;
  for (const l of scope.layers) {
    if (isInside(p, l.at) && (!top || depth(l.at) >= depth(top.at))) {
      top = l;
    }
  }
  switch (top?.type) {
    case 'mount':
      return top.access;
    case 'tmp':
      return 'private';
    case 'empty':
    case undefined:
      return 'absent';
    default:
      return 'rw'; // /dev, /proc
  }
}

/** `~/x` for a path in the agent's home, else the path. */
export function homeShort(scope: Pick<SandboxScope, 'home'>, path: string): string {
  return scope.home !== '/' && isInside(path, scope.home) ? `~${path.slice(scope.home.length)}` : path;
}

export interface OutsideSandbox {
  readonly path: string;
  readonly access: 'read' | 'write';
  /** Whether an allowPaths entry can make it work (false: a hidden path, never visible). */
  readonly fixable: boolean;
  /** One sentence for the toast and the details. */
  readonly sentence: string;
}

/**
 * The first path of a request that the sandbox would refuse (read of an absent path, write of a read-only or absent
 * one), with what to do about it; undefined when every path works inside.
 */
export function outsideSandbox(
  scope: SandboxScope,
  paths: readonly { readonly path: string; readonly access: 'read' | 'write' }[],
): OutsideSandbox | undefined {
  for (const { path, access } of paths) {
    const p = normalisePath(path);
    if (p === undefined) {
      continue;
    }
    const view = sandboxView(scope, p);
    const fails = view === 'absent' || (access === 'write' && view === 'ro');
    if (!fails) {
      continue;
    }
    const shown = homeShort(scope, p);
    if (scope.hiddenPatterns.some((h) => isInside(p, h))) {
      return {
        path: p,
        access,
        fixable: false,
        sentence: `outside the sandbox: \`${shown}\` is never visible to a sandboxed agent, so this will fail`,
      };
    }
    const isProtected =
      view === 'ro' && scope.layers.some((l) => l.type === 'mount' && l.why === 'protected' && isInside(p, l.at));
    if (isProtected) {
      return {
        path: p,
        access,
        fixable: false,
        sentence: `outside the sandbox: \`${shown}\` is read-only there (it can make later commands run code), so this will fail`,
      };
    }
    const entry = JSON.stringify({ pattern: p, access: access === 'write' ? 'rw' : 'r' });
    return {
      path: p,
      access,
      fixable: true,
      sentence: `outside the sandbox: it will fail unless you add \`${shown}\` to fountain.local.allowPaths (${entry}) and restart the agent`,
    };
  }
  return undefined;
}
