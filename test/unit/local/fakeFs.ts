// A fake file system for the sandbox planner's pure parts (plan.ts, programMounts.ts).
import type { PathFacts, PathKind } from '../../../src/local/sandbox';

/** A folder, a file (with text when its first line matters), something else, or a symlink (absolute or relative). */
export type Entry = PathKind | { readonly link: string } | { readonly text: string };

const parentOf = (p: string) => p.slice(0, p.lastIndexOf('/')) || '/';

/** A file system of `entries` (folders above an entry exist too); links are resolved segment by segment. */
export function fakeFs(entries: Record<string, Entry>): PathFacts {
  const real = (p: string, hops = 0): string | undefined => {
    if (hops > 40) {
      return undefined;
    }
    const segs = p.split('/').filter(Boolean);
    let cur = '';
    for (let i = 0; i < segs.length; i++) {
      if (segs[i] === '..') {
        cur = parentOf(cur || '/');
        cur = cur === '/' ? '' : cur;
        continue;
      }
      cur = `${cur}/${segs[i]}`;
      const e = entries[cur];
      if (e && typeof e === 'object' && 'link' in e) {
        const target = e.link.startsWith('/') ? e.link : `${parentOf(cur)}/${e.link}`;
        return real([target, ...segs.slice(i + 1)].join('/'), hops + 1);
      }
    }
    const path = cur || '/';
    const exists = path === '/' || path in entries || Object.keys(entries).some((k) => k.startsWith(path + '/'));
    return exists ? path : undefined;
  };
  const kind = (p: string): PathKind | undefined => {
    const r = real(p);
    if (r === undefined) {
      return undefined;
    }
    const e = entries[r];
    return typeof e === 'string' ? e : e && 'text' in e ? 'file' : 'dir';
  };
  return {
    real: (p) => real(p),
    kind,
    link(p) {
      const dir = real(parentOf(p));
      const e = dir === undefined ? undefined : entries[`${dir === '/' ? '' : dir}/${p.slice(p.lastIndexOf('/') + 1)}`];
      return e && typeof e === 'object' && 'link' in e ? e.link : undefined;
    },
    list(p) {
      const r = real(p);
      if (r === undefined || kind(r) !== 'dir') {
        return undefined;
      }
      const prefix = r === '/' ? '/' : `${r}/`;
      const names = Object.keys(entries)
        .filter((k) => k.startsWith(prefix))
        .map((k) => k.slice(prefix.length).split('/')[0]);
      return [...new Set(names)];
    },
    firstLine(p) {
      const r = real(p);
      const e = r === undefined ? undefined : entries[r];
      return e && typeof e === 'object' && 'text' in e ? e.text.split('\n')[0] : undefined;
    },
  };
}
