/**
 * Choices our own UI offers beside the runtime's options in Answer… (and so in the toast's More…): the local gate's
 * session grants for a local agent's request. Each one still answers with an option the runtime offered, through
 * the answer flow (the inbox's guard), when it runs.
 */
import type { InboxItem } from '../../domain/inbox';
import type { AnswerSource } from './answerFlow';

export interface ExtraAnswerChoice {
  /** Plain text (our sentence with inert agent text in it); the QuickPick draws it with icons escaped. */
  readonly label: string;
  readonly description?: string;
  readonly detail?: string;
  /** Runs when picked: confirms what it must, answers through the answer flow and says what it did. */
  run(): Promise<void>;
}

export interface ExtraAnswerChoices {
  /** True when {@link choices} would offer something (the toast then shows More… even with three options). */
  has(item: InboxItem): boolean;
  /** The choices for an answerable item, in order; empty for a remote request. */
  choices(item: InboxItem, source: AnswerSource): Promise<readonly ExtraAnswerChoice[]>;
}
