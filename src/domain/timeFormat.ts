/**
 * Times and durations for people, in their language, through `Intl` only (no English spliced into sentences).
 * Pure: the caller passes the locale (the VS Code side passes `vscode.env.language`), so tests can pass `de` or `fr`.
 * Dates are in the local time zone unless `timeZone` is given.
 */
import { describeTimeAgo, formatCountdown } from './inertText';

const cache = new Map<string, object>();

function cached<T extends object>(key: string, make: () => T): T {
  let v = cache.get(key) as T | undefined;
  if (!v) {
    v = make();
    cache.set(key, v);
  }
  return v;
}

const canonical = new Map<string, string | undefined>();

/** `locale` if Intl knows it, else the runtime's default (an unknown tag would throw); one Intl ask per tag. */
function safeLocale(locale: string | undefined): string | undefined {
  if (!locale) {
    return undefined;
  }
  if (canonical.has(locale)) {
    return canonical.get(locale);
  }
  let loc: string | undefined;
  try {
    loc = Intl.getCanonicalLocales(locale)[0];
  } catch {
    loc = undefined;
  }
  canonical.set(locale, loc);
  return loc;
}

/**
 * The numbers 0–59 in the locale's digits, plain and two-digit (`7`, `07`): every field of a countdown under a day.
 * Made once per locale by Intl.NumberFormat (a tree of 10,000 rows would otherwise format 20,000 numbers a render).
 */
function clockDigits(loc: string | undefined): { readonly plain: readonly string[]; readonly two: readonly string[] } {
  return cached(`clock:${loc}`, () => {
    const nf = new Intl.NumberFormat(loc, { useGrouping: false });
    const two = new Intl.NumberFormat(loc, { minimumIntegerDigits: 2, useGrouping: false });
    const n = Array.from({ length: 60 }, (_, i) => i);
    return { plain: n.map((i) => nf.format(i)), two: n.map((i) => two.format(i)) };
  });
}

/** "12 seconds ago", "vor 12 Sekunden", "il y a 3 minutes"; under 5 s: "now", "jetzt", "maintenant". */
export function formatTimeAgo(elapsedMs: number, locale?: string): string {
  const loc = safeLocale(locale);
  const rtf = cached(`rtf:${loc}`, () => new Intl.RelativeTimeFormat(loc, { numeric: 'auto' }));
  const d = describeTimeAgo(elapsedMs);
  switch (d.unit) {
    case 'justNow':
      return rtf.format(0, 'second');
    case 'seconds':
      return rtf.format(-d.value, 'second');
    case 'minutes':
      return rtf.format(-d.value, 'minute');
    case 'hours':
      return rtf.format(-d.value, 'hour');
    case 'days':
      return rtf.format(-d.value, 'day');
  }
}

interface DurationFormatLike {
  format(d: Record<string, number>): string;
}
type DurationFormatCtor = new (locale: string | undefined, opts: Record<string, string>) => DurationFormatLike;

/** `Intl.DurationFormat` where the runtime has it (Node 23+, recent Electron); Node 20 lacks it. */
function durationFormat(loc: string | undefined, style: 'narrow' | 'digital'): DurationFormatLike | undefined {
  const Ctor = (Intl as unknown as { DurationFormat?: DurationFormatCtor }).DurationFormat;
  return Ctor ? cached(`df:${style}:${loc}`, () => new Ctor(loc, { style })) : undefined;
}

/** English, alone or with a region: its countdown digits are ASCII (CLDR: the latn numbering system). */
const ASCII_CLOCK = /^en(-[a-z]{2})?$/i;

/**
 * Time left until a deadline: `4:59` or `1:02:03` under a day (digits in the locale's numbering system), and
 * `2d, 3h` / `2 T, 3h` beyond (Intl.DurationFormat, or NumberFormat units joined by ListFormat on Node 20).
 * `0:00` once the deadline has passed.
 */
export function formatTimeLeft(remainingMs: number, locale?: string): string {
  const c = formatCountdown(remainingMs);
  if (c.days === 0 && locale !== undefined && ASCII_CLOCK.test(locale)) {
    return c.text; // what Intl gives in English, without loading Intl's data (tens of ms once per process)
  }
  const loc = safeLocale(locale);
  if (c.days > 0) {
    const df = durationFormat(loc, 'narrow');
    if (df) {
      return df.format({ days: c.days, hours: c.hours });
    }
    const unit = (u: 'day' | 'hour', n: number) =>
      cached(
        `nf:${u}:${loc}`,
        () => new Intl.NumberFormat(loc, { style: 'unit', unit: u, unitDisplay: 'narrow' }),
      ).format(n);
    const list = cached(`lf:${loc}`, () => new Intl.ListFormat(loc, { type: 'unit', style: 'narrow' }));
    return list.format(c.hours > 0 ? [unit('day', c.days), unit('hour', c.hours)] : [unit('day', c.days)]);
  }
  const d = clockDigits(loc);
  return c.hours > 0
    ? `${d.plain[c.hours]}:${d.two[c.minutes]}:${d.two[c.seconds]}`
    : `${d.plain[c.minutes]}:${d.two[c.seconds]}`;
}

/** Date and time to the second, e.g. `1 Dec 2026, 07:02:03` / `01.12.2026, 07:02:03`, local time. */
export function formatDateTime(epochMs: number, locale?: string, timeZone?: string): string {
  const loc = safeLocale(locale);
  return cached(
    `dtf:${loc}:${timeZone}`,
    () => new Intl.DateTimeFormat(loc, { dateStyle: 'medium', timeStyle: 'medium', timeZone }),
  ).format(epochMs);
}

/** Time of day to the second, local time. */
export function formatTimeOfDay(epochMs: number, locale?: string, timeZone?: string): string {
  const loc = safeLocale(locale);
  return cached(`tf:${loc}:${timeZone}`, () => new Intl.DateTimeFormat(loc, { timeStyle: 'medium', timeZone })).format(
    epochMs,
  );
}
