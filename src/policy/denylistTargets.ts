/** What the denylist (denylist.ts) counts as catastrophic targets and devices, and how it spots a fork bomb. */

/** Top-level system directories whose recursive removal (or re-permissioning) wrecks the machine. */
export const SYSTEM_DIRS = new Set([
  '/bin',
  '/boot',
  '/dev',
  '/etc',
  '/home',
  '/lib',
  '/lib32',
  '/lib64',
  '/opt',
  '/proc',
  '/root',
  '/sbin',
  '/srv',
  '/sys',
  '/usr',
  '/var',
  '/System',
  '/Users',
  '/Library',
  '/Applications',
]);
/** Block devices (disks, partitions): /dev/sda, /dev/nvme0n1p1, /dev/mmcblk0, /dev/disk2, /dev/mapper/x, … */
export const DEVICE = /^\/dev\/(?:sd|hd|vd|xvd|nvme|mmcblk|disk|rdisk|md|dm-|mapper\/|loop|nbd|sr)[^\s]*/;

/** An absolute or home-relative path with `.`, `..`, repeated and trailing slashes and trailing `*` resolved. */
export function normalise(target: string): string | undefined {
  const t = target.replace(/^(?:\$\{HOME\}|\$HOME)(?=\/|$)/, '~').replace(/^~[A-Za-z0-9_.-]*(?=\/|$)/, '~');
  const home = t.startsWith('~');
  if (!home && !t.startsWith('/')) {
    return undefined;
  }
  const segs: string[] = [];
  for (const seg of t.slice(home ? 1 : 0).split('/')) {
    if (seg === '' || seg === '.') {
      continue;
    }
    if (seg === '..') {
      if (segs.length > 0) {
        segs.pop();
      } else if (home) {
        return '~/..';
      }
      continue;
    }
    segs.push(seg);
  }
  // `/*`, `~/*`, `/usr/**`: the directory's whole content.
  while (segs.length > 0 && /^\*+$/.test(segs[segs.length - 1])) {
    segs.pop();
  }
  return (home ? '~' : '') + (segs.length > 0 || !home ? '/' : '') + segs.join('/');
}

const NAME_CHAR = /[A-Za-z0-9_:.-]/;

/**
 * `:(){ :|:& };:`, `bomb(){ bomb|bomb& };bomb`, `function f { f|f& }`: a function whose body pipes itself into
 * itself in the background. Read from the raw text (the lexer refuses function definitions), in linear time.
 */
export function isForkBomb(raw: string): boolean {
  let close = -1;
  for (let open = raw.indexOf('{'); open >= 0; open = raw.indexOf('{', open + 1)) {
    if (close < open) {
      close = raw.indexOf('}', open);
      if (close < 0) {
        return false;
      }
    }
    // Walk back over `()` and blanks to the function's name.
    let j = open - 1;
    while (j >= 0 && /\s/.test(raw[j])) {
      j--;
    }
    if (raw[j] === ')') {
      j--;
      while (j >= 0 && /\s/.test(raw[j])) {
        j--;
      }
      if (raw[j] !== '(') {
        continue;
      }
      j--;
      while (j >= 0 && /\s/.test(raw[j])) {
        j--;
      }
    }
    let k = j;
    while (k >= 0 && j - k < 64 && NAME_CHAR.test(raw[k])) {
      k--;
    }
    const name = raw.slice(k + 1, j + 1);
    if (name === '') {
      continue;
    }
    const body = raw.slice(open + 1, Math.min(close, open + 160)).replace(/\s+/g, '');
    if (body.includes(`${name}|${name}&`) || body.includes(`${name}|&${name}&`)) {
      return true;
    }
  }
  return false;
}
