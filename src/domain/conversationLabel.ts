/**
 * How a conversation is named wherever a user reads it (toasts, tree groups, tooltips, the queue, details, modals,
 * History): its title; else its agent's display name as Fountain gives it (with the runtime); else "Untitled
 * conversation" with the runtime. Never an id: neither the conversation's (a uuid) nor the agent's. Fountain's
 * conversation JSON carries only `agent_id`, so the name comes from one lookup of the agent
 * (src/session/agentNames.ts). The words are the UI's (`conversationName` in src/ui/strings.ts); this decides which
 * parts there are. Agent text: render inert.
 */
import type { ConversationInfo } from './model';

export type ConversationNaming =
  | { readonly kind: 'title'; readonly title: string }
  | { readonly kind: 'agent'; readonly agent: string; readonly runtime?: string }
  /** No title and no agent name (yet): untitled, with the runtime when it is known. */
  | { readonly kind: 'untitled'; readonly runtime?: string };

type Named = Partial<Pick<ConversationInfo, 'title' | 'agentName' | 'runtime'>>;

const present = (s: string | undefined): string | undefined => (s !== undefined && s.trim() !== '' ? s : undefined);

export function conversationNaming(c: Named): ConversationNaming {
  const title = present(c.title);
  if (title !== undefined) {
    return { kind: 'title', title };
  }
  const agent = present(c.agentName);
  const runtime = present(c.runtime);
  if (agent !== undefined) {
    return runtime !== undefined ? { kind: 'agent', agent, runtime } : { kind: 'agent', agent };
  }
  return runtime !== undefined ? { kind: 'untitled', runtime } : { kind: 'untitled' };
}

/** The words for each case (the UI's, localised). */
export interface ConversationWords {
  agentAndRuntime(agent: string, runtime: string): string;
  untitledWithRuntime(runtime: string): string;
  readonly untitled: string;
}

/** The conversation's name in the given words. */
export function conversationLabel(c: Named, words: ConversationWords): string {
  const n = conversationNaming(c);
  switch (n.kind) {
    case 'title':
      return n.title;
    case 'agent':
      return n.runtime !== undefined ? words.agentAndRuntime(n.agent, n.runtime) : n.agent;
    case 'untitled':
      return n.runtime !== undefined ? words.untitledWithRuntime(n.runtime) : words.untitled;
  }
}
