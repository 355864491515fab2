import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { allParts, decide, parseCommand, type GateInput } from '../../../src/policy';

const texts = (c: string) => parseCommand(c).parts.map((p) => p.text);

describe('shell command parser', () => {
  it('splits on ;, &&, ||, |, |&, & and newlines, keeping the operator before each part', () => {
    const p = parseCommand('a 1; b && c || d | e |& f & g\nh');
    assert.deepEqual(
      p.parts.map((x) => [x.after, x.text]),
      [
        ['', 'a 1'],
        [';', 'b'],
        ['&&', 'c'],
        ['||', 'd'],
        ['|', 'e'],
        ['|&', 'f'],
        ['&', 'g'],
        ['\n', 'h'],
      ],
    );
    assert.deepEqual(p.problems, []);
  });

  it('removes quotes and escapes, and never splits inside quotes', () => {
    assert.deepEqual(parseCommand(`git "sta"tus 'a; b' "c && d" e\\;f`).parts[0].words, [
      'git',
      'status',
      'a; b',
      'c && d',
      'e;f',
    ]);
    assert.deepEqual(texts(`echo "a | b"`), ['echo a | b']);
  });

  it('finds $(…), backticks and process substitution outside quotes and inside double quotes, not in single quotes', () => {
    const types = (c: string) => parseCommand(c).substitutions.map((s) => s.type);
    assert.deepEqual(types('echo $(id)'), ['$(']);
    assert.deepEqual(types('echo `id`'), ['`']);
    assert.deepEqual(types('diff <(ls a) >(tee b)'), ['<(', '>(']);
    assert.deepEqual(types('echo "$(id) and `id`"'), ['$(', '`']);
    assert.deepEqual(types("echo '$(id) `id`'"), []);
    assert.deepEqual(types('echo \\`id\\` \\$(id)'), []);
    assert.deepEqual(types('echo ${x:-$(id)}'), ['${']);
  });

  it('parses what a substitution runs', () => {
    const p = parseCommand('echo "$(rm -rf x; ls)" `whoami`');
    assert.deepEqual(
      allParts(p).map((x) => x.text),
      ['echo $(rm -rf x; ls) `whoami`', 'rm -rf x', 'ls', 'whoami'],
    );
  });

  it('an empty quoted word is an argument of its own ("" and \'\'), and next to text it adds nothing', () => {
    assert.deepEqual(parseCommand('printf "" x').parts[0].words, ['printf', '', 'x']);
    assert.deepEqual(parseCommand("printf '' x").parts[0].words, ['printf', '', 'x']);
    assert.deepEqual(parseCommand('rm "" ""').parts[0].words, ['rm', '', '']);
    assert.deepEqual(parseCommand('echo ""x').parts[0].words, ['echo', 'x']);
  });

  it('records redirections apart from the words, with fd numbers dropped', () => {
    const p = parseCommand('grep x f 2>&1 >out <in 2>/dev/null');
    assert.deepEqual(p.parts[0].words, ['grep', 'x', 'f']);
    assert.deepEqual(
      p.parts[0].redirects.map(({ op, target }) => ({ op, target })),
      [
        { op: '>&', target: '1' },
        { op: '>', target: 'out' },
        { op: '<', target: 'in' },
        { op: '>', target: '/dev/null' },
      ],
    );
  });

  it('reports what it cannot read with certainty', () => {
    for (const c of [
      "echo 'open",
      'echo "open',
      'echo `open',
      'echo $(open',
      'cat <<EOF\nx\nEOF',
      '(cd x; ls)',
      'f() { ls; }',
      'if true; then ls; fi',
      "echo $'a'",
      'for f in *; do rm $f; done',
    ]) {
      assert.notDeepEqual(parseCommand(c).problems, [], c);
    }
  });

  it('a quoted keyword is an ordinary word, and a quoted number before > is an argument, not a descriptor', () => {
    assert.deepEqual(parseCommand(`'!' x; "if" y`).problems, []);
    assert.deepEqual(parseCommand(`echo '2'>f`).parts[0].words, ['echo', '2']);
    assert.deepEqual(parseCommand(`echo 2>f`).parts[0].words, ['echo']);
  });

  it('reads a comment as nothing', () => {
    assert.deepEqual(texts('ls # ; rm -rf src'), ['ls']);
  });

  it('never throws and always terminates on arbitrary text, including deep nesting and 1 MB', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 400 }), (s) => {
        const p = parseCommand(s);
        assert.ok(Array.isArray(p.parts));
      }),
      { numRuns: 2000 },
    );
    const shellish = fc.array(
      fc.constantFrom('$(', ')', '`', "'", '"', '\\', '<(', ';', '|', '&', '\n', ' ', 'ls', '{', '}', '$', '#', '>'),
      { maxLength: 80 },
    );
    fc.assert(fc.property(shellish, (a) => void parseCommand(a.join(''))));
    assert.ok(parseCommand('$('.repeat(100_000)).problems.length > 0);
    assert.equal(parseCommand('a '.repeat(500_000)).parts[0].words.length, 500_000);
  });
});

describe('no pattern or grant allows a substitution (fuzzed)', () => {
  const config = { roots: ['/w'], allow: ['*', 'execute:*', 'echo *'] };
  const word = fc.stringMatching(/^[a-z0-9 ;|&'"\\-]{0,12}$/);
  const sub = fc.constantFrom('$(', '`', '<(', '>(');

  it('a command with $(, backticks or process substitution anywhere outside single quotes is never allowed by a pattern or grant', () => {
    fc.assert(
      fc.property(word, sub, word, word, (pre, open, body, post) => {
        const close = open === '`' ? '`' : ')';
        const command = `echo ${pre.replace(/['"\\]/g, '')} ${open}${body.replace(/['"\\`()]/g, '')}${close} ${post}`;
        const input: GateInput = {
          request: { kind: 'execute', command },
          mode: 'ask',
          config,
          session: {
            grants: [
              { scope: 'tool', kind: 'execute' },
              { scope: 'verb', verb: 'echo' },
            ],
          },
        };
        const d = decide(input);
        assert.ok(d.rule !== 'allow-pattern' && d.rule !== 'grant', `${command} → ${d.rule}`);
      }),
      { numRuns: 1000 },
    );
  });

  it('arbitrary strings with "$(" or a backtick, and no quote, backslash or comment to hide it, are never allowed', () => {
    // Without ', \ and # (a comment) the "$(" or backtick is bare or inside double quotes, and either way it runs.
    const free = fc.string({ maxLength: 60 }).map((x) => x.replace(/['\\#]/g, ''));
    fc.assert(
      fc.property(free, fc.constantFrom('$(', '`'), free, (a, s, b) => {
        const command = `${a}${s}${b}`;
        const d = decide({
          request: { kind: 'execute', command },
          mode: 'ask',
          config,
          session: { grants: [{ scope: 'tool', kind: 'execute' }] },
        });
        assert.ok(d.rule !== 'allow-pattern' && d.rule !== 'grant', JSON.stringify(command));
      }),
      { numRuns: 3000 },
    );
  });
});
