/**
 * Making agent text inert for display. Titles, commands, option names and paths come from agents and may be
 * prompt-injected: control characters could drive a terminal, and bidi/invisible formatting characters could make
 * `rm -rf ~ #‮ txt.fdp` read as something harmless. Every such character is turned into a visible escape, so what
 * the user reads is what the agent sent.
 */

export interface InertOptions {
  /** Turn line breaks into `⏎` and tabs into `⇥`, for one-line surfaces (tree labels, toasts). Default false. */
  readonly singleLine?: boolean;
}

/**
 * Invisible or reordering characters that are not already control (Cc) or format (Cf) characters:
 * line/paragraph separators, combining grapheme joiner, Hangul fillers, Khmer inherent vowels, Mongolian
 * variation selectors, variation selectors (except U+FE0F, the emoji presentation selector) and their supplement.
 */
const EXTRA_INVISIBLE: ReadonlyArray<readonly [number, number]> = [
  [0x034f, 0x034f],
  [0x115f, 0x1160],
  [0x17b4, 0x17b5],
  [0x180b, 0x180d],
  [0x180f, 0x180f],
  [0x2028, 0x2029],
  [0x3164, 0x3164],
  [0xfe00, 0xfe0e],
  [0xffa0, 0xffa0],
  [0xe0100, 0xe01ef],
];
/** Control characters (C0, DEL, C1), format characters (bidi marks and embeddings, zero-width, BOM, tags…), lone surrogates. */
const CATEGORY = /[\p{Cc}\p{Cf}\p{Cs}]/u;

/** The visible escape for one code point: `\x1b` for C0/DEL/C1 controls, `⟨U+202E⟩` for everything else. */
export function escapeCodePoint(cp: number): string {
  if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f)) {
    return `\\x${cp.toString(16).padStart(2, '0')}`;
  }
  return `⟨U+${cp.toString(16).toUpperCase().padStart(4, '0')}⟩`;
}

/** True when the code point is rendered as an escape (whatever the newline/tab handling). */
export function isUnsafeCodePoint(cp: number): boolean {
  if (cp >= 0x20 && cp < 0x7f) {
    return false; // printable ASCII: the common case, decided without a regex
  }
  return CATEGORY.test(String.fromCodePoint(cp)) || EXTRA_INVISIBLE.some(([lo, hi]) => cp >= lo && cp <= hi);
}

/** What one code point displays as when it is not literal text; undefined for literal (safe) text. */
function escapeOf(text: string, i: number, cp: number, singleLine: boolean): string | undefined {
  if (cp === 0x0d && text.charCodeAt(i + 1) === 0x0a) {
    return ''; // CRLF reads as one line break, handled on the LF
  }
  if (cp === 0x0a) {
    return singleLine ? '⏎' : '\n';
  }
  if (cp === 0x09) {
    return singleLine ? '⇥' : '\t';
  }
  return isUnsafeCodePoint(cp) ? escapeCodePoint(cp) : undefined;
}

/** Text that renders as itself on every surface: printable ASCII only (no line break, tab or control). */
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

interface Rendered {
  readonly text: string;
  /** Display width of `text` in code points (an escape counts as its visible length). */
  readonly width: number;
  /** True when the input did not fit in `limit`. */
  readonly cut: boolean;
}

/**
 * One pass over `text` (linear in the part rendered; nothing is spread or split into per-character arrays, so any
 * length works): literal runs are sliced from the input, every unsafe code point becomes its escape. Stops before the
 * first piece that would take the width past `limit`, so an escape or a surrogate pair is never cut in half.
 */
function render(text: string, singleLine: boolean, limit = Infinity): Rendered {
  if (text.length <= limit && PRINTABLE_ASCII.test(text)) {
    return { text, width: text.length, cut: false }; // the common case: nothing to escape, nothing to cut
  }
  const parts: string[] = [];
  let width = 0;
  let runStart = 0;
  let i = 0;
  let cut = false;
  while (i < text.length) {
    const cp = text.codePointAt(i)!;
    // A lone surrogate reads as itself (a Cs code point, escaped); a pair as one code point of two units.
    const size = cp > 0xffff ? 2 : 1;
    const esc = escapeOf(text, i, cp, singleLine);
    const w = esc === undefined ? 1 : esc.length;
    if (width + w > limit) {
      cut = true;
      break;
    }
    width += w;
    if (esc !== undefined) {
      if (runStart < i) {
        parts.push(text.slice(runStart, i));
      }
      parts.push(esc);
      runStart = i + size;
    }
    i += size;
  }
  if (runStart < i) {
    parts.push(text.slice(runStart, i));
  }
  return { text: parts.join(''), width, cut };
}

/**
 * Returns `text` with every control, bidi and invisible formatting character shown as an escape (`\x1b`,
 * `⟨U+202E⟩`). Newlines (LF, CRLF) and tabs are kept unless `singleLine`, which shows them as `⏎`/`⇥`.
 * A lone CR is always escaped (it can overwrite a line in a terminal). Linear in the length of `text`.
 */
export function toInertText(text: string, opts: InertOptions = {}): string {
  return render(text, opts.singleLine === true).text;
}

export interface ShortenedText {
  /** The inert text, ending with `…` when shortened. */
  readonly text: string;
  /** True when characters were dropped: the caller must make the full text reachable (tooltip, details view). */
  readonly shortened: boolean;
}

/**
 * Makes text inert and shortens it to at most `maxChars` display characters (code points; an escape counts as its
 * visible length and is never cut), ending with an explicit `…` when anything was dropped. Reads only as much of
 * `text` as it shows, so a 1 MB input costs what the label costs.
 */
export function shortenInert(text: string, maxChars: number, opts: InertOptions = {}): ShortenedText {
  const max = Math.max(1, Math.floor(maxChars));
  const singleLine = opts.singleLine === true;
  const whole = render(text, singleLine, max);
  if (!whole.cut) {
    return { text: whole.text, shortened: false };
  }
  return { text: `${render(text, singleLine, max - 1).text}…`, shortened: true };
}

/** `shortenInert` on one line: line breaks and tabs show as `⏎`/`⇥`. */
export function shortenForLabel(text: string, maxChars: number): ShortenedText {
  return shortenInert(text, maxChars, { singleLine: true });
}

/**
 * The mark in front of every line of agent text in multi-line plain-text surfaces (tree tooltips, the details
 * document). None of our own lines starts with it, so a title with a forged `Kind: read` line reads as `│ Kind: read`.
 */
export const AGENT_LINE_MARK = '│ ';

/** Prefixes every line of (already inert, multi-line) agent text with AGENT_LINE_MARK. Linear. */
export function markAgentLines(inert: string): string {
  return AGENT_LINE_MARK + inert.replace(/\n/g, `\n${AGENT_LINE_MARK}`);
}

/**
 * For surfaces that draw `$(name)` as an icon (QuickPick label/description/detail, status bar text): every icon
 * reference gets VS Code's escape `\$(`, which those surfaces show as a literal `$(`. Matches VS Code's own icon
 * syntax (`$(name)` or `$(name~modifier)`), so other `$(` text is left as is (there the backslash would show).
 */
export function escapeIcons(text: string): string {
  return text.replace(/\$\((?=[A-Za-z0-9-]+(?:~[A-Za-z]+)?\))/g, '\\$(');
}

/** A duration in the largest whole unit, for "12 s ago" style text. The UI localises from `unit` and `value`. */
export interface TimeAgo {
  readonly unit: 'justNow' | 'seconds' | 'minutes' | 'hours' | 'days';
  readonly value: number;
  /** Plain English fallback, e.g. `12 s ago`, `just now`. */
  readonly english: string;
}

/** Describes an elapsed time (ms; negative or under 5 s reads as "just now"). */
export function describeTimeAgo(ms: number): TimeAgo {
  const s = Math.floor(Math.max(0, ms) / 1000);
  if (s < 5) {
    return { unit: 'justNow', value: 0, english: 'just now' };
  }
  if (s < 60) {
    return { unit: 'seconds', value: s, english: `${s} s ago` };
  }
  const m = Math.floor(s / 60);
  if (m < 60) {
    return { unit: 'minutes', value: m, english: `${m} min ago` };
  }
  const h = Math.floor(m / 60);
  if (h < 24) {
    return { unit: 'hours', value: h, english: `${h} h ago` };
  }
  const d = Math.floor(h / 24);
  return { unit: 'days', value: d, english: `${d} d ago` };
}

/** Time left until a deadline, split into parts; `overdue` when the deadline has passed (parts are then zero). */
export interface Countdown {
  readonly overdue: boolean;
  readonly totalSeconds: number;
  readonly days: number;
  readonly hours: number;
  readonly minutes: number;
  readonly seconds: number;
  /** Compact text: `4:59`, `1:02:03`, `2d 3h`; `0:00` when overdue. */
  readonly text: string;
}

/** Formats time remaining (ms) as a countdown. Rounds up, so `0:00` appears only once the deadline has passed. */
export function formatCountdown(ms: number): Countdown {
  const overdue = ms <= 0;
  const total = overdue ? 0 : Math.ceil(ms / 1000);
  const days = Math.floor(total / 86400);
  const hours = Math.floor((total % 86400) / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  const pad = (n: number) => String(n).padStart(2, '0');
  let text: string;
  if (days > 0) {
    text = `${days}d ${hours}h`;
  } else if (hours > 0) {
    text = `${hours}:${pad(minutes)}:${pad(seconds)}`;
  } else {
    text = `${minutes}:${pad(seconds)}`;
  }
  return { overdue, totalSeconds: total, days, hours, minutes, seconds, text };
}
