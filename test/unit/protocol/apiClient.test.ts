import * as assert from 'node:assert/strict';
import { classifyAnswer } from '../../../src/protocol/apiClient';

const h = (o: Record<string, string> = {}) => new Headers(o);

describe('protocol/apiClient classifyAnswer', () => {
  const cases: Array<[number, Record<string, unknown>, Record<string, string>, unknown]> = [
    [200, { ok: true }, {}, { kind: 'answered' }],
    // Not an answer: a 2xx without {ok: true} (HTML parses to {}), or any redirect; read back, never "answered".
    [200, {}, {}, 'unconfirmed'],
    [200, { ok: false }, {}, 'unconfirmed'],
    [204, {}, {}, 'unconfirmed'],
    [303, {}, { location: 'https://elsewhere.example/' }, 'unconfirmed'],
    [307, { ok: true }, {}, 'unconfirmed'],
    [409, { error: 'permission_request_resolved' }, {}, { kind: 'resolvedElsewhere' }],
    [409, { error: 'permission_answer_not_delivered', message: 'm' }, {}, { kind: 'notDelivered', message: 'm' }],
    [
      400,
      { error: 'conversation_busy' },
      {},
      { kind: 'leftOpen', reason: 'busy', message: undefined, retryAfterSec: undefined },
    ],
    [400, { error: 'other' }, {}, { kind: 'unexpected', status: 400, message: 'other' }],
    [
      402,
      { error: 'insufficient_credits' },
      {},
      { kind: 'leftOpen', reason: 'credits', message: 'insufficient_credits' },
    ],
    [403, { error: 'account_suspended' }, {}, { kind: 'leftOpen', reason: 'suspended', message: 'account_suspended' }],
    [403, { error: 'sprite_may_not_answer' }, {}, { kind: 'spriteToken' }],
    [
      403,
      { error: 'x', reason: 'email_unverified' },
      {},
      { kind: 'auth', status: 403, reason: 'email_unverified', message: 'x' },
    ],
    [
      401,
      { error: 'x', reason: 'api_key_expired' },
      {},
      { kind: 'auth', status: 401, reason: 'api_key_expired', message: 'x' },
    ],
    [404, { error: 'not_found' }, {}, { kind: 'notFound' }],
    [
      422,
      { error: 'option_id_required' },
      {},
      { kind: 'optionNotOffered', code: 'option_id_required', message: undefined },
    ],
    [422, {}, {}, { kind: 'optionNotOffered', code: 'validation_failed', message: undefined }],
    [429, {}, { 'retry-after': '9' }, { kind: 'rateLimited', retryAfterSec: 9 }],
    [
      503,
      { error: 'provisioning' },
      { 'retry-after': '30' },
      { kind: 'leftOpen', reason: 'unavailable', message: 'provisioning', retryAfterSec: 30 },
    ],
    [502, {}, {}, 'lost'],
    [500, {}, {}, 'lost'],
    [418, {}, {}, { kind: 'unexpected', status: 418, message: undefined }],
  ];
  for (const [status, body, headers, expected] of cases) {
    it(`${status} ${JSON.stringify(body)} → ${JSON.stringify(expected)}`, () => {
      assert.deepEqual(classifyAnswer(status, body, h(headers), 0), expected);
    });
  }
});
