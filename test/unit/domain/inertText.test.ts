import * as assert from 'node:assert/strict';
import {
  describeTimeAgo,
  escapeCodePoint,
  formatCountdown,
  AGENT_LINE_MARK,
  escapeIcons,
  isUnsafeCodePoint,
  markAgentLines,
  shortenForLabel,
  shortenInert,
  toInertText,
} from '../../../src/domain/inertText';

/** Every bidi control and invisible formatting character the inbox must never render raw. */
const BIDI_AND_INVISIBLE = [
  0x061c, // ARABIC LETTER MARK
  0x200b,
  0x200c,
  0x200d,
  0x200e,
  0x200f, // zero-width space/non-joiner/joiner, LRM, RLM
  0x2028,
  0x2029, // line / paragraph separator
  0x202a,
  0x202b,
  0x202c,
  0x202d,
  0x202e, // LRE RLE PDF LRO RLO
  0x2060,
  0x2061,
  0x2062,
  0x2063,
  0x2064, // word joiner, invisible operators
  0x2066,
  0x2067,
  0x2068,
  0x2069, // LRI RLI FSI PDI
  0x206a,
  0x206f, // deprecated format characters
  0xfeff, // BOM / ZWNBSP
  0x00ad, // soft hyphen
  0x034f, // combining grapheme joiner
  0x115f,
  0x1160,
  0x3164,
  0xffa0, // Hangul fillers
  0x180e, // Mongolian vowel separator
  0xfe00,
  0xfe0e, // variation selectors
  0xe0001,
  0xe0041,
  0xe007f, // tag characters (ASCII smuggling)
  0xe0100, // variation selector supplement
];

describe('inertText', () => {
  describe('toInertText', () => {
    for (const cp of BIDI_AND_INVISIBLE) {
      const hex = cp.toString(16).toUpperCase().padStart(4, '0');
      it(`shows U+${hex} as a visible escape`, () => {
        const out = toInertText(`a${String.fromCodePoint(cp)}b`);
        assert.equal(out, `a⟨U+${hex}⟩b`);
        assert.ok(!out.includes(String.fromCodePoint(cp)));
      });
    }

    it('keeps a 1 MB run of plain text whole (no stack overflow), with an escape after it', () => {
      const big = 'x'.repeat(1024 * 1024);
      assert.equal(toInertText(`${big}\u202E`), `${big}⟨U+202E⟩`);
    });

    it('escapes every C0 control except LF and TAB, DEL and every C1 control as \\xNN', () => {
      const cps = [
        ...Array.from({ length: 0x20 }, (_, i) => i),
        0x7f,
        ...Array.from({ length: 0x20 }, (_, i) => 0x80 + i),
      ];
      for (const cp of cps) {
        if (cp === 0x0a || cp === 0x09) {
          continue;
        }
        const out = toInertText(`x${String.fromCodePoint(cp)}y`);
        assert.equal(out, `x\\x${cp.toString(16).padStart(2, '0')}y`, `code point ${cp}`);
      }
    });

    it('shows an ANSI escape sequence as text', () => {
      assert.equal(toInertText('\x1b[31mred\x1b[0m'), '\\x1b[31mred\\x1b[0m');
    });

    it('keeps newlines, CRLF and tabs by default, but escapes a lone CR', () => {
      assert.equal(toInertText('a\nb\r\nc\td\re'), 'a\nb\nc\td\\x0de');
    });

    it('singleLine shows newlines and tabs as ⏎ and ⇥', () => {
      assert.equal(toInertText('a\nb\r\nc\td', { singleLine: true }), 'a⏎b⏎c⇥d');
    });

    it('escapes lone surrogates but keeps astral characters and emoji', () => {
      assert.equal(toInertText('a\uD800b'), 'a⟨U+D800⟩b');
      assert.equal(toInertText('ok 😀 ✔️ 中文'), 'ok 😀 ✔️ 中文');
    });

    it('defuses a Trojan Source style filename', () => {
      const hostile = 'rm -rf ~ #\u202Etxt.fdp';
      assert.equal(toInertText(hostile), 'rm -rf ~ #⟨U+202E⟩txt.fdp');
    });

    it('leaves ordinary text unchanged', () => {
      const plain = 'git push --force origin main — “quoted” ünïcödé';
      assert.equal(toInertText(plain), plain);
    });

    it('classifies code points consistently with the escaping', () => {
      assert.equal(isUnsafeCodePoint(0x41), false);
      assert.equal(isUnsafeCodePoint(0x202e), true);
      assert.equal(escapeCodePoint(0x1b), '\\x1b');
      assert.equal(escapeCodePoint(0x202e), '⟨U+202E⟩');
    });
  });

  describe('shortenForLabel', () => {
    it('returns short text unchanged with shortened=false', () => {
      assert.deepEqual(shortenForLabel('ls -la', 20), { text: 'ls -la', shortened: false });
    });

    it('cuts long text with an explicit ellipsis and says so', () => {
      const r = shortenForLabel('abcdefghijklmnopqrstuvwxyz', 10);
      assert.equal(r.shortened, true);
      assert.equal(r.text, 'abcdefghi…');
      assert.equal(Array.from(r.text).length, 10);
    });

    it('text of exactly max length is not shortened', () => {
      assert.deepEqual(shortenForLabel('abcde', 5), { text: 'abcde', shortened: false });
    });

    it('is single-line and inert', () => {
      assert.deepEqual(shortenForLabel('a\nb\u202Ec', 40), { text: 'a⏎b⟨U+202E⟩c', shortened: false });
    });

    it('never cuts an escape or a surrogate pair in half', () => {
      const r = shortenForLabel('abc\u202Edefgh', 6);
      assert.equal(r.text, 'abc…');
      assert.equal(r.shortened, true);
      const e = shortenForLabel('ab😀😀😀😀', 4);
      assert.equal(e.text, 'ab😀…');
    });
  });

  describe('describeTimeAgo', () => {
    const cases: Array<[number, string, number, string]> = [
      [-1000, 'justNow', 0, 'just now'],
      [4999, 'justNow', 0, 'just now'],
      [12_000, 'seconds', 12, '12 s ago'],
      [59_999, 'seconds', 59, '59 s ago'],
      [60_000, 'minutes', 1, '1 min ago'],
      [3_599_999, 'minutes', 59, '59 min ago'],
      [7_200_000, 'hours', 2, '2 h ago'],
      [3 * 86_400_000, 'days', 3, '3 d ago'],
    ];
    for (const [ms, unit, value, english] of cases) {
      it(`${ms} ms → ${english}`, () => {
        assert.deepEqual(describeTimeAgo(ms), { unit, value, english });
      });
    }
  });

  describe('formatCountdown', () => {
    it('formats minutes and seconds, rounding up', () => {
      const c = formatCountdown(299_001);
      assert.equal(c.text, '5:00');
      assert.equal(formatCountdown(298_999).text, '4:59');
      assert.equal(c.overdue, false);
    });
    it('formats hours and days', () => {
      assert.equal(formatCountdown((3600 + 62) * 1000).text, '1:01:02');
      const d = formatCountdown((2 * 86400 + 3 * 3600 + 5) * 1000);
      assert.equal(d.text, '2d 3h');
      assert.deepEqual([d.days, d.hours, d.minutes, d.seconds], [2, 3, 0, 5]);
    });
    it('is overdue at and after the deadline', () => {
      assert.equal(formatCountdown(0).overdue, true);
      assert.equal(formatCountdown(-5000).text, '0:00');
      assert.equal(formatCountdown(1).overdue, false);
      assert.equal(formatCountdown(1).text, '0:01');
    });
  });

  describe('any length (issue 9, item 1: a 123k-character run threw RangeError)', () => {
    const MB = 1_000_000;
    it('toInertText keeps a 1 MB plain run whole, in one line and in block mode', () => {
      const big = 'a'.repeat(MB);
      assert.equal(toInertText(big), big);
      assert.equal(toInertText(big, { singleLine: true }), big);
    });
    it('toInertText escapes inside 1 MB: the escapes are where the input had them', () => {
      const big = 'x'.repeat(MB / 2) + '\u202e' + 'y'.repeat(MB / 2) + '\n';
      const out = toInertText(big, { singleLine: true });
      assert.equal(out, 'x'.repeat(MB / 2) + '⟨U+202E⟩' + 'y'.repeat(MB / 2) + '⏎');
    });
    it('shortenForLabel on 1 MB returns exactly max code points ending with …', () => {
      const s = shortenForLabel('😀'.repeat(MB), 80);
      assert.equal(s.shortened, true);
      assert.equal(Array.from(s.text).length, 80);
      assert.equal(s.text, '😀'.repeat(79) + '…');
    });
    it('shortenInert keeps newlines in block mode and never cuts an escape', () => {
      const s = shortenInert('ab\n\u202ecd'.repeat(100_000), 6);
      assert.deepEqual(s, { text: 'ab\n…', shortened: true });
      assert.deepEqual(shortenInert('ab\ncd', 5), { text: 'ab\ncd', shortened: false });
    });
    it('lone surrogates are escaped, never joined to their neighbours', () => {
      assert.equal(toInertText('a\ud800b\udc00c'), 'a⟨U+D800⟩b⟨U+DC00⟩c');
      assert.equal(toInertText('\ud83d\ude00'), '😀');
    });
  });

  describe('markAgentLines (issue 9, item 11)', () => {
    it('prefixes every line, blank ones included, with the agent mark', () => {
      assert.equal(
        markAgentLines('rm x\n\nKind: read'),
        `${AGENT_LINE_MARK}rm x\n${AGENT_LINE_MARK}\n${AGENT_LINE_MARK}Kind: read`,
      );
      assert.equal(markAgentLines('one'), `${AGENT_LINE_MARK}one`);
    });
    it('a forged line cannot start a line without the mark', () => {
      const out = markAgentLines(toInertText('ok\r\nKind: read\u2028Options: Allow\rX'));
      for (const line of out.split('\n')) {
        assert.ok(line.startsWith(AGENT_LINE_MARK), line);
      }
      assert.equal(out.split('\n').length, 2, 'only LF/CRLF break lines; U+2028 and a lone CR are escapes');
    });
  });

  describe('escapeIcons (issue 9, item 8)', () => {
    it('escapes icon references so VS Code shows them literally', () => {
      assert.equal(escapeIcons('git status $(poweroff)'), 'git status \\$(poweroff)');
      assert.equal(escapeIcons('$(shield) Allow once'), '\\$(shield) Allow once');
      assert.equal(escapeIcons('$(loading~spin)'), '\\$(loading~spin)');
    });
    it('an agent backslash before an icon stays visible (\\\\$( shows as \\$()', () => {
      assert.equal(escapeIcons('\\$(x)'), '\\\\$(x)');
    });
    it('leaves $( that is not an icon reference alone', () => {
      assert.equal(escapeIcons('echo $(date +%s) $HOME $(a b)'), 'echo $(date +%s) $HOME $(a b)');
    });
  });
});
