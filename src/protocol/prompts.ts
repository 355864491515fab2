/**
 * The prompts route (fountain-protocol.md §0, §9): `POST /api/conversations/{id}/prompts` with
 * `{prompt, client_request_id}`, answered `{status: "queued"}`. Used to deliver a reject's reason as the
 * conversation's next prompt. The caller makes the `client_request_id` once; every retry sends the same one.
 *
 * Retried only where that cannot make a second turn: a 429 or a 502/503/504 (the server did not take it; wait its
 * `Retry-After`, else a backoff), a 400 `conversation_busy`; a lost response (no HTTP answer, or a 500) is retried only
 * after the conversation's turns show no turn with our `client_request_id`. The key only ever goes in the header.
 */
import { backoffDelay, DEFAULT_BACKOFF } from './backoff';
import { redact, sleep, type ProtocolEnv } from './env';
import { errorMessage, parseRetryAfter } from './failures';
import { parseJson } from './schema';
import { parseErrorBody } from './answerStatus';
import { sendRequest, type RawResponse } from './request';

export interface PromptClientOptions {
  /** Normalised base URL (no trailing slash). */
  readonly server: string;
  readonly key: string;
  readonly env: ProtocolEnv;
  /** Per-call timeout. Default 30 s. */
  readonly timeoutMs?: number;
  /** POSTs at most. Default 4. */
  readonly maxAttempts?: number;
  /** A `Retry-After` longer than this is not waited for (the result says when to try). Default 60 s. */
  readonly maxWaitMs?: number;
}

/** What became of one prompt. */
export type PromptResult =
  /** The server queued it (answered `{status: "queued"}`, or a lost response whose turn the server shows). */
  | { readonly kind: 'queued'; readonly attempts: number }
  /** Refused for good (4xx): the prompt was not taken; `code`/`message` are the server's (untrusted). */
  | {
      readonly kind: 'refused';
      readonly status: number;
      readonly code?: string;
      readonly message?: string;
    }
  /** The key was refused (401). */
  | { readonly kind: 'auth'; readonly status: number; readonly message?: string }
  /** Still not taken after every retry (unavailable, rate limited, no answer); `retryAfterSec` when the server said. */
  | {
      readonly kind: 'gaveUp';
      readonly attempts: number;
      readonly status?: number;
      readonly code?: string;
      readonly retryAfterSec?: number;
      readonly message: string;
    };

/** A fresh `client_request_id` (made once per prompt, reused on every retry). */
export function newClientRequestId(random: () => number = Math.random): string {
  const c = globalThis.crypto as { randomUUID?: () => string } | undefined;
  if (c?.randomUUID) {
    return c.randomUUID();
  }
  const hex = (n: number) =>
    Array.from({ length: n }, () =>
      Math.floor(random() * 16)
        .toString(16)
        .slice(-1),
    ).join('');
  return `${hex(8)}-${hex(4)}-4${hex(3)}-a${hex(3)}-${hex(12)}`;
}

/** Statuses that say the server did not take the prompt and a later one may. */
const RETRY_STATUSES = new Set([429, 502, 503, 504]);

export class PromptClient {
  private readonly timeoutMs: number;
  private readonly maxAttempts: number;
  private readonly maxWaitMs: number;

  constructor(private readonly opts: PromptClientOptions) {
    this.timeoutMs = opts.timeoutMs ?? 30_000;
    this.maxAttempts = Math.max(1, opts.maxAttempts ?? 4);
    this.maxWaitMs = opts.maxWaitMs ?? 60_000;
  }

  /** Sends `prompt` (retrying as the module comment says); never throws. */
  async send(
    conversationId: string,
    prompt: string,
    clientRequestId: string,
    signal?: AbortSignal,
  ): Promise<PromptResult> {
    const { env, key } = this.opts;
    const path = `/api/conversations/${encodeURIComponent(conversationId)}/prompts`;
    let last: Omit<Extract<PromptResult, { kind: 'gaveUp' }>, 'attempts' | 'kind'> = { message: 'not sent' };
    for (let attempt = 1; attempt <= this.maxAttempts; attempt++) {
      let wait: number | undefined;
      let res: RawResponse | undefined;
      try {
        res = await this.request('POST', path, { prompt, client_request_id: clientRequestId }, signal);
      } catch (e) {
        if (signal?.aborted) {
          return { kind: 'gaveUp', attempts: attempt, message: 'cancelled' };
        }
        const message = redact(errorMessage(e), key);
        env.logger.warn(`The prompt for ${conversationId} got no response (${message}); checking whether it took.`);
        if (await this.took(conversationId, clientRequestId, signal)) {
          return { kind: 'queued', attempts: attempt };
        }
        last = { message };
      }
      if (res) {
        const body = parseErrorBody(res.text);
        const code = body.error ?? undefined;
        const message = body.message ? redact(body.message, key) : undefined;
        if (res.status >= 200 && res.status < 300) {
          const j = parseJson(res.text);
          const status = j.ok && j.value && typeof j.value === 'object' ? (j.value as { status?: unknown }).status : '';
          if (status === 'queued' || (await this.took(conversationId, clientRequestId, signal))) {
            env.logger.info(`Prompt for ${conversationId} queued (HTTP ${res.status}, attempt ${attempt}).`);
            return { kind: 'queued', attempts: attempt };
          }
          return { kind: 'gaveUp', attempts: attempt, status: res.status, message: 'the server did not confirm it' };
        }
        env.logger.warn(`The prompt for ${conversationId} got HTTP ${res.status}${code ? ` ${code}` : ''}.`);
        const retryAfterMs = parseRetryAfter(res.headers.get('retry-after'), env.timers.now());
        const retryAfterSec = retryAfterMs === undefined ? undefined : Math.ceil(retryAfterMs / 1000);
        const base = {
          status: res.status,
          ...(code ? { code } : {}),
          ...(retryAfterSec !== undefined ? { retryAfterSec } : {}),
        };
        if (res.status === 401) {
          return { kind: 'auth', status: 401, ...(message ? { message } : {}) };
        }
        const busy = res.status === 400 && code === 'conversation_busy';
        if (RETRY_STATUSES.has(res.status) || busy) {
          last = { ...base, message: message ?? `HTTP ${res.status}` };
          wait = retryAfterMs;
        } else if (res.status === 500) {
          // Maybe taken before the failure: only a turn carrying our id says so.
          if (await this.took(conversationId, clientRequestId, signal)) {
            return { kind: 'queued', attempts: attempt };
          }
          last = { ...base, message: message ?? 'HTTP 500' };
        } else {
          return {
            kind: 'refused',
            status: res.status,
            ...(code ? { code } : {}),
            ...(message ? { message } : {}),
          };
        }
      }
      if (attempt === this.maxAttempts) {
        break;
      }
      const delay = wait ?? Math.max(250, backoffDelay(attempt, env.random, DEFAULT_BACKOFF));
      if (delay > this.maxWaitMs) {
        break; // the server asks for longer than we wait: the result says when
      }
      try {
        await sleep(env.timers, delay, signal);
      } catch {
        return { kind: 'gaveUp', attempts: attempt, message: 'cancelled' };
      }
    }
    return { kind: 'gaveUp', attempts: this.maxAttempts, ...last };
  }

  /** True when the conversation's turns show one with our `client_request_id` (a lost response that took). */
  private async took(conversationId: string, clientRequestId: string, signal?: AbortSignal): Promise<boolean> {
    try {
      const res = await this.request(
        'GET',
        `/api/conversations/${encodeURIComponent(conversationId)}/turns`,
        undefined,
        signal,
      );
      const j = parseJson(res.text);
      const data = res.status === 200 && j.ok ? (j.value as { data?: unknown }).data : undefined;
      return (
        Array.isArray(data) &&
        data.some((t) => (t as { client_request_id?: unknown })?.client_request_id === clientRequestId)
      );
    } catch (e) {
      this.opts.env.logger.warn(
        `Could not read the turns of ${conversationId}: ${redact(errorMessage(e), this.opts.key)}`,
      );
      return false;
    }
  }

  private request(method: string, path: string, body: unknown, signal?: AbortSignal): Promise<RawResponse> {
    const { env, key, server } = this.opts;
    // No redirect is followed (./request.ts): the key must not go elsewhere, and a redirect is not a queued prompt.
    return sendRequest({ server, key, env, timeoutMs: this.timeoutMs }, method, path, body, signal);
  }
}
