/** Turns the engine's results into Fountain's HTTP answers. */
import type { AnswerResult, CreateRefusal } from '../engine';
import { invalid, notFound, type HttpResult } from '../http';
import type { ConversationRec, Store } from '../store';
import { conversationJson } from '../views';

function refusalHttp(r: CreateRefusal): HttpResult {
  switch (r.refused) {
    case 'agent_blank':
      return invalid('agent_id', "can't be blank");
    case 'agent_unknown':
      return invalid('agent_id', 'does not exist');
    case 'labels_invalid':
      return invalid('labels', 'must be a map of strings');
    case 'policy_invalid':
      return {
        status: 422,
        body: { error: 'permission_policy_invalid', message: `permission_policy is invalid: ${r.errors.join('; ')}` },
      };
    case 'policy_unenforceable':
      return {
        status: 422,
        body: {
          error: 'permission_policy_unenforceable',
          message:
            'the opencode runtime never asks before it runs a tool, so a policy stricter than auto_allow cannot be enforced',
        },
      };
    case 'policy_widens':
      return {
        status: 422,
        body: {
          error: 'permission_policy_widens',
          message: `a launch permission_policy may only narrow the agent's policy; ${r.key} would be loosened`,
        },
      };
  }
}

/** `201 {data}` for a new conversation, else the refusal's 422. */
export function createdHttp(store: Store, r: ConversationRec | CreateRefusal): HttpResult {
  return 'refused' in r ? refusalHttp(r) : { status: 201, body: { data: conversationJson(store, r, true) } };
}

const ANSWER_HTTP: Record<AnswerResult, HttpResult> = {
  answered: { status: 200, body: { ok: true } },
  sprite_may_not_answer: { status: 403, body: { error: 'sprite_may_not_answer' } },
  not_found: notFound,
  resolved: {
    status: 409,
    body: {
      error: 'permission_request_resolved',
      message: 'this permission request is no longer waiting for an answer',
    },
  },
  option_id_required: {
    status: 422,
    body: { error: 'option_id_required', message: 'option_id must be a non-empty string' },
  },
  unknown_option: {
    status: 422,
    body: { error: 'unknown_option', message: 'option_id was not offered for this request' },
  },
  conversation_busy: { status: 400, body: { error: 'conversation_busy' } },
  account_suspended: { status: 403, body: { error: 'account_suspended', message: 'this account is suspended' } },
  insufficient_credits: {
    status: 402,
    body: { error: 'insufficient_credits', message: 'the credit balance is spent', upgrade_url: '/account/billing' },
  },
  not_delivered: {
    status: 409,
    body: {
      error: 'permission_answer_not_delivered',
      message: 'the answer was recorded, but the conversation could not be resumed; send a prompt to wake it',
    },
  },
};

export function answerHttp(r: AnswerResult): HttpResult {
  return ANSWER_HTTP[r];
}
