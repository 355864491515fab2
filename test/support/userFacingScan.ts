/**
 * What a person must never read in the extension's own words: the HTTP status line, a status code where an error is
 * described, a route of the server's API, or a UUID (an id instead of a name). Those belong in the log. Used on the
 * l10n bundles and manifest strings (unit tier) and on every notification the UI tests saw (UI tier).
 */
const RULES: readonly { readonly why: string; readonly re: RegExp }[] = [
  { why: 'the word HTTP with a status or version', re: /\bHTTP(?:\s|\/\d)/ },
  {
    why: 'a status code in an error context',
    re: /\b(?:status|code|error|answered|refused|failed|returned|got)\b[^.\n]{0,16}?\b[1-5]\d{2}\b|\(\s*[45]\d{2}\b|\b[45]\d{2}\s+[a-z]+_[a-z_]+\b/i,
  },
  { why: 'a route of the API', re: /\/api\// },
  { why: 'a UUID', re: /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/i },
];

export interface Offender {
  readonly where: string;
  readonly text: string;
  readonly why: string;
}

/** Every text that breaks a rule, with the rule (empty when all are clean). */
export function userFacingOffenders(texts: readonly { where: string; text: string }[]): Offender[] {
  const out: Offender[] = [];
  for (const { where, text } of texts) {
    for (const r of RULES) {
      if (r.re.test(text)) {
        out.push({ where, text, why: r.why });
      }
    }
  }
  return out;
}

/** The offenders as a failure message, one per line. */
export function describeOffenders(offenders: readonly Offender[]): string {
  return offenders.map((o) => `${o.where}: ${o.why}: ${JSON.stringify(o.text)}`).join('\n');
}
