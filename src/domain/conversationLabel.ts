/**
 * How a conversation is named wherever a user reads it (toasts, tree groups, the queue, details, the batch modal):
 * its title, else its agent and runtime, never its id (an id is a uuid, not a name). The words are the UI's
 * (`conversationName` in src/ui/strings.ts); this decides which parts there are. Agent text: render inert.
 */
import type { ConversationInfo } from './model';

export type ConversationNaming =
  | { readonly kind: 'title'; readonly title: string }
  | { readonly kind: 'agentAndRuntime'; readonly agent: string; readonly runtime: string }
  /** Only one of the two is known. */
  | { readonly kind: 'agentOrRuntime'; readonly name: string }
  /** Nothing but the id is known yet (the conversation's info has not arrived). */
  | { readonly kind: 'unknown' };

type Named = Partial<Pick<ConversationInfo, 'title' | 'agentName' | 'agentId' | 'runtime'>>;

const present = (s: string | undefined): string | undefined => (s !== undefined && s.trim() !== '' ? s : undefined);

export function conversationNaming(c: Named): ConversationNaming {
  const title = present(c.title);
  if (title !== undefined) {
    return { kind: 'title', title };
  }
  const agent = present(c.agentName) ?? present(c.agentId);
  const runtime = present(c.runtime);
  if (agent !== undefined && runtime !== undefined) {
    return { kind: 'agentAndRuntime', agent, runtime };
  }
  const one = agent ?? runtime;
  return one !== undefined ? { kind: 'agentOrRuntime', name: one } : { kind: 'unknown' };
}

/** The words for each case (the UI's, localised). */
export interface ConversationWords {
  agentAndRuntime(agent: string, runtime: string): string;
  readonly unknown: string;
}

/** The conversation's name in the given words: its title, else its agent and runtime, else `words.unknown`. */
export function conversationLabel(c: Named, words: ConversationWords): string {
  const n = conversationNaming(c);
  switch (n.kind) {
    case 'title':
      return n.title;
    case 'agentAndRuntime':
      return words.agentAndRuntime(n.agent, n.runtime);
    case 'agentOrRuntime':
      return n.name;
    case 'unknown':
      return words.unknown;
  }
}
