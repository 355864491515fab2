/**
 * Sandbox reads (full-scope key): `GET /api/sandboxes/{id}/files`, `/file`, `/diff`, `/git-status`. The sandbox is
 * the conversation's working directory; its knob (../sandboxes.ts) says whether it is ready. Errors as Fountain
 * answers them: 409 `sandbox_not_ready`; 503 `sandbox_unavailable` with Retry-After; 422 `path_outside_sandbox`,
 * `not_a_repository`, `invalid_ref`; 404 `ref_not_found` (and `not_found` for an unknown sandbox or file). A parked
 * sandbox answers from its snapshot: `snapshot_at` is its time (null while the sandbox is live).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import type { ServerContext } from '../context';
import { invalid, notFound, type HttpResult } from '../http';
import type { Route, RouteCtx } from '../router';
import { insideSandbox, type SandboxKnob } from '../sandboxes';
import type { ConversationRec } from '../store';
import { apiRoute, truthy } from './api';

const DEFAULT_MAX_BYTES = 1_000_000;

const error = (status: number, code: string, message: string, headers?: Record<string, string>): HttpResult => ({
  status,
  body: { error: code, message },
  ...(headers ? { headers } : {}),
});

/** The conversation whose sandbox this is, for this user; or the answer that stops the read. */
function sandboxOf(s: ServerContext, ctx: RouteCtx): { c: ConversationRec; k: SandboxKnob } | HttpResult {
  const id = decodeURIComponent(ctx.params[0]).toLowerCase();
  const c = [...s.store.conversations.values()].find((x) => x.sandbox_id === id && x.user_id === ctx.auth?.user.id);
  if (!c) {
    return notFound;
  }
  const k = s.sandboxes.of(c.sandbox_id);
  if (k.state === 'not_ready') {
    return error(409, 'sandbox_not_ready', 'The sandbox is not ready yet');
  }
  if (k.state === 'unavailable') {
    return error(503, 'sandbox_unavailable', 'The sandbox is unavailable', { 'retry-after': String(k.retryAfter) });
  }
  return { c, k };
}

const snapshotAt = (k: SandboxKnob) => (k.state === 'parked' ? k.snapshotAt : null);

function maxBytes(url: URL): number | HttpResult {
  const v = url.searchParams.get('max_bytes');
  if (v === null) {
    return DEFAULT_MAX_BYTES;
  }
  const n = Number(v);
  return Number.isInteger(n) && n > 0 ? n : invalid('max_bytes', 'must be a positive integer');
}

/** The `path` query as an absolute path inside the sandbox, or the 422 that refuses it. */
function pathParam(c: ConversationRec, url: URL, required: boolean): string | undefined | HttpResult {
  const p = url.searchParams.get('path');
  if (p === null || p === '') {
    return required ? invalid('path', "can't be blank") : undefined;
  }
  return insideSandbox(c.cwd, p) ?? error(422, 'path_outside_sandbox', 'The path is outside the sandbox');
}

const isResult = (v: unknown): v is HttpResult => typeof v === 'object' && v !== null && 'status' in v;

function file(s: ServerContext, ctx: RouteCtx): HttpResult {
  const sb = sandboxOf(s, ctx);
  if (isResult(sb)) {
    return sb;
  }
  const p = pathParam(sb.c, ctx.url, true);
  const max = maxBytes(ctx.url);
  if (isResult(p) || isResult(max)) {
    return isResult(p) ? p : (max as HttpResult);
  }
  let bytes: Buffer;
  try {
    bytes = readFileSync(p!);
  } catch {
    return error(404, 'not_found', 'No such file in the sandbox');
  }
  const truncated = bytes.length > max;
  return {
    status: 200,
    body: {
      data: {
        path: ctx.url.searchParams.get('path'),
        size: bytes.length,
        truncated,
        content: bytes.subarray(0, max).toString('utf8'),
        snapshot_at: snapshotAt(sb.k),
      },
    },
  };
}

function files(s: ServerContext, ctx: RouteCtx): HttpResult {
  const sb = sandboxOf(s, ctx);
  if (isResult(sb)) {
    return sb;
  }
  const p = pathParam(sb.c, ctx.url, false);
  if (isResult(p)) {
    return p;
  }
  const dir = p ?? sb.c.cwd;
  try {
    const entries = readdirSync(dir, { withFileTypes: true }).map((e) => ({
      name: e.name,
      type: e.isDirectory() ? 'directory' : 'file',
      size: e.isDirectory() ? null : statSync(`${dir}/${e.name}`).size,
    }));
    return {
      status: 200,
      body: { data: { path: ctx.url.searchParams.get('path') ?? '.', entries, snapshot_at: snapshotAt(sb.k) } },
    };
  } catch {
    return error(404, 'not_found', 'No such directory in the sandbox');
  }
}

function gitStatus(s: ServerContext, ctx: RouteCtx): HttpResult {
  const sb = sandboxOf(s, ctx);
  if (isResult(sb)) {
    return sb;
  }
  const { k } = sb;
  if (!k.repository) {
    return error(422, 'not_a_repository', 'The sandbox is not a git repository');
  }
  const entries = k.changes.map((ch) => ({
    path: ch.path,
    status: ch.status,
    staged: ch.staged,
    ...(ch.orig_path !== undefined ? { orig_path: ch.orig_path } : {}),
  }));
  return {
    status: 200,
    body: { data: { branch: k.branch, clean: entries.length === 0, entries, snapshot_at: snapshotAt(k) } },
  };
}

const REF_RE = /^[A-Za-z0-9_][A-Za-z0-9_./~^-]*$/;

function diff(s: ServerContext, ctx: RouteCtx): HttpResult {
  const sb = sandboxOf(s, ctx);
  if (isResult(sb)) {
    return sb;
  }
  const { c, k } = sb;
  if (!k.repository) {
    return error(422, 'not_a_repository', 'The sandbox is not a git repository');
  }
  const ref = ctx.url.searchParams.get('ref');
  if (ref !== null && (!REF_RE.test(ref) || ref.includes('..'))) {
    return error(422, 'invalid_ref', 'The ref is not valid');
  }
  if (ref !== null && !['HEAD', k.branch].includes(ref.replace(/[~^].*$/, ''))) {
    return error(404, 'ref_not_found', 'No such ref in the sandbox');
  }
  const p = pathParam(c, ctx.url, false);
  const max = maxBytes(ctx.url);
  if (isResult(p) || isResult(max)) {
    return isResult(p) ? p : (max as HttpResult);
  }
  const staged = truthy(ctx.url.searchParams.get('staged'));
  const picked = k.changes.filter(
    (ch) => ch.staged === staged && (p === undefined || insideSandbox(c.cwd, ch.path) === p),
  );
  const text = picked.map((ch) => ch.diff).join('');
  const bytes = Buffer.from(text, 'utf8');
  return {
    status: 200,
    body: {
      data: {
        diff: bytes.subarray(0, max).toString('utf8'),
        truncated: bytes.length > max,
        files: picked.length,
        snapshot_at: snapshotAt(k),
      },
    },
  };
}

export function sandboxRoutes(s: ServerContext): Route[] {
  return [
    apiRoute('GET', /^\/api\/sandboxes\/([^/]+)\/files$/, 'sandboxFiles', 'full', (ctx) => files(s, ctx)),
    apiRoute('GET', /^\/api\/sandboxes\/([^/]+)\/file$/, 'sandboxFile', 'full', (ctx) => file(s, ctx)),
    apiRoute('GET', /^\/api\/sandboxes\/([^/]+)\/diff$/, 'sandboxDiff', 'full', (ctx) => diff(s, ctx)),
    apiRoute('GET', /^\/api\/sandboxes\/([^/]+)\/git-status$/, 'sandboxGitStatus', 'full', (ctx) => gitStatus(s, ctx)),
  ];
}
