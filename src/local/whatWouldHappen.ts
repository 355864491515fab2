/**
 * "What would happen": the gate's verdict, rule and reason for a typed command or path in a session's current state,
 * without asking anything or changing anything. Pure (no vscode, no file system).
 * - `read <path>` / `write <path>`: that access to that path (relative paths against the session cwd);
 * - a text starting with `/`, `./` or `../`: both a read and a write of that path;
 * - anything else: the command line, as an `execute` request.
 */
import { normalisePath, type GateDecision, type GateRequest } from '../policy';
import { decideSafely, type GateSnapshot } from './gate';

export interface WouldHappen {
  /** What was probed, in words: `run "git status"`, `read /etc/hosts`. */
  readonly probe: string;
  readonly request: GateRequest;
  readonly decision: GateDecision;
}

function absolute(path: string, cwd: string | undefined): string {
  const abs = path.startsWith('/') || cwd === undefined ? path : `${cwd.replace(/\/+$/, '')}/${path}`;
  return normalisePath(abs) ?? abs;
}

/** The requests a typed text stands for (see the file comment). */
export function probeRequests(text: string, cwd?: string): { probe: string; request: GateRequest }[] {
  const t = typeof text === 'string' ? text.trim() : '';
  if (t === '') {
    return [];
  }
  const m = /^(read|write)\s+(\S.*)$/s.exec(t);
  const pathOf = (p: string) => absolute(p, cwd);
  if (m) {
    const access = m[1] as 'read' | 'write';
    const path = pathOf(m[2].trim());
    return [{ probe: `${access} ${path}`, request: fileRequest(path, access) }];
  }
  if (/^(\/|\.\/|\.\.\/)/.test(t)) {
    const path = pathOf(t);
    return (['read', 'write'] as const).map((access) => ({
      probe: `${access} ${path}`,
      request: fileRequest(path, access),
    }));
  }
  return [
    {
      probe: `run ${JSON.stringify(t)}`,
      request: { kind: 'execute', title: t, command: t, ...(cwd?.startsWith('/') ? { cwd } : {}) },
    },
  ];
}

function fileRequest(path: string, access: 'read' | 'write'): GateRequest {
  return { kind: access === 'read' ? 'read' : 'edit', title: `${access} ${path}`, paths: [{ path, access }] };
}

/** The gate's decision for each request `text` stands for, in `snapshot` (a session's `LocalGate.snapshot()`). */
export function whatWouldHappen(text: string, snapshot: GateSnapshot, cwd?: string): WouldHappen[] {
  return probeRequests(text, cwd).map(({ probe, request }) => ({
    probe,
    request,
    decision: decideSafely({ ...snapshot, request }),
  }));
}
