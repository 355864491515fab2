import * as assert from 'node:assert/strict';
import { formatDateTime, formatTimeAgo, formatTimeLeft } from '../../../src/domain/timeFormat';

describe('time formatting in the display language', () => {
  it('a time-ago comes out in German and French, whole, from Intl', () => {
    assert.equal(formatTimeAgo(12_000, 'de'), 'vor 12 Sekunden');
    assert.equal(formatTimeAgo(3 * 60_000 + 10_000, 'fr'), 'il y a 3 minutes');
    assert.equal(formatTimeAgo(2 * 3_600_000, 'de'), 'vor 2 Stunden');
    assert.equal(formatTimeAgo(1_000, 'de'), 'jetzt');
    assert.equal(formatTimeAgo(12_000, 'en'), '12 seconds ago');
  });

  it('a countdown of days and hours comes out in German units, never "2d 3h"', () => {
    const ms = (2 * 86_400 + 3 * 3_600 + 5) * 1000;
    const de = formatTimeLeft(ms, 'de');
    assert.match(de, /^2\s?T\.?, 3\s?(Std\.|h)$/u, de); // "T" (Tag): German, not English "d"
    const fr = formatTimeLeft(ms, 'fr');
    assert.match(fr, /^2\s?j,? 3\s?h$/u, fr);
    assert.notEqual(de, '2d 3h');
  });

  it('a countdown under a day is digital, in the locale digits, rounded up; 0:00 once overdue', () => {
    assert.equal(formatTimeLeft(299_001, 'de'), '5:00');
    assert.equal(formatTimeLeft(3_723_000, 'fr'), '1:02:03');
    assert.equal(formatTimeLeft(65_000, 'ar-EG'), '١:٠٥');
    assert.equal(formatTimeLeft(-5, 'de'), '0:00');
  });

  it('an English countdown (made without Intl) is what Intl.NumberFormat writes, at every second under a day', () => {
    for (const locale of ['en', 'en-US', 'en-GB', 'EN-us']) {
      const nf = new Intl.NumberFormat(locale, { useGrouping: false });
      const two = new Intl.NumberFormat(locale, { minimumIntegerDigits: 2, useGrouping: false });
      for (let s = 0; s < 86_400; s += 7) {
        const [h, m, sec] = [Math.floor(s / 3600), Math.floor((s % 3600) / 60), s % 60];
        const intl =
          h > 0 ? `${nf.format(h)}:${two.format(m)}:${two.format(sec)}` : `${nf.format(m)}:${two.format(sec)}`;
        assert.equal(formatTimeLeft(s * 1000, locale), intl, `${locale} ${s} s`);
      }
    }
    // Any other tag goes through Intl, with its own digits (an English tag with a numbering extension too).
    assert.equal(formatTimeLeft(65_000, 'en-u-nu-arab'), '١:٠٥');
  });

  it('dates are local-time, localised, to the second, without milliseconds or ISO "Z"', () => {
    const at = Date.UTC(2026, 10, 30, 2, 0, 52, 618);
    assert.equal(formatDateTime(at, 'de', 'Europe/Berlin'), '30.11.2026, 03:00:52');
    assert.equal(formatDateTime(at, 'en-US', 'America/New_York'), 'Nov 29, 2026, 9:00:52 PM');
  });

  it('an unknown or empty locale falls back to the default instead of throwing', () => {
    assert.equal(typeof formatTimeAgo(12_000, 'not a locale!'), 'string');
    assert.equal(formatTimeLeft(65_000, ''), '1:05');
  });
});
