/**
 * The application layer for local ACP agents: the inbox's second source. Each local session is one conversation
 * (source id `local:<session id>`, never a Fountain URL); each ask its policy sends to the user becomes a
 * `requestOpened` fact, and how the ask closed becomes a `requestResolved` fact. Its AnswerSender delivers one answer
 * by `ask.answer(optionId)` only: the inbox alone guards answers, and nothing here answers on its own.
 * No vscode here: the composition root feeds it the sessions (src/ui/local) and their asks.
 */
import { BoundedMap } from '../domain/boundedMap';
import type { Inbox } from '../domain/inbox';
import {
  AGENT_EXITED,
  keyId,
  type AnswerResult,
  type ConversationInfo,
  type DiffContent,
  type RequestDetails,
  type RequestKey,
  type ToolLocation,
} from '../domain/model';
import type { AskClose, LocalToolCall, PendingAsk, PolicyMatch } from '../local';
import type { SandboxScope } from '../local/sandbox/scope';
import { DiffContentSchema, LocationSchema, TextContentSchema } from '../protocol/schema';
import type { AnswerSource } from './answerRouter';
import { isLocalSource, localSourceId } from './localKey';

/** What the source needs to know of one local session (src/ui/local's ManagedSession has it). */
export interface LocalSessionInfo {
  /** Stable across Restart: the row of the tree. */
  readonly id: string;
  readonly agentName: string;
  readonly folderName: string;
  readonly runtime?: string;
  /** starting | idle | running | waiting | exited | stopped */
  readonly status: string;
  /** The session's sandbox (its plan), when it runs in one: a request it would refuse says so. */
  readonly sandbox?: SandboxScope & { readonly cwd: string };
}

/** Why a local request was asked: the local policy key that said `ask`. */
export interface LocalProvenance {
  readonly agentName: string;
  readonly policyKey: string | null;
  readonly matchedBy: PolicyMatch;
  /**
   * The local gate's rule and reason, when a gate asked (a rule other than `mode` asked by itself); rule `sandbox`
   * when the request names a path the session's sandbox would refuse (the reason then says so, and what to do).
   */
  readonly gate?: { readonly rule: string; readonly reason: string };
}

/**
 * The sentence a request of a sandboxed session gets when one of its paths lies outside the sandbox; undefined
 * otherwise. src/local's `outsideSentence` (dist/local.js, loaded once a session exists): injected, so that this
 * module, part of dist/extension.js, does not carry the policy's request reader.
 */
export type OutsideSentence = (sandbox: LocalSessionInfo['sandbox'], toolCall: LocalToolCall) => string | undefined;

/** The gate part of a provenance: the outside-the-sandbox sentence first, then the gate's own reason. */
function gateWithSandbox(
  gate: PendingAsk['gate'],
  outside: string | undefined,
): { rule: string; reason: string } | undefined {
  if (outside === undefined) {
    return gate ? { rule: gate.rule, reason: gate.reason } : undefined;
  }
  return { rule: 'sandbox', reason: gate && gate.rule !== 'mode' ? `${outside}; ${gate.reason}` : outside };
}

export { isLocalSource, localSourceId } from './localKey';

/** "Local · <agent> · <folder>": the conversation title of a local session. */
export function localTitle(s: Pick<LocalSessionInfo, 'agentName' | 'folderName'>): string {
  return `Local · ${s.agentName} · ${s.folderName}`;
}

export function localConversation(s: LocalSessionInfo): ConversationInfo {
  return {
    server: localSourceId(s.id),
    id: s.id,
    title: localTitle(s),
    agentName: s.agentName,
    ...(s.runtime !== undefined ? { runtime: s.runtime } : {}),
    status: s.status,
  };
}

interface Tracked {
  readonly ask: PendingAsk;
  readonly session: string;
  /** Set when a path of the request lies outside the session's sandbox. */
  readonly outside?: string;
  /** This source delivered the answer the ask closed with (the inbox records it from the send result). */
  sentByUs: boolean;
}

export class LocalSource implements AnswerSource {
  private readonly asks: BoundedMap<string, Tracked>;

  constructor(
    private readonly inbox: Inbox,
    private readonly now: () => number = Date.now,
    memory = 5_000,
    /** Default: no request is said to lie outside a sandbox (tests without sessions in one). */
    private readonly outsideSentence: OutsideSentence = () => undefined,
  ) {
    this.asks = new BoundedMap(memory);
  }

  /** A session was listed or changed (status): its conversation info. */
  sessionChanged(s: LocalSessionInfo): void {
    this.inbox.apply({ type: 'conversation', conversation: localConversation(s) });
  }

  /** One ask the session's policy sends to the user: a request in the inbox until the ask closes. */
  ask(s: LocalSessionInfo, ask: PendingAsk): void {
    const key: RequestKey = { server: localSourceId(s.id), conversationId: s.id, requestId: ask.id };
    const outside = this.outsideSentence(s.sandbox, ask.request.toolCall);
    const tracked: Tracked = { ask, session: s.id, sentByUs: false, ...(outside !== undefined ? { outside } : {}) };
    this.asks.set(keyId(key), tracked);
    this.sessionChanged(s);
    this.inbox.apply({ type: 'requestOpened', request: detailsOf(key, ask), source: 'live' });
    void ask.closed.then((close) => this.closed(key, tracked, close));
  }

  /** The local policy key that asked for `key`, if it is one of this source's requests. */
  provenance(key: RequestKey): LocalProvenance | undefined {
    const t = this.asks.get(keyId(key));
    if (!t) {
      return undefined;
    }
    const { agentName, policyKey, matchedBy } = t.ask;
    const gate = gateWithSandbox(t.ask.gate, t.outside);
    return { agentName, policyKey, matchedBy, ...(gate ? { gate } : {}) };
  }

  /** The ask behind `key` and its session's id, if it is one of this source's requests (open or closed). */
  askOf(key: RequestKey): { readonly ask: PendingAsk; readonly sessionId: string } | undefined {
    const t = this.asks.get(keyId(key));
    return t ? { ask: t.ask, sessionId: t.session } : undefined;
  }

  owns(key: RequestKey): boolean {
    return isLocalSource(key.server);
  }

  /** Delivers the answer to the agent through its ask; the ask itself says whether it was offered and still open. */
  send(key: RequestKey, optionId: string): Promise<AnswerResult> {
    const t = this.asks.get(keyId(key));
    if (!t) {
      // Not an ask of this extension host (or one forgotten long ago): it cannot be waiting.
      return Promise.resolve({ kind: 'notFound' });
    }
    // Marked before answer(): the ask's `closed` settles only after this returns, but never misses the mark.
    t.sentByUs = true;
    const r = t.ask.answer(optionId);
    if (r !== 'sent') {
      t.sentByUs = false;
    }
    switch (r) {
      case 'sent':
        return Promise.resolve({ kind: 'answered' });
      case 'not_offered':
        return Promise.resolve({ kind: 'optionNotOffered', code: 'not_offered' });
      case 'closed':
        // Closed already (timeout, cancel, exit): its own fact says how; until then it is no longer waiting.
        return Promise.resolve({ kind: 'notFound' });
    }
  }

  private closed(key: RequestKey, t: Tracked, close: AskClose): void {
    const at = this.now();
    const resolved = (outcome: string, optionId: string | null) =>
      this.inbox.apply({ type: 'requestResolved', key, outcome, optionId, detached: false, at });
    switch (close.reason) {
      case 'answered':
        // Our own answer is recorded by the inbox from the send result; any other (a gate) answered elsewhere.
        if (!t.sentByUs) {
          resolved('answered', close.sent.outcome === 'selected' ? close.sent.optionId : null);
        }
        return;
      case 'timeout':
        resolved('timeout', close.sent.outcome === 'selected' ? close.sent.optionId : null);
        return;
      case 'cancelled':
        // Cancel Turn or Stop answered it `cancelled`: the turn it belonged to is over.
        resolved('turn_ended', null);
        return;
      case 'agent_exited':
        resolved(AGENT_EXITED, null);
        return;
      case 'withdrawn':
        resolved('withdrawn', null);
        return;
    }
  }
}

/** The request as the inbox shows it: the tool call's title, kind, raw input, locations, text and diffs. */
export function detailsOf(key: RequestKey, ask: PendingAsk): RequestDetails {
  const tc = ask.request.toolCall;
  const textContent: string[] = [];
  const diffs: DiffContent[] = [];
  for (const item of tc.content ?? []) {
    const diff = DiffContentSchema.safeParse(item);
    if (diff.success) {
      diffs.push({ path: diff.data.path, oldText: diff.data.oldText ?? null, newText: diff.data.newText });
      continue;
    }
    const text = TextContentSchema.safeParse(item);
    if (text.success) {
      textContent.push(text.data.content.text);
    }
  }
  const locations: ToolLocation[] = [];
  for (const loc of tc.locations ?? []) {
    const r = LocationSchema.safeParse(loc);
    if (r.success) {
      locations.push(r.data.line != null ? { path: r.data.path, line: r.data.line } : { path: r.data.path });
    }
  }
  const name = tc.title || tc.kind || 'tool';
  const summary = locations[0]?.path;
  return {
    key,
    name,
    ...(summary !== undefined ? { summary } : {}),
    toolCallId: tc.toolCallId,
    ...(tc.title !== undefined ? { title: tc.title } : {}),
    ...(tc.kind !== undefined ? { kind: tc.kind } : {}),
    ...(tc.rawInput !== undefined ? { rawInput: tc.rawInput } : {}),
    textContent,
    diffs,
    locations,
    options: ask.request.options.map((o) => ({ ...o })),
    askedAt: ask.askedAt,
    deadline: ask.deadline,
    detached: false,
    rawParams: { sessionId: ask.request.sessionId, toolCall: tc, options: ask.request.options },
  };
}
