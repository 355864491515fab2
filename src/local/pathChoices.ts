/**
 * The folder a path-scope ask can become a grant for (issue 27): when the gate asked because a path lies outside the
 * scope (placed, links resolved: `outside` on its decision), the folder that real path is in, for the access the
 * request needs there (read or write). The grant covers that folder and what is under it, segment-wise, and
 * nothing past it; it is never offered for `/` or a folder directly under it (`/etc`, `/usr`, `/opt`: too wide to
 * name in a click), a home directory or a folder above one, nor for a folder that is or
 * holds a path no sandboxed agent may see (src/local/sandbox/paths.ts: keys, tokens, browser profiles, editor
 * storage, sockets), so a grant cannot make those readable unasked. Protected files and the denylist are decided
 * before the scope, so no grant reaches them.
 *
 * The sandbox is built once, at the agent's start, from `fountain.local.allowPaths`: a session grant changes what the
 * gate allows, not what the sandbox lets the agent see. `sandboxSees` says whether the running sandbox already gives
 * the access (the system outside homes and temporary folders is visible read-only); when it does not, the session
 * grant is not offered (the agent's call would fail inside), and the "always" entry takes effect in the sandbox at
 * the agent's next start.
 */
import {
  decide,
  isInside,
  normalisePath,
  type Access,
  type AllowPath,
  type GateInput,
  type GateRequest,
} from '../policy';
import { HIDDEN_HOME, HIDDEN_SYSTEM } from './sandbox/paths';
import { sandboxView, type SandboxScope } from './sandbox/scope';

export interface FolderOffer {
  /** The folder (absolute, real, normalised). */
  readonly dir: string;
  readonly access: Access;
  /** False when the session's sandbox would refuse the access (the session grant is then not offered). */
  readonly sandboxSees: boolean;
}

const parentOf = (p: string): string => normalisePath(`${p}/..`) ?? '/';

/** Every path never to be granted by folder: the hidden secrets under the home, the system's sockets, the sandbox's. */
function hiddenPaths(home: string | undefined, sandbox: SandboxScope | undefined): string[] {
  const h = home !== undefined ? normalisePath(home) : undefined;
  return [
    ...(h !== undefined && h !== '/' ? HIDDEN_HOME.map((rel) => `${h}/${rel}`) : []),
    ...HIDDEN_SYSTEM,
    ...(sandbox?.hiddenPatterns ?? []),
  ];
}

/** Whether `dir` may be offered at all (see the file comment). */
export function folderGrantable(dir: string, home: string | undefined, sandbox?: SandboxScope): boolean {
  if (normalisePath(dir) !== dir || dir.split('/').length < 3) {
    return false; // `/` and `/etc`: too wide
  }
  const homes = [home, sandbox?.home].filter((x): x is string => typeof x === 'string' && x.startsWith('/'));
  if (homes.some((h) => isInside(h, dir))) {
    return false; // the home itself or a folder above it
  }
  return !hiddenPaths(home, sandbox).some((x) => isInside(dir, x) || isInside(x, dir));
}

/** Whether the sandbox already gives `access` in `dir` (no sandbox: true). */
function sees(sandbox: SandboxScope | undefined, dir: string, access: Access): boolean {
  if (sandbox === undefined) {
    return true;
  }
  const view = sandboxView(sandbox, dir);
  return access === 'r' ? view === 'ro' || view === 'rw' : view === 'rw';
}

/**
 * The folder grant the gate's path-scope ask about `request` could become, or undefined (not a path-scope ask about
 * a placed path outside the scope, or a folder never offered), for the access asked about; whether the grant then
 * allows the whole request is left to the caller (it asks the gate again with the grant in place: a write grant in
 * mode ask still leaves the edit to you, so it is not offered there).
 */
export function folderOffer(
  input: Omit<GateInput, 'request'>,
  request: GateRequest,
  sandbox?: SandboxScope,
): FolderOffer | undefined {
  const first = decide({ ...input, request });
  if (first.verdict !== 'ask' || first.rule !== 'path-scope' || first.outside !== true) {
    return undefined;
  }
  if (first.path === undefined || first.access === undefined) {
    return undefined;
  }
  const dir = parentOf(first.path);
  if (!folderGrantable(dir, input.home, sandbox)) {
    return undefined;
  }
  const access: Access = first.access === 'read' ? 'r' : 'w';
  return { dir, access, sandboxSees: sees(sandbox, dir, access) };
}

/** The allowPaths entry an "always" for a folder writes: the folder and everything under it, with its access. */
export function folderEntry(offer: Pick<FolderOffer, 'dir' | 'access'>): AllowPath {
  return { pattern: `${offer.dir}/...`, access: offer.access };
}
