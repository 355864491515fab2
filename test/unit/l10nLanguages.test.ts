// Every language shipped is complete: each l10n/bundle.l10n.<lang>.json has every key of the English bundle and each
// package.nls.<lang>.json every key of package.nls.json, with the same placeholders. The keys come from the English
// files, so a string added later fails here until it is translated.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { doubledPunctuation } from './punctuation.test';

const ROOT = path.resolve(__dirname, '../..');
const read = (rel: string) => JSON.parse(fs.readFileSync(path.join(ROOT, rel), 'utf8')) as Record<string, string>;

/** What a translation must keep verbatim: `{0}`/`{name}`, `$(icon)`, `(command:…)` links and `#setting.id#`. */
export function markers(text: string): string[] {
  const found = [
    ...text.matchAll(/\{[A-Za-z0-9_]+\}/g),
    ...text.matchAll(/\$\([a-z0-9~-]+\)/g),
    ...text.matchAll(/\(command:[^)\s]+\)/g),
    ...text.matchAll(/#[a-z][\w.]+#/g),
  ].map((m) => m[0]);
  return found.sort();
}

/** Keys the translation lacks or has beyond the English, and the keys whose markers differ. */
export function compareTranslation(
  english: Record<string, string>,
  translated: Record<string, string>,
  source: 'key' | 'value',
): { missing: string[]; stale: string[]; markers: string[] } {
  const missing = Object.keys(english).filter((k) => typeof translated[k] !== 'string' || translated[k].trim() === '');
  const stale = Object.keys(translated).filter((k) => !(k in english));
  const markerDiffs = Object.keys(english)
    .filter((k) => typeof translated[k] === 'string')
    .filter((k) => markers(source === 'key' ? k : english[k]).join(' ') !== markers(translated[k]).join(' '))
    .map(
      (k) =>
        `${JSON.stringify(k)}\n      English: ${markers(source === 'key' ? k : english[k]).join(' ') || '(none)'}\n      here:    ${markers(translated[k]).join(' ') || '(none)'}`,
    );
  return { missing, stale, markers: markerDiffs };
}

function languagesOf(dir: string, pattern: RegExp): { lang: string; file: string }[] {
  return fs
    .readdirSync(path.join(ROOT, dir))
    .map((f) => pattern.exec(f))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ lang: m[1], file: path.posix.join(dir, m[0]) }));
}

const bundles = languagesOf('l10n', /^bundle\.l10n\.([a-z]{2}(?:-[a-z]{2})?)\.json$/);
const manifests = languagesOf('.', /^package\.nls\.([a-z]{2}(?:-[a-z]{2})?)\.json$/);

function report(file: string, r: ReturnType<typeof compareTranslation>): string {
  const list = (title: string, lines: string[]) =>
    lines.length ? [`  ${title} (${lines.length}):`, ...lines.map((l) => `    ${l}`)] : [];
  const quoted = (keys: string[]) => keys.map((k) => JSON.stringify(k));
  return [
    `${file} is not complete:`,
    ...list('missing keys, translate them', quoted(r.missing)),
    ...list('keys the English file no longer has, remove them', quoted(r.stale)),
    ...list('placeholders, icons, command links or setting references changed', r.markers),
  ].join('\n');
}

describe('shipped languages: every key translated, every placeholder kept', () => {
  const englishBundle = read('l10n/bundle.l10n.json');
  const englishNls = read('package.nls.json');

  it('German ships in both files (the manifest strings and the code strings)', () => {
    assert.ok(
      bundles.some((b) => b.lang === 'de'),
      'l10n/bundle.l10n.de.json',
    );
    assert.ok(
      manifests.some((m) => m.lang === 'de'),
      'package.nls.de.json',
    );
    assert.deepEqual(
      bundles.map((b) => b.lang),
      manifests.map((m) => m.lang),
      'each language has both files',
    );
  });

  for (const { lang, file } of bundles) {
    it(`${file}: every key of l10n/bundle.l10n.json, placeholders kept`, () => {
      const r = compareTranslation(englishBundle, read(file), 'key');
      assert.ok(r.missing.length + r.stale.length + r.markers.length === 0, report(file, r));
    });
    it(`${file}: translated, not copied, and no doubled punctuation (${lang})`, () => {
      const t = read(file);
      const copied = Object.keys(englishBundle).filter((k) => t[k] === k);
      assert.ok(copied.length < Object.keys(englishBundle).length * 0.1, `${copied.length} strings are the English`);
      assert.deepEqual(
        Object.values(t).filter((s) => doubledPunctuation(s)),
        [],
      );
    });
  }

  for (const { lang, file } of manifests) {
    it(`${file}: every key of package.nls.json, placeholders and links kept (${lang})`, () => {
      const r = compareTranslation(englishNls, read(file), 'value');
      assert.ok(r.missing.length + r.stale.length + r.markers.length === 0, report(file, r));
    });
  }

  it('the check finds a missing key, a stale key and a changed placeholder, and names each', () => {
    const r = compareTranslation(
      { 'Allow {0}': 'Allow {0}', '$(check) Review': '$(check) Review', 'Sign In': 'Sign In' },
      { 'Allow {0}': '{1} erlauben', '$(check) Review': 'Prüfen', 'Old key': 'Alt' },
      'key',
    );
    assert.deepEqual(r.missing, ['Sign In']);
    assert.deepEqual(r.stale, ['Old key']);
    assert.equal(r.markers.length, 2);
    assert.match(report('x.json', r), /missing keys, translate them \(1\):\n {4}"Sign In"/);
    const nls = compareTranslation(
      { a: 'Open [Settings](command:workbench.action.openSettings) for #fountain.local.allow#' },
      { a: 'Öffne [Einstellungen](command:workbench.action.openSettings) für fountain.local.allow' },
      'value',
    );
    assert.equal(nls.markers.length, 1, 'a setting reference that lost its #…# marks');
  });
});
