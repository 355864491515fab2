/**
 * The macOS `sandbox-exec` profile (SBPL) of a {@link SandboxPlan}: pure, unit-tested only (this project cannot run
 * macOS; the README says so). SBPL takes the last rule that matches, so the profile is written in the plan's order:
 * everything allowed, then no writes anywhere, then each layer shallowest first (an emptied home denies reads and
 * writes under it, a mount allows reads and, when writable, writes), then the protected workspace files (no
 * writes), then the hidden paths (no reads, no writes) last. macOS has no private `/tmp` or PID namespace: the
 * temporary folders are writable as they are, and the process tree is ended by its group as without a sandbox.
 */
import type { SandboxPlan } from './plan';

/** An SBPL string literal; undefined for a path SBPL cannot hold safely (control characters). */
export function sbplString(path: string): string | undefined {
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(path)) {
    return undefined;
  }
  return `"${path.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/** Thrown when a path of the plan cannot be written into a profile. */
export class SeatbeltPathError extends Error {
  constructor(readonly path: string) {
    super(`cannot write ${JSON.stringify(path)} into a sandbox profile`);
    this.name = 'SeatbeltPathError';
  }
}

const sub = (p: string) => {
  const s = sbplString(p);
  if (s === undefined) {
    throw new SeatbeltPathError(p);
  }
  return `(subpath ${s})`;
};
const lit = (p: string) => `(literal ${sbplString(p) ?? ''})`;

function ancestors(p: string): string[] {
  const out: string[] = [];
  let cur = p;
  while (cur !== '/' && cur.includes('/')) {
    cur = cur.slice(0, cur.lastIndexOf('/')) || '/';
    out.push(cur);
  }
  return out;
}

/** The profile for `sandbox-exec -p <profile> <command> <args…>`. */
export function seatbeltProfile(plan: SandboxPlan): string {
  const lines = [
    '(version 1)',
    '(allow default)',
    '(deny file-write*)',
    `(allow file-write* ${['/dev/null', '/dev/zero', '/dev/tty', '/dev/dtracehelper'].map(lit).join(' ')} (regex #"^/dev/fd/") (regex #"^/dev/ttys[0-9]+$"))`,
  ];
  const reachable = new Set<string>();
  for (const l of plan.layers) {
    switch (l.type) {
      case 'mount': {
        if (l.at === '/' && l.access === 'ro') {
          break; // the default above
        }
        const where = [...new Set([l.at, l.src])].map(sub).join(' ');
        lines.push(
          l.access === 'rw'
            ? `(allow file-read* file-write* ${where})`
            : `(allow file-read* ${where})\n(deny file-write* ${where})`,
        );
        [l.at, l.src].forEach((p) => ancestors(p).forEach((a) => reachable.add(a)));
        break;
      }
      case 'empty':
        lines.push(`(deny file-read* file-write* ${sub(l.at)})`);
        break;
      case 'tmp':
        lines.push(`(allow file-read* file-write* ${sub(l.at)})`);
        break;
      default:
        break; // /dev and /proc are the system's own on macOS
    }
  }
  if (reachable.size) {
    // The folders above a mount: stat and getcwd work, their listings stay closed.
    lines.push(`(allow file-read-metadata ${[...reachable].sort().map(lit).join(' ')})`);
  }
  if (plan.hidden.length || plan.hiddenPatterns.length) {
    const all = [...new Set([...plan.hiddenPatterns, ...plan.hidden.map((h) => h.path)])];
    lines.push(`(deny file-read* file-write* ${all.map(sub).join(' ')})`);
  }
  return lines.join('\n') + '\n';
}
