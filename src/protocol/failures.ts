/**
 * How a failed request is described and retried: full-jitter backoff, `Retry-After`, the `{error, reason, message}`
 * body of a refusal, and error messages with their cause.
 */
import { ErrorBodySchema, parseJson } from './schema';

export interface BackoffOptions {
  /** First step of the exponential ceiling. */
  readonly baseMs: number;
  /** Largest possible wait. */
  readonly capMs: number;
}

export const DEFAULT_BACKOFF: BackoffOptions = { baseMs: 1000, capMs: 30_000 };

/** Full jitter: uniform in [0, min(cap, base·2^attempt)). `attempt` counts failures since the last healthy period. */
export function backoffDelay(attempt: number, random: () => number, opts: BackoffOptions = DEFAULT_BACKOFF): number {
  const ceiling = Math.min(opts.capMs, opts.baseMs * 2 ** Math.min(Math.max(attempt, 0), 30));
  return Math.floor(Math.min(Math.max(random(), 0), 1) * ceiling);
}

/** `Retry-After` as milliseconds (delta-seconds or an HTTP date), capped at an hour; undefined if absent/invalid. */
export function parseRetryAfter(value: string | null | undefined, now: number): number | undefined {
  if (!value) {
    return undefined;
  }
  const v = value.trim();
  let ms: number | undefined;
  if (/^\d+$/.test(v)) {
    ms = Number(v) * 1000;
  } else {
    const t = Date.parse(v);
    ms = Number.isFinite(t) ? Math.max(0, t - now) : undefined;
  }
  return ms === undefined ? undefined : Math.min(ms, 3_600_000);
}

/** The `{error, reason, message}` of a refusal, or {} when the body is not that. */
export async function readErrorBody(res: Response): Promise<{ error?: string; reason?: string; message?: string }> {
  try {
    const text = await res.text();
    const j = parseJson(text);
    if (!j.ok) {
      return {};
    }
    const r = ErrorBodySchema.safeParse(j.value);
    return r.success
      ? { error: r.data.error ?? undefined, reason: r.data.reason ?? undefined, message: r.data.message ?? undefined }
      : {};
  } catch {
    return {};
  }
}

export function errorMessage(e: unknown): string {
  if (e instanceof Error) {
    const cause = (e as { cause?: unknown }).cause;
    return cause instanceof Error ? `${e.message} (${cause.message})` : e.message;
  }
  return String(e);
}
