/**
 * A session's side of ACP `session/request_permission`: the raw request is read (requestShape.ts), shown in the
 * transcript, and decided by the permission broker; the JSON-RPC id of each open request is kept so that Cancel Turn
 * can wait until its `cancelled` answer is written. Used by {@link LocalAgentSession} (session.ts).
 */
import type * as acp from '@agentclientprotocol/sdk';
import type { PendingAsk, PermissionBroker, PermissionDecision } from './permissions';
import { normalizePermissionRequest } from './requestShape';
import type { Transcript } from './transcript';

export class PermissionRequests {
  private readonly openRequestIds = new Map<PendingAsk['id'], acp.JsonRpcId | undefined>();

  constructor(
    private readonly broker: PermissionBroker,
    private readonly transcript: Transcript,
    private readonly log: (line: string) => void,
  ) {}

  /** Answers one `session/request_permission` (cancelled when it cannot be read, or nobody can answer any more). */
  async answer(
    raw: unknown,
    signal: AbortSignal,
    requestId: acp.JsonRpcId | undefined,
  ): Promise<acp.RequestPermissionResponse> {
    const request = normalizePermissionRequest(raw, (id) => this.transcript.toolCall(id));
    if (!request) {
      this.log('[fountain] a session/request_permission without a usable tool call or options: answered cancelled');
      return { outcome: { outcome: 'cancelled' } };
    }
    // Show the request's fields in the transcript's tool call too.
    this.transcript.mergeToolCall({ ...request.toolCall });
    let askId: string | undefined;
    try {
      const outcome = await this.broker.decide(request, signal, (ask) => {
        askId = ask.id;
        this.openRequestIds.set(ask.id, requestId);
      });
      // undefined: the agent exited (the output is closed, nothing can reach it) or withdrew the request.
      return { outcome: outcome ?? { outcome: 'cancelled' } };
    } finally {
      if (askId !== undefined) {
        this.openRequestIds.delete(askId);
      }
    }
  }

  /** The JSON-RPC ids of the requests the inbox still has open. */
  openIds(): acp.JsonRpcId[] {
    return this.broker.openAsks.map((a) => this.openRequestIds.get(a.id)).filter((id) => id !== undefined);
  }
}

/** The transcript's note for one decision: what was asked, the verdict and why, and what the agent was sent. */
export function decisionNote(d: PermissionDecision): string {
  const sent = 'sent' in d.close ? d.close.sent : undefined;
  const label = d.request.toolCall.title ?? d.request.toolCall.kind ?? d.request.toolCall.toolCallId;
  const answer = sent ? (sent.outcome === 'selected' ? `sent ${sent.optionId}` : 'sent cancelled') : 'nothing sent';
  const how = d.gate ? `${d.close.reason}, ${d.gate.rule}` : d.close.reason;
  return `permission for ${label}: ${d.verdict} (${how}), ${answer}`;
}
