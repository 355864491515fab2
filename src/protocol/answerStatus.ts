/**
 * What an answer response means (fountain-protocol.md §5): every status mapped to an AnswerResult, a response that is
 * not an answer told apart, and the `request`/`done` row that settles a lost one. Pure: no network, no key storage.
 */
import type { AnswerResult } from '../domain/model';
import { redact } from './env';
import { parseRetryAfter } from './failures';
import {
  AnswerOkSchema,
  ErrorBodySchema,
  RequestStageDataSchema,
  StagePayloadSchema,
  parseJson,
  type WireErrorBody,
} from './schema';

/** The JSON object of an answer response (`{ok: true}` or an error body), or {} when the body is not JSON. */
export function parseAnswerBody(text: string): WireErrorBody & { ok?: unknown } {
  const j = parseJson(text);
  if (!j.ok || j.value === null || typeof j.value !== 'object' || Array.isArray(j.value)) {
    return {};
  }
  return { ...parseErrorBody(text), ok: (j.value as { ok?: unknown }).ok };
}

/** The result with the key replaced in the server-provided `reason` and `message` (a server may echo the header). */
export function redactAnswer<T extends AnswerResult | 'lost' | 'unconfirmed'>(r: T, key: string): T {
  if (typeof r === 'string') {
    return r;
  }
  const out: Record<string, unknown> = { ...r };
  for (const f of ['reason', 'message'] as const) {
    if (typeof out[f] === 'string') {
      out[f] = redact(out[f], key);
    }
  }
  return out as T;
}

export function parseErrorBody(text: string): WireErrorBody {
  const j = parseJson(text);
  const r = j.ok ? ErrorBodySchema.safeParse(j.value) : undefined;
  return r?.success ? r.data : {};
}

export function retryAfterSec(headers: Headers, now: number): number | undefined {
  const ms = parseRetryAfter(headers.get('retry-after'), now);
  return ms === undefined ? undefined : Math.ceil(ms / 1000);
}

/**
 * Maps an answer response to an AnswerResult (§5). 'lost' means the status does not tell whether the answer took
 * (a gateway error) and the caller must read state back. 'unconfirmed' is a response that is not an answer: a 2xx
 * whose body is not `{"ok": true}`, or a redirect (never followed); the caller reads state back and never counts it
 * as answered unless the server recorded the option.
 */
export function classifyAnswer(
  status: number,
  body: WireErrorBody & { ok?: unknown },
  headers: Headers,
  now: number,
): AnswerResult | 'lost' | 'unconfirmed' {
  const code = body.error ?? undefined;
  const message = body.message ?? undefined;
  const retry = retryAfterSec(headers, now);
  if (status >= 200 && status < 300) {
    return AnswerOkSchema.safeParse(body).success ? { kind: 'answered' } : 'unconfirmed';
  }
  if (status >= 300 && status < 400) {
    return 'unconfirmed';
  }
  switch (status) {
    case 400:
      return code === 'conversation_busy'
        ? { kind: 'leftOpen', reason: 'busy', message, retryAfterSec: retry }
        : { kind: 'unexpected', status, message: message ?? code };
    case 401:
      return { kind: 'auth', status, reason: body.reason ?? code, message: code };
    case 402:
      return { kind: 'leftOpen', reason: 'credits', message: message ?? code };
    case 403:
      if (code === 'sprite_may_not_answer') {
        return { kind: 'spriteToken' };
      }
      if (code === 'account_suspended' || body.reason === 'account_suspended') {
        return { kind: 'leftOpen', reason: 'suspended', message: message ?? code };
      }
      return { kind: 'auth', status, reason: body.reason ?? code, message: code };
    case 404:
      return { kind: 'notFound' };
    case 409:
      return code === 'permission_answer_not_delivered'
        ? { kind: 'notDelivered', message }
        : { kind: 'resolvedElsewhere' };
    case 422:
      return { kind: 'optionNotOffered', code: code ?? 'validation_failed', message };
    case 429:
      return { kind: 'rateLimited', retryAfterSec: retry };
    case 503:
      return { kind: 'leftOpen', reason: 'unavailable', message: message ?? code, retryAfterSec: retry };
    case 500:
    case 502:
    case 504:
      return 'lost';
    default:
      return { kind: 'unexpected', status, message: message ?? code };
  }
}

/** `{request_id, outcome, option_id}` if the /events row is a `request`/`done` stage event. */
export function requestDoneOf(
  row: unknown,
): { request_id: string; outcome?: string | null; option_id?: string | null } | undefined {
  const s = StagePayloadSchema.safeParse(row);
  if (!s.success || s.data.stage !== 'request' || s.data.state !== 'done') {
    return undefined;
  }
  let data: unknown = s.data.data ?? {};
  if (typeof data === 'string') {
    const j = parseJson(data);
    if (!j.ok) {
      return undefined;
    }
    data = j.value;
  }
  const d = RequestStageDataSchema.safeParse(data);
  return d.success ? d.data : undefined;
}
