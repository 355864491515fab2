/**
 * How a failed request is described and retried: full-jitter backoff, `Retry-After`, the `{error, reason, message}`
 * body of a refusal, and error messages with their cause.
 */
import { ErrorBodySchema, parseJson } from './schema';

export { DEFAULT_BACKOFF, backoffDelay, parseRetryAfter, type BackoffOptions } from './backoff';

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
