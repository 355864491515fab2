import { escapeIcons, markAgentLines, shortenForLabel, shortenInert, toInertText } from '../domain/inertText';

/**
 * The most code points of agent text one line of a VS Code surface shows (VS Code cuts a notification message at
 * 1,000 characters itself). Longer text ends with `…`; the details document always has all of it.
 */
export const LINE_MAX = 1000;

/** Notification messages turn `[text](target)` into links (including `command:` targets): a hair space breaks `](`. */
function breakLinks(text: string): string {
  return text.includes(']') ? text.replace(/\]\s*\(/g, ']\u200a(') : text;
}

/**
 * Agent text for one-line VS Code surfaces (notifications, tree labels and descriptions): made inert (control/bidi
 * characters become visible escapes, line breaks `⏎`), shortened to `max` code points with `…`, and nothing in it
 * becomes clickable. The exact text is always available in the details view.
 */
export function inertLine(text: string, max = LINE_MAX): string {
  return shortenForLabel(breakLinks(text), max).text;
}

/** A shortened inert one-line label, plus whether anything was dropped (then show the full text elsewhere). */
export function inertLabel(text: string, max: number): { text: string; shortened: boolean } {
  // Links are broken before shortening, so the label stays within `max`.
  return shortenForLabel(breakLinks(text), max);
}

/**
 * Agent text for surfaces that draw `$(name)` as an icon (QuickPick label/description/detail, status bar text):
 * `inertLine`, with every icon reference escaped so it shows literally.
 */
export function pickText(text: string, max = LINE_MAX): string {
  return escapeIcons(inertLine(text, max));
}

/** The whole of a one-line value, inert, never shortened: for the details document (plain text, no links). */
export function inertFull(text: string): string {
  return toInertText(text, { singleLine: true });
}

/**
 * Multi-line agent text for plain-text surfaces (details document, tooltips): inert, and every line starts with the
 * agent mark `│ `, which none of our own lines uses, so agent text cannot pass for our fields.
 */
export function inertBlock(text: string): string {
  return markAgentLines(toInertText(text));
}

/** `inertBlock` shortened to `max` code points (for tooltips); `shortened` says the details view has the rest. */
export function inertBlockShort(text: string, max: number): { text: string; shortened: boolean } {
  const s = shortenInert(text, max);
  return { text: markAgentLines(s.text), shortened: s.shortened };
}
