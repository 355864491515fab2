import { shortenForLabel } from './inertText';

/** How much of a server-provided sentence a notification shows; the whole text goes to the log. */
export const NOTICE_MAX_CHARS = 300;

/**
 * Server-provided text (a refusal sentence, an error) for a VS Code notification, which would turn
 * `[label](command:…)` into a link that runs a command and may draw `$(icon)` syntax. The text is made inert and
 * single-line (control, bidi and invisible characters become visible escapes), shortened with an explicit `…`
 * (`shortened` tells the caller to make the whole text reachable, e.g. in the log), and a hair space goes into every
 * `](` and `$(` so nothing becomes a link or an icon; the words stay readable. The sentence's own closing punctuation
 * is dropped: every caller embeds it in a sentence of ours that ends it ("…: {0}. Sign in again."), so a server's
 * "This API key was revoked." never reads "revoked.. Sign in again.".
 */
export function inertNotice(text: string, maxChars = NOTICE_MAX_CHARS): { text: string; shortened: boolean } {
  // Only a bounded prefix is ever rendered, so only a bounded prefix is processed, whatever the server sent.
  const head = text.length > maxChars * 4 ? text.slice(0, maxChars * 4) : text;
  const s = shortenForLabel(withoutClosingPunctuation(head), maxChars);
  return {
    text: s.text.replace(/\]\(/g, ']\u200a(').replace(/\$\(/g, '$\u200a('),
    shortened: s.shortened || head !== text,
  };
}

/** `text` without the sentence-ending punctuation (and spaces) at its end ("revoked." → "revoked"). */
export function withoutClosingPunctuation(text: string): string {
  return text.replace(/[\s.!?;:,。！？]+$/u, '');
}
