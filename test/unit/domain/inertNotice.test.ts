import * as assert from 'node:assert/strict';
import { NOTICE_MAX_CHARS, inertNotice } from '../../../src/domain/inertNotice';

describe('domain/inertNotice (server text for a notification)', () => {
  it('breaks every [label](target) and $(icon) while keeping the words readable', () => {
    const r = inertNotice('[Renew key](command:workbench.action.terminal.sendSequence?x) $(shield) [a] (b) ok');
    assert.equal(r.shortened, false);
    assert.ok(!r.text.includes(']('), r.text);
    assert.ok(!r.text.includes('$('), r.text);
    assert.equal(
      r.text.replace(/\u200a/g, ''),
      '[Renew key](command:workbench.action.terminal.sendSequence?x) $(shield) [a] (b) ok',
    );
  });

  it('is one line with control and bidi characters shown as escapes', () => {
    const r = inertNotice('expired\n\u202Eyek\u0007');
    assert.equal(r.text, 'expired⏎⟨U+202E⟩yek\\x07');
  });

  it('a 1 MB message is shortened with an explicit … and says so (the whole text goes to the log)', () => {
    const r = inertNotice('x'.repeat(1024 * 1024));
    assert.equal(r.shortened, true);
    assert.equal(Array.from(r.text).length, NOTICE_MAX_CHARS);
    assert.ok(r.text.endsWith('…'));
  });
});

describe('domain/inertNotice: a server sentence inside one of ours', () => {
  it('drops the sentence\'s own closing punctuation, so "revoked." never reads "revoked.. Sign in again."', () => {
    const embed = (m: string) => `The Fountain server refused your key: ${inertNotice(m).text}. Sign in again.`;
    assert.equal(
      embed('This API key was revoked.'),
      'The Fountain server refused your key: This API key was revoked. Sign in again.',
    );
    assert.equal(embed('Expired!  '), 'The Fountain server refused your key: Expired. Sign in again.');
    assert.equal(embed('no punctuation'), 'The Fountain server refused your key: no punctuation. Sign in again.');
  });
});
