/**
 * REST calls to one Fountain server: the answer POST (fountain-protocol.md §5) with every status mapped to an
 * AnswerResult, and the GET/PATCH helpers the backfill and the policy view need. The key is only ever put in the
 * Authorization header, never in a log line.
 */
import type { AnswerResult } from '../domain/model';
import { redact, type ProtocolEnv } from './env';
import {
  AgentEnvelopeSchema,
  AnswerOkSchema,
  AuthMeSchema,
  ConversationEnvelopeSchema,
  ConversationListSchema,
  ConversationSchema,
  ErrorBodySchema,
  EventsPageSchema,
  RequestStageDataSchema,
  StagePayloadSchema,
  describeIssues,
  parseJson,
  parseOrLog,
  type WireAgent,
  type WireAuthMe,
  type WireConversation,
  type WireErrorBody,
} from './schema';
import { errorMessage, parseRetryAfter } from './sseClient';

/** A non-2xx answer to a GET/PATCH. */
export class FountainHttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string | undefined,
    message: string,
    readonly reason?: string,
    readonly retryAfterSec?: number,
    readonly body?: WireErrorBody,
  ) {
    super(message);
    this.name = 'FountainHttpError';
  }
}

/** The request never got an HTTP answer (refused, reset, timed out) or the answer was not the expected shape. */
export class FountainNetworkError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FountainNetworkError';
  }
}

export interface ApiClientOptions {
  /** Normalised base URL (no trailing slash). */
  readonly server: string;
  readonly key: string;
  readonly env: ProtocolEnv;
  /** Per-call timeout. Default 30 s. */
  readonly timeoutMs?: number;
  /** Upper bound on /events pages read when checking a lost answer. Default 20. */
  readonly maxVerifyPages?: number;
}

export interface EventsPage {
  readonly rows: readonly unknown[];
  readonly hasMore: boolean;
  readonly nextCursor: number | string | undefined;
}

export interface EventsQuery {
  readonly after?: number | string;
  readonly limit?: number;
  readonly streams?: string;
  readonly blocks?: boolean;
}

type RawResponse = { status: number; headers: Headers; text: string };

export class ApiClient {
  private readonly timeoutMs: number;

  constructor(private readonly opts: ApiClientOptions) {
    this.timeoutMs = opts.timeoutMs ?? 30_000;
  }

  get server(): string {
    return this.opts.server;
  }

  /** `GET /api/conversations?status=…`; malformed items are logged and skipped. */
  async listConversations(
    query: { status?: string; limit?: number } = {},
    signal?: AbortSignal,
  ): Promise<WireConversation[]> {
    const params = new URLSearchParams();
    if (query.status) {
      params.set('status', query.status);
    }
    if (query.limit !== undefined) {
      params.set('limit', String(query.limit));
    }
    const qs = params.toString();
    const body = await this.getJson(`/api/conversations${qs ? `?${qs}` : ''}`, signal);
    const list = ConversationListSchema.safeParse(body);
    if (!list.success) {
      throw new FountainNetworkError(`Unexpected conversation list: ${describeIssues(list.error)}`);
    }
    const out: WireConversation[] = [];
    for (const item of list.data.data) {
      const c = parseOrLog(ConversationSchema, item, 'a malformed conversation in the list', this.opts.env.logger);
      if (c) {
        out.push(c);
      }
    }
    return out;
  }

  /** `GET /api/conversations/{id}` with its `pending_requests`. */
  async getConversation(id: string, signal?: AbortSignal): Promise<WireConversation> {
    const body = await this.getJson(`/api/conversations/${encodeURIComponent(id)}`, signal);
    const env = ConversationEnvelopeSchema.safeParse(body);
    const c = env.success ? ConversationSchema.safeParse(env.data.data) : undefined;
    if (!c?.success) {
      throw new FountainNetworkError(`Unexpected conversation ${id}: ${c ? describeIssues(c.error) : 'no data'}`);
    }
    return c.data;
  }

  /** One page of `GET /api/conversations/{id}/events`. */
  async getEvents(id: string, q: EventsQuery = {}, signal?: AbortSignal): Promise<EventsPage> {
    const params = new URLSearchParams();
    params.set('after', String(q.after ?? 0));
    params.set('limit', String(q.limit ?? 1000));
    if (q.streams) {
      params.set('streams', q.streams);
    }
    if (q.blocks) {
      params.set('blocks', 'true');
    }
    const body = await this.getJson(`/api/conversations/${encodeURIComponent(id)}/events?${params.toString()}`, signal);
    const page = EventsPageSchema.safeParse(body);
    if (!page.success) {
      throw new FountainNetworkError(`Unexpected events page: ${describeIssues(page.error)}`);
    }
    const next = page.data.meta?.next_cursor;
    return { rows: page.data.data, hasMore: !!page.data.meta?.has_more, nextCursor: next ?? undefined };
  }

  /** `GET /api/auth/me` (unenveloped): the user the key belongs to. A refused key throws FountainHttpError. */
  async me(signal?: AbortSignal): Promise<WireAuthMe> {
    const r = AuthMeSchema.safeParse(await this.getJson('/api/auth/me', signal));
    if (!r.success) {
      throw new FountainNetworkError(`Unexpected /api/auth/me answer: ${describeIssues(r.error)}`);
    }
    return r.data;
  }

  /** `GET /api/agents/{id}`. */
  async getAgent(id: string, signal?: AbortSignal): Promise<WireAgent> {
    return this.parseAgent(await this.getJson(`/api/agents/${encodeURIComponent(id)}`, signal));
  }

  /** `PATCH /api/agents/{id}` with a partial body, e.g. `{permission_policy: {...}}` (null clears it). */
  async patchAgent(id: string, patch: Record<string, unknown>, signal?: AbortSignal): Promise<WireAgent> {
    const res = await this.send('PATCH', `/api/agents/${encodeURIComponent(id)}`, patch, signal);
    return this.parseAgent(this.expectOk(res, 'PATCH agent'));
  }

  /**
   * Answers one request. Never throws and never re-sends: if the response is lost, recent events and the
   * conversation are read back to learn whether it took (`afterCursor` = the stream cursor when the POST started).
   */
  async answer(
    conversationId: string,
    requestId: string,
    optionId: string,
    opts: { afterCursor?: string | number; signal?: AbortSignal } = {},
  ): Promise<AnswerResult> {
    const path = `/api/conversations/${encodeURIComponent(conversationId)}/requests/${encodeURIComponent(requestId)}`;
    let res: RawResponse;
    try {
      res = await this.send('POST', path, { option_id: optionId }, opts.signal);
    } catch (e) {
      if (opts.signal?.aborted) {
        return { kind: 'network', message: 'Cancelled before the server answered.' };
      }
      this.opts.env.logger.warn(
        `The answer to ${requestId} got no response (${errorMessage(e)}); checking whether it took.`,
      );
      return this.verifyLostAnswer(conversationId, requestId, optionId, opts.afterCursor, opts.signal);
    }
    const result = classifyAnswer(res.status, parseErrorBody(res.text), res.headers, this.opts.env.timers.now());
    if (result === 'lost') {
      this.opts.env.logger.warn(`The answer to ${requestId} got HTTP ${res.status}; checking whether it took.`);
      return this.verifyLostAnswer(conversationId, requestId, optionId, opts.afterCursor, opts.signal);
    }
    if (result.kind === 'answered') {
      const j = parseJson(res.text);
      if (!j.ok || !AnswerOkSchema.safeParse(j.value).success) {
        this.opts.env.logger.warn(
          `The answer to ${requestId} returned 200 with an unexpected body; treating it as answered.`,
        );
      }
    }
    this.opts.env.logger.info(`Answer to ${requestId} in ${conversationId}: ${result.kind} (HTTP ${res.status})`);
    return result;
  }

  /** Reads back what happened to a request whose answer response was lost. */
  async verifyLostAnswer(
    conversationId: string,
    requestId: string,
    optionId: string,
    afterCursor: string | number | undefined,
    signal?: AbortSignal,
  ): Promise<AnswerResult> {
    const log = this.opts.env.logger;
    try {
      let after: string | number = afterCursor ?? 0;
      for (let page = 0; page < (this.opts.maxVerifyPages ?? 20); page++) {
        const p = await this.getEvents(conversationId, { after, limit: 1000, streams: 'stage' }, signal);
        for (const row of p.rows) {
          const done = requestDoneOf(row);
          if (done && done.request_id === requestId) {
            const ours = done.outcome === 'answered' && done.option_id === optionId;
            log.info(
              `Lost answer to ${requestId}: the server recorded ${done.outcome ?? 'a resolution'}${ours ? ' with our option' : ''}.`,
            );
            return ours ? { kind: 'answered' } : { kind: 'resolvedElsewhere' };
          }
        }
        if (!p.hasMore || p.nextCursor === undefined) {
          break;
        }
        after = p.nextCursor;
      }
      const conv = await this.getConversation(conversationId, signal);
      const stillPending = (conv.pending_requests ?? []).some(
        (r) => (r as { request_id?: unknown } | null)?.request_id === requestId,
      );
      log.info(`Lost answer to ${requestId}: no resolution recorded${stillPending ? '; still pending' : ''}.`);
      return {
        kind: 'network',
        message: 'The connection dropped before the server answered, and the request still looks open.',
      };
    } catch (e) {
      log.warn(`Could not check the lost answer to ${requestId}: ${errorMessage(e)}`);
      return { kind: 'network', message: 'The connection dropped before the server answered; the outcome is unknown.' };
    }
  }

  private parseAgent(body: unknown): WireAgent {
    const r = AgentEnvelopeSchema.safeParse(body);
    if (!r.success) {
      throw new FountainNetworkError(`Unexpected agent: ${describeIssues(r.error)}`);
    }
    return r.data.data;
  }

  private async getJson(path: string, signal?: AbortSignal): Promise<unknown> {
    return this.expectOk(await this.send('GET', path, undefined, signal), `GET ${path.split('?')[0]}`);
  }

  private expectOk(res: RawResponse, what: string): unknown {
    if (res.status < 200 || res.status > 299) {
      const b = parseErrorBody(res.text);
      throw new FountainHttpError(
        res.status,
        b.error ?? undefined,
        `${what} failed: HTTP ${res.status}${b.error ? ` ${b.error}` : ''}`,
        b.reason ?? undefined,
        retryAfterSec(res.headers, this.opts.env.timers.now()),
        b,
      );
    }
    const j = parseJson(res.text);
    if (!j.ok) {
      throw new FountainNetworkError(`${what}: the response is not JSON`);
    }
    return j.value;
  }

  private async send(method: string, path: string, body: unknown, signal?: AbortSignal): Promise<RawResponse> {
    const { env, key, server } = this.opts;
    const ac = new AbortController();
    const onAbort = () => ac.abort(signal!.reason);
    if (signal?.aborted) {
      ac.abort(signal.reason);
    }
    signal?.addEventListener('abort', onAbort, { once: true });
    const timer = env.timers.setTimeout(
      () => ac.abort(new Error(`timed out after ${this.timeoutMs} ms`)),
      this.timeoutMs,
    );
    const headers: Record<string, string> = { Authorization: `Bearer ${key}`, Accept: 'application/json' };
    if (body !== undefined) {
      headers['Content-Type'] = 'application/json';
    }
    env.logger.debug(`${method} ${redact(path, key)}`);
    try {
      const res = await env.fetch(server + path, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: ac.signal,
      });
      const text = await res.text();
      return { status: res.status, headers: res.headers, text };
    } catch (e) {
      throw new FountainNetworkError(redact(errorMessage(e), key));
    } finally {
      env.timers.clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }
}

function parseErrorBody(text: string): WireErrorBody {
  const j = parseJson(text);
  const r = j.ok ? ErrorBodySchema.safeParse(j.value) : undefined;
  return r?.success ? r.data : {};
}

function retryAfterSec(headers: Headers, now: number): number | undefined {
  const ms = parseRetryAfter(headers.get('retry-after'), now);
  return ms === undefined ? undefined : Math.ceil(ms / 1000);
}

/**
 * Maps an answer response to an AnswerResult (§5). 'lost' means the status does not tell whether the answer took
 * (a gateway error) and the caller must read state back.
 */
export function classifyAnswer(
  status: number,
  body: WireErrorBody,
  headers: Headers,
  now: number,
): AnswerResult | 'lost' {
  const code = body.error ?? undefined;
  const message = body.message ?? undefined;
  const retry = retryAfterSec(headers, now);
  if (status >= 200 && status < 300) {
    return { kind: 'answered' };
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
function requestDoneOf(
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
