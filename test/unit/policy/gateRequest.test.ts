import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { decide, gateRequestFrom, parseCommand, shellQuote } from '../../../src/policy';

describe('local gate: requests read from ACP tool calls', () => {
  it('execute: rawInput.command, else the title; an argv array is shell-quoted back into a line', () => {
    assert.deepEqual(
      gateRequestFrom({ kind: 'execute', title: 'ls -la', rawInput: { command: 'ls -la', description: 'List' } }),
      {
        kind: 'execute',
        title: 'ls -la',
        command: 'ls -la',
      },
    );
    assert.equal(gateRequestFrom({ kind: 'execute', title: 'git status' }).command, 'git status');
    const argv = gateRequestFrom({ kind: 'execute', title: 'Run', rawInput: { command: ['bash', '-lc', 'rm -rf ~'] } });
    assert.equal(argv.command, "bash -lc 'rm -rf ~'");
    assert.equal(decide({ request: argv, mode: 'yolo', config: { roots: ['/w'] } }).rule, 'denylist');
  });

  it('file kinds: paths from locations, diffs and rawInput, with the access the kind needs', () => {
    const edit = gateRequestFrom({
      kind: 'edit',
      title: 'Edit a.ts',
      locations: [{ path: '/w/a.ts', line: 3 }],
      content: [{ type: 'diff', path: '/w/a.ts', oldText: 'x', newText: 'y' }, { type: 'content' }],
      rawInput: { file_path: '/w/a.ts' },
    });
    assert.deepEqual(edit.paths, [{ path: '/w/a.ts', access: 'write' }]);
    const move = gateRequestFrom({ kind: 'move', rawInput: { source: 'a', destination: '/tmp/b' } }, '/w/');
    assert.deepEqual(move.paths, [
      { path: '/w/a', access: 'write' },
      { path: '/tmp/b', access: 'write' },
    ]);
    const read = gateRequestFrom({ kind: 'read', locations: [{ path: '/etc/hosts' }] });
    assert.deepEqual(read.paths, [{ path: '/etc/hosts', access: 'read' }]);
    // An execute request's locations are not a path scope question.
    assert.equal(gateRequestFrom({ kind: 'execute', title: 'ls', locations: [{ path: '/etc' }] }).paths, undefined);
  });

  it('fetch: the URL; junk fields are ignored, never trusted', () => {
    assert.equal(gateRequestFrom({ kind: 'fetch', rawInput: { url: 'https://x.test/a' } }).url, 'https://x.test/a');
    const junk = gateRequestFrom({ kind: 5, title: {}, locations: 'x', content: [null, 3], rawInput: { command: 7 } });
    assert.deepEqual(junk, {});
    assert.deepEqual(gateRequestFrom({ kind: 'read', rawInput: { ['__proto__']: { file_path: '/x' } } }), {
      kind: 'read',
    });
  });

  it('shellQuote: any argv round-trips through the parser word for word', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.string({ maxLength: 12 }).filter((s) => s !== ''),
          { minLength: 1, maxLength: 6 },
        ),
        (argv) => {
          const parsed = parseCommand(argv.map(shellQuote).join(' '));
          assert.deepEqual(parsed.problems, []);
          assert.equal(parsed.substitutions.length, 0);
          assert.deepEqual(parsed.parts.length, 1);
          assert.deepEqual(parsed.parts[0].words, argv);
        },
      ),
      // A reserved word in first place (found by a random run: `fi ' '` read as syntax).
      { numRuns: 1000, examples: [[['fi', ' ']], [['done']], [['{', 'x']]] },
    );
  });
});
