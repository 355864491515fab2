import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describeOffenders, userFacingOffenders } from '../support/userFacingScan';

const ROOT = path.resolve(__dirname, '../..');

/** Every string a person reads from the shipped files: each bundle's keys and values, each manifest file's values. */
function shippedStrings(): { where: string; text: string }[] {
  const files = [
    ...fs
      .readdirSync(path.join(ROOT, 'l10n'))
      .filter((f) => /^bundle\.l10n(\.[\w-]+)?\.json$/.test(f))
      .map((f) => `l10n/${f}`),
    ...fs.readdirSync(ROOT).filter((f) => /^package\.nls(\.[\w-]+)?\.json$/.test(f)),
  ];
  return files.flatMap((file) => {
    const j = JSON.parse(fs.readFileSync(path.join(ROOT, file), 'utf8')) as Record<string, string>;
    const isBundle = file.startsWith('l10n/');
    return Object.entries(j).flatMap(([k, v]) => [
      ...(isBundle ? [{ where: `${file} key`, text: k }] : []),
      { where: `${file} ${isBundle ? 'value' : k}`, text: v },
    ]);
  });
}

describe('user-facing strings: no HTTP status, status code, route or UUID (those go to the log)', () => {
  it('every string of the l10n bundles and package.nls*.json, in every language', () => {
    const texts = shippedStrings();
    assert.ok(texts.length > 1000, `${texts.length} strings: the English and German bundles and manifests`);
    const bad = userFacingOffenders(texts);
    assert.equal(bad.length, 0, describeOffenders(bad));
  });

  it('the rules catch what the issue found, and pass plain words, ports, timeouts and version numbers', () => {
    const found = (text: string) => userFacingOffenders([{ where: 't', text }]).map((o) => o.why);
    assert.deepEqual(found('the server refused it (HTTP 403 forbidden)'), [
      'the word HTTP with a status or version',
      'a status code in an error context',
    ]);
    assert.deepEqual(found('GET /api/agents/claude failed: 404 not_found'), [
      'a status code in an error context',
      'a route of the API',
    ]);
    assert.deepEqual(found('The server answered 418 to the answer'), ['a status code in an error context']);
    assert.deepEqual(found('The server refused to read the sandbox (403).'), ['a status code in an error context']);
    assert.deepEqual(found('Conversation 72300100-1d28-45a8-bb0c-e86785cab885 on x'), ['a UUID']);
    for (const fine of [
      'The server refused the reason: your key may not send prompts. Show Logs has the details.',
      'Signed in to http://127.0.0.1:43117 as dev@example.com.',
      'Seconds a request waits for your answer before its reject option is sent (default 300).',
      'in-turn request: the server gives up after 5 minutes',
      'claude-agent-acp 0.23.1',
    ]) {
      assert.deepEqual(found(fine), [], fine);
    }
  });
});
