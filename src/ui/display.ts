import { shortenForLabel, toInertText } from '../domain/inertText';

/**
 * Agent text for one-line VS Code surfaces that may interpret it: notification messages turn `[text](target)` into
 * links (including `command:` targets). The text is first made inert (control/bidi characters become visible
 * escapes), then the `](` that would start a link target gets a hair space, so nothing becomes clickable.
 * The exact text is always available in the details view.
 */
export function inertLine(text: string): string {
  return toInertText(text, { singleLine: true }).replace(/\]\s*\(/g, ']\u200a(');
}

/** A shortened inert one-line label, plus whether anything was dropped (then show the full text elsewhere). */
export function inertLabel(text: string, max: number): { text: string; shortened: boolean } {
  const s = shortenForLabel(text, max);
  return { text: s.text.replace(/\]\s*\(/g, ']\u200a('), shortened: s.shortened };
}

/** Multi-line inert text for plain-text surfaces (details document, tooltips). */
export function inertBlock(text: string): string {
  return toInertText(text);
}
