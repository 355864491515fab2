/**
 * Reads of a Fountain sandbox, the evidence shown before an answer (fountain-protocol.md, "Updates": sandbox reads):
 * `GET /api/sandboxes/{id}/file`, `/diff`, `/git-status` with a full-scope key. A parked sandbox answers from its
 * snapshot with `snapshot_at`. Every call returns a {@link SandboxRead}: the value, or a {@link SandboxFailure} the
 * UI turns into one plain sentence (never an exception, never a retry here). The key is only ever put in the
 * Authorization header. Everything the server sends is untrusted text: the caller renders it inert.
 */
import * as z from 'zod/mini';
import { parseErrorBody, retryAfterSec } from './answerStatus';
import { redact, type ProtocolEnv } from './env';
import { errorMessage } from './failures';
import { sendRequest, type RawResponse } from './request';
import { describeIssues, parseJson } from './schema';

const optSnapshot = z.nullish(z.string());

export const SandboxFileSchema = z.looseObject({
  content: z.string(),
  truncated: z.optional(z.boolean()),
  size: z.optional(z.number()),
  snapshot_at: optSnapshot,
});

export const GitStatusEntrySchema = z.looseObject({
  path: z.string(),
  status: z.string(),
  staged: z.optional(z.boolean()),
  orig_path: z.nullish(z.string()),
});

export const GitStatusSchema = z.looseObject({
  branch: z.nullish(z.string()),
  entries: z.array(z.unknown()),
  snapshot_at: optSnapshot,
});

export const SandboxDiffSchema = z.looseObject({
  diff: z.string(),
  truncated: z.optional(z.boolean()),
  snapshot_at: optSnapshot,
});

const Envelope = z.looseObject({ data: z.unknown() });

export interface SandboxFile {
  readonly content: string;
  readonly truncated: boolean;
}

export interface GitStatusEntry {
  readonly path: string;
  readonly status: string;
  readonly staged: boolean;
  readonly origPath?: string;
}

export interface GitStatus {
  readonly branch?: string;
  readonly entries: readonly GitStatusEntry[];
  /** Entries the server sent that are not the expected shape (skipped, counted). */
  readonly skipped: number;
}

export interface SandboxDiff {
  readonly diff: string;
  readonly truncated: boolean;
}

/** Why a read gave nothing, in the terms the UI words (fountain-protocol.md's error statuses). */
export type SandboxFailure =
  | { readonly kind: 'notReady' }
  | { readonly kind: 'unavailable'; readonly retryAfterSec?: number }
  | { readonly kind: 'outsideSandbox' }
  | { readonly kind: 'notRepository' }
  | { readonly kind: 'notFound' }
  | { readonly kind: 'refused'; readonly status: number }
  | { readonly kind: 'unexpected'; readonly status?: number; readonly detail: string }
  | { readonly kind: 'network'; readonly detail: string };

export type SandboxRead<T> =
  | {
      readonly ok: true;
      readonly value: T;
      /** ISO time of the snapshot a parked sandbox answered from; undefined while the sandbox is live. */
      readonly snapshotAt?: string;
    }
  | { readonly ok: false; readonly failure: SandboxFailure };

export interface SandboxFilesOptions {
  readonly server: string;
  readonly key: string;
  readonly env: ProtocolEnv;
  /** Per-call timeout; default 15 s. */
  readonly timeoutMs?: number;
  /** `max_bytes` for files and diffs; default 1 MB. */
  readonly maxBytes?: number;
}

/** The failure an HTTP status and error code stand for. */
export function failureOf(status: number, code: string | undefined, retryAfter?: number): SandboxFailure {
  if (status === 409 && code === 'sandbox_not_ready') {
    return { kind: 'notReady' };
  }
  if (status === 503) {
    return { kind: 'unavailable', ...(retryAfter !== undefined ? { retryAfterSec: retryAfter } : {}) };
  }
  if (status === 422 && code === 'path_outside_sandbox') {
    return { kind: 'outsideSandbox' };
  }
  if (status === 422 && code === 'not_a_repository') {
    return { kind: 'notRepository' };
  }
  if (status === 404) {
    return { kind: 'notFound' };
  }
  if (status === 401 || status === 403) {
    return { kind: 'refused', status };
  }
  return { kind: 'unexpected', status, detail: `HTTP ${status}${code ? ` ${code}` : ''}` };
}

export class SandboxFilesClient {
  constructor(private readonly opts: SandboxFilesOptions) {}

  get server(): string {
    return this.opts.server;
  }

  /** The file's current text (relative to the sandbox root or absolute inside it). */
  async file(sandboxId: string, path: string, signal?: AbortSignal): Promise<SandboxRead<SandboxFile>> {
    const q = new URLSearchParams({ path, max_bytes: String(this.maxBytes) });
    return this.read(sandboxId, 'file', q, SandboxFileSchema, signal, (d) => ({
      content: d.content,
      truncated: d.truncated === true,
    }));
  }

  async gitStatus(sandboxId: string, signal?: AbortSignal): Promise<SandboxRead<GitStatus>> {
    return this.read(sandboxId, 'git-status', new URLSearchParams(), GitStatusSchema, signal, (d) => {
      const entries: GitStatusEntry[] = [];
      for (const e of d.entries) {
        const r = GitStatusEntrySchema.safeParse(e);
        if (r.success) {
          const orig = r.data.orig_path;
          entries.push({
            path: r.data.path,
            status: r.data.status,
            staged: r.data.staged === true,
            ...(orig ? { origPath: orig } : {}),
          });
        }
      }
      return {
        ...(d.branch ? { branch: d.branch } : {}),
        entries,
        skipped: d.entries.length - entries.length,
      };
    });
  }

  /** The unified diff of what the agent changed (unstaged unless `staged`), optionally for one path. */
  async diff(
    sandboxId: string,
    opts: { path?: string; staged?: boolean } = {},
    signal?: AbortSignal,
  ): Promise<SandboxRead<SandboxDiff>> {
    const q = new URLSearchParams({ max_bytes: String(this.maxBytes) });
    if (opts.path !== undefined) {
      q.set('path', opts.path);
    }
    if (opts.staged) {
      q.set('staged', 'true');
    }
    return this.read(sandboxId, 'diff', q, SandboxDiffSchema, signal, (d) => ({
      diff: d.diff,
      truncated: d.truncated === true,
    }));
  }

  private get maxBytes(): number {
    return this.opts.maxBytes ?? 1_000_000;
  }

  private async read<S extends z.ZodMiniType, T>(
    sandboxId: string,
    route: string,
    query: URLSearchParams,
    schema: S,
    signal: AbortSignal | undefined,
    map: (d: z.infer<S>) => T,
  ): Promise<SandboxRead<T>> {
    const qs = query.toString();
    const path = `/api/sandboxes/${encodeURIComponent(sandboxId)}/${route}${qs ? `?${qs}` : ''}`;
    const res = await this.send(path, signal);
    if ('failure' in res) {
      return { ok: false, failure: res.failure };
    }
    if (res.status < 200 || res.status > 299) {
      const b = parseErrorBody(res.text);
      const failure = failureOf(
        res.status,
        b.error ?? undefined,
        retryAfterSec(res.headers, this.opts.env.timers.now()),
      );
      this.opts.env.logger.info(`GET ${route} of sandbox ${sandboxId}: HTTP ${res.status}`);
      return { ok: false, failure };
    }
    const j = parseJson(res.text);
    const env = j.ok ? Envelope.safeParse(j.value) : undefined;
    const d = env?.success ? schema.safeParse(env.data.data) : undefined;
    if (!d?.success) {
      const detail = d ? describeIssues(d.error) : 'not a {data} object';
      this.opts.env.logger.warn(`GET ${route} of sandbox ${sandboxId}: unexpected answer (${detail})`);
      return { ok: false, failure: { kind: 'unexpected', status: res.status, detail: 'unexpected answer' } };
    }
    const data = d.data as z.infer<S> & { snapshot_at?: string | null };
    const snapshotAt = typeof data.snapshot_at === 'string' ? data.snapshot_at : undefined;
    return { ok: true, value: map(data), ...(snapshotAt !== undefined ? { snapshotAt } : {}) };
  }

  private async send(
    path: string,
    signal: AbortSignal | undefined,
  ): Promise<RawResponse | { failure: SandboxFailure }> {
    const { env, key, server } = this.opts;
    try {
      return await sendRequest(
        { server, key, env, timeoutMs: this.opts.timeoutMs ?? 15_000 },
        'GET',
        path,
        undefined,
        signal,
      );
    } catch (e) {
      return { failure: { kind: 'network', detail: redact(errorMessage(e), key) } };
    }
  }
}
