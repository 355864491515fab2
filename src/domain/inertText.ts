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
  const ch = String.fromCodePoint(cp);
  return CATEGORY.test(ch) || EXTRA_INVISIBLE.some(([lo, hi]) => cp >= lo && cp <= hi);
}

/**
 * Splits text into display segments; each segment is either literal safe text or one escape. Used so that shortening
 * never cuts an escape (or a surrogate pair) in half.
 */
function segments(text: string, opts: InertOptions): string[] {
  const out: string[] = [];
  let plain = '';
  const flush = () => {
    if (plain) {
      // One push per character: spreading a long run into push() overflows the stack (a 1 MB line).
      for (const ch of plain) {
        out.push(ch);
      }
      plain = '';
    }
  };
  const chars = Array.from(text);
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i];
    const cp = ch.codePointAt(0)!;
    // A lone surrogate survives Array.from as a one-unit string; codePointAt gives the surrogate itself.
    if (ch === '\r' && chars[i + 1] === '\n') {
      continue; // CRLF reads as one line break, handled on the LF
    }
    if (ch === '\n') {
      flush();
      out.push(opts.singleLine ? '⏎' : '\n');
    } else if (ch === '\t') {
      flush();
      out.push(opts.singleLine ? '⇥' : '\t');
    } else if (isUnsafeCodePoint(cp)) {
      flush();
      out.push(escapeCodePoint(cp));
    } else {
      plain += ch;
    }
  }
  flush();
  return out;
}

/**
 * Returns `text` with every control, bidi and invisible formatting character shown as an escape (`\x1b`,
 * `⟨U+202E⟩`). Newlines (LF, CRLF) and tabs are kept unless `singleLine`, which shows them as `⏎`/`⇥`.
 * A lone CR is always escaped (it can overwrite a line in a terminal).
 */
export function toInertText(text: string, opts: InertOptions = {}): string {
  return segments(text, opts).join('');
}

export interface ShortenedText {
  /** The inert, single-line text, ending with `…` when shortened. */
  readonly text: string;
  /** True when characters were dropped: the caller must make the full text reachable (tooltip, details view). */
  readonly shortened: boolean;
}

/**
 * Makes text inert and single-line, then shortens it to at most `maxChars` display characters (code points; an
 * escape counts as its visible length and is never cut), ending with an explicit `…` when anything was dropped.
 */
export function shortenForLabel(text: string, maxChars: number): ShortenedText {
  const max = Math.max(1, Math.floor(maxChars));
  const segs = segments(text, { singleLine: true });
  const lengthOf = (s: string) => Array.from(s).length;
  const total = segs.reduce((n, s) => n + lengthOf(s), 0);
  if (total <= max) {
    return { text: segs.join(''), shortened: false };
  }
  let out = '';
  let used = 0;
  for (const s of segs) {
    const len = lengthOf(s);
    if (used + len > max - 1) {
      break;
    }
    out += s;
    used += len;
  }
  return { text: `${out}…`, shortened: true };
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
