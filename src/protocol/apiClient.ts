/**
 * REST calls to one Fountain server: the answer POST (fountain-protocol.md §5) with every status mapped to an
 * AnswerResult, and the GET/PATCH helpers the backfill and the policy view need. The key is only ever put in the
 * Authorization header, never in a log line.
 */
import type { AnswerResult } from '../domain/model';
import {
  classifyAnswer,
  parseAnswerBody,
  parseErrorBody,
  redactAnswer,
  requestDoneOf,
  retryAfterSec,
} from './answerStatus';
import { redact, type ProtocolEnv } from './env';
import { errorMessage } from './failures';
import { sendRequest, type RawResponse } from './request';
import {
  AgentEnvelopeSchema,
  AgentListSchema,
  AgentSchema,
  AuthMeSchema,
  ConversationEnvelopeSchema,
  ConversationListSchema,
  ConversationSchema,
  EventsPageSchema,
  describeIssues,
  parseJson,
  parseOrLog,
  type WireAgent,
  type WireAuthMe,
  type WireConversation,
  type WireErrorBody,
} from './schema';

export { classifyAnswer } from './answerStatus';

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

  /** `GET /api/agents`: the caller's agents; a malformed item is logged and left out. */
  async listAgents(signal?: AbortSignal): Promise<WireAgent[]> {
    const list = AgentListSchema.safeParse(await this.getJson('/api/agents', signal));
    if (!list.success) {
      throw new FountainNetworkError(`Unexpected agent list: ${describeIssues(list.error)}`);
    }
    const out: WireAgent[] = [];
    for (const item of list.data.data) {
      const a = parseOrLog(AgentSchema, item, 'a malformed agent in the list', this.opts.env.logger);
      if (a) {
        out.push(a);
      }
    }
    return out;
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
    const result = redactAnswer(
      classifyAnswer(res.status, parseAnswerBody(res.text), res.headers, this.opts.env.timers.now()),
      this.opts.key,
    );
    if (result === 'lost') {
      this.opts.env.logger.warn(`The answer to ${requestId} got HTTP ${res.status}; checking whether it took.`);
      return this.verifyLostAnswer(conversationId, requestId, optionId, opts.afterCursor, opts.signal);
    }
    if (result === 'unconfirmed') {
      // Not an answer (a redirect, an HTML page, `{}`): it may or may not have taken, so read the state back and
      // never call it answered unless the server recorded our option.
      const what =
        res.status >= 300 && res.status < 400
          ? `a redirect (HTTP ${res.status}${res.headers.get('location') ? ` to ${res.headers.get('location')}` : ''}); redirects are not followed`
          : `HTTP ${res.status} with a body that is not {"ok": true}, which is not an answer`;
      this.opts.env.logger.warn(`The answer to ${requestId} got ${what}; checking whether it took.`);
      const checked = await this.verifyLostAnswer(conversationId, requestId, optionId, opts.afterCursor, opts.signal);
      return checked.kind === 'network'
        ? { kind: 'unexpected', status: res.status, message: 'The server did not confirm the answer.' }
        : checked;
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
      const key = this.opts.key;
      throw new FountainHttpError(
        res.status,
        b.error ?? undefined,
        redact(`${what} failed: HTTP ${res.status}${b.error ? ` ${b.error}` : ''}`, key),
        b.reason ? redact(b.reason, key) : undefined,
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
    try {
      // A 3xx is returned as it is and is never an answer (./request.ts follows no redirect).
      return await sendRequest({ server, key, env, timeoutMs: this.timeoutMs }, method, path, body, signal);
    } catch (e) {
      throw new FountainNetworkError(redact(errorMessage(e), key));
    }
  }
}
