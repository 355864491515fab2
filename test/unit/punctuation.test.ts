// Every user-facing sentence: the l10n bundle (every vscode.l10n.t template of the sources, so every strings module),
// package.nls.json, and the server sentences the notifications embed. None may show doubled punctuation.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { inertNotice } from '../../src/domain/inertNotice';

const ROOT = path.resolve(__dirname, '../..');

/** Two sentence marks in a row (". .", "..", ".,", "!.", "?."); an ellipsis ("...", "…") is one mark. */
export function doubledPunctuation(text: string): string | undefined {
  const t = text.replace(/\.\.\./g, '…');
  const m = /[.!?,;:]\s*[.!?,;:](?=\s|$|["')\]])/.exec(t);
  return m ? t.slice(Math.max(0, m.index - 20), m.index + 4) : undefined;
}

/** The template with each `{n}` replaced by a server sentence that ends in a full stop, as inertNotice gives it. */
function withServerSentences(template: string): string {
  return template.replace(/\{\d+\}/g, inertNotice('This API key was revoked.').text);
}

describe('user-facing sentences: no doubled punctuation', () => {
  const bundle = JSON.parse(fs.readFileSync(path.join(ROOT, 'l10n/bundle.l10n.json'), 'utf8')) as Record<
    string,
    string
  >;
  const nls = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.nls.json'), 'utf8')) as Record<string, string>;

  it('the check itself finds what it must (and not an ellipsis or a path)', () => {
    assert.ok(doubledPunctuation('This API key was revoked.. Sign in again.'));
    assert.ok(doubledPunctuation('Done!.'));
    assert.ok(doubledPunctuation('a, . b'));
    assert.equal(doubledPunctuation('Wait... then go.'), undefined);
    assert.equal(doubledPunctuation('More…'), undefined);
    assert.equal(doubledPunctuation('(/etc/hosts, ./src/main.ts)'), undefined);
  });

  it('every l10n template and every package.nls.json string', () => {
    assert.ok(Object.keys(bundle).length > 100);
    const bad = [...Object.keys(bundle), ...Object.values(nls)].filter((s) => doubledPunctuation(s));
    assert.deepEqual(bad, []);
  });

  it('every l10n template with a server sentence in each placeholder (inertNotice drops its closing stop)', () => {
    const bad = Object.keys(bundle)
      .filter((k) => /\{\d+\}/.test(k))
      .map(withServerSentences)
      .filter((s) => doubledPunctuation(s));
    assert.deepEqual(bad, []);
  });
});
