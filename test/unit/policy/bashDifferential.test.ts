/**
 * The gate's reading of a command line checked against bash itself. Each line runs under real bash in a throwaway
 * folder with an empty PATH: every program it names is recorded by bash's `command_not_found_handle`, and the
 * builtins that matter are replaced by recording functions (echo, printf, true, false, test, pwd, read, kill, type,
 * hash, cd, eval, source, exec; cd and eval still act). A record is the working directory and the argv. Output
 * redirections are traced by the files the line created. A line the gate ALLOWS (mode ask, default settings)
 * whose programs, argv, working directories or created files differ from what bash did fails the test.
 * Lines: the curated ones below, and fast-check lines (fixed seed) from a hostile alphabet (HOSTILE).
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import fc from 'fast-check';
import { decide, normaliseLine } from '../../../src/policy';
import { joinDir } from '../../../src/policy/paths';
import { skipOrFail } from '../../support/skipOrFail';

const PRELUDE = String.raw`
exec 9>>"$__LOG"
__rec() { builtin printf '%s\0' "$PWD" "$#" "$@" >&9; }
command_not_found_handle() { __rec "$@"; return 0; }
for __b in echo printf true false test pwd read kill type hash; do
  builtin eval "$__b() { __rec $__b \"\$@\"; }"
done
cd() { __rec cd "$@"; builtin cd "$@"; }
eval() { __rec eval "$@"; builtin eval "$@"; }
source() { __rec source "$@"; }
exec() { __rec exec "$@"; }
trap 'builtin wait' EXIT
`;

/** Lines whose reading is known to be hard: quoting, continuations, control bytes, comments, redirections. */
export const CURATED = [
  'echo hi\r# ; touch X',
  'ls\r',
  'cat $\\\nHOME/x',
  'echo $\\\n(touch Y)',
  'ls -la \\\n  src',
  'ls; >made',
  'ls && >made',
  'echo a # ; touch Z',
  'echo a#b ; ls',
  'echo \'a b\' "c d" e\\ f',
  "echo $'\\x41' x",
  'echo "$(touch Q)"',
  'cat <<< x',
  'cat <<EOF\nx\nEOF',
  'echo {a,b}',
  'echo ~',
  'echo ~/x',
  'cd src && ls',
  'cd src; ls',
  'cd nope; ls ..',
  'ls | cat',
  'ls & ls',
  'echo a\\\\\nls',
  "echo 'a\\\nb'",
  'echo a;ls',
  'echo a\u037e ls',
  'echo a\uff1b ls',
  'echo a\u2028ls',
  'x=1 ls',
  'ls 2>/dev/null',
  'ls >/dev/null 2>&1',
  'grep -r x .',
  'echo $((1+2))',
  'arr=(a b); echo ${arr[1]}',
  'cat <(ls)',
  'ls\tsrc',
  'echo "a\\\nb"',
  'echo a\\\n# b',
];

const HOSTILE = [
  ...['echo', 'ls', 'cat', 'grep', 'cd', 'touch', 'x', 'src', '..', '-la', '-n', 'a', '=', 'EOF'],
  ...[' ', ' ', ' ', '\t', '\n', '\r', '\0', '\x1b', '\x7f', '\u0085', '\\\n', '\\', '$', "'", '"', "$'", '$"'],
  ...['#', ';', '&&', '||', '|', '&', '>', '<', '>>', '2>&1', '<<<', '<<', '$(', ')', '(', '`', '<(', '>('],
  ...['$((', '))', '[', ']', '{a,b}', '{', '}', '*', '?', '~', '~/', 'a=(1 2)', '${x}', '${x:-y}', '$HOME', '$1'],
  ...['\\x41', '\\n', '\u037e', '\uff1b', '\u2028', '\u00a0', '\u200b', '!', 'if', 'then', 'fi', 'function'],
];

interface Run {
  readonly argv: string[];
  readonly cwd: string;
}

const key = (r: Run) => JSON.stringify([path.resolve(r.cwd), r.argv]);

function parseLog(buf: Buffer): Run[] {
  const f = buf.toString('utf8').split('\0');
  const out: Run[] = [];
  for (let i = 0; i + 1 < f.length;) {
    const cwd = f[i];
    const n = Number(f[i + 1]);
    out.push({ cwd, argv: f.slice(i + 2, i + 2 + n) });
    i += 2 + n;
  }
  return out;
}

function listFiles(dir: string): string[] {
  return fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort();
}

interface Outcome {
  readonly line: string;
  readonly allowed: boolean;
  readonly same: boolean;
  readonly detail: string;
}

function compare(bash: string, base: string, line: string, n: number): Outcome {
  // Deep enough that `cd ..` from a generated line stays inside base.
  const work = path.join(base, `l${n}`, ...'abcdefghij'.split(''), 'w');
  const home = path.join(base, 'home');
  fs.mkdirSync(path.join(work, 'src'), { recursive: true });
  fs.writeFileSync(path.join(work, 'src', 'a.ts'), '');
  fs.writeFileSync(path.join(work, 'x'), '');
  const before = listFiles(path.join(base, `l${n}`));
  const log = path.join(base, `log${n}`);
  const script = path.join(base, `line${n}.sh`);
  fs.writeFileSync(script, line);
  fs.writeFileSync(log, '');
  spawnSync(bash, [script], {
    cwd: work,
    env: { PATH: path.join(base, 'empty'), HOME: home, BASH_ENV: path.join(base, 'prelude.sh'), __LOG: log },
    stdio: 'ignore',
    timeout: 3000,
  });
  const ran = parseLog(fs.readFileSync(log)).filter((r) => r.argv[0] !== ':');
  const created = listFiles(path.join(base, `l${n}`)).filter((f) => !before.includes(f));
  const d = decide({
    request: { kind: 'execute', command: line, cwd: work },
    mode: 'ask',
    config: { roots: [work] },
    home,
  });
  const read = normaliseLine(line, { home, cwd: work }).commands.filter((c) => c.program !== ':');
  const gate = read.map((c) => ({ argv: [c.program, ...c.argv.slice(1)], cwd: joinDir(work, c.cwd) ?? work }));
  const a = ran.map(key).sort();
  const b = gate.map(key).sort();
  const same = JSON.stringify(a) === JSON.stringify(b) && created.length === 0;
  return {
    line,
    allowed: d.verdict === 'allow',
    same,
    detail: same
      ? ''
      : `bash ran ${a.join(' ; ')}${created.length > 0 ? ` and created ${created.join(', ')}` : ''}; the gate read ${b.join(' ; ')}`,
  };
}

/** The generated lines: a fixed seed, so a failure is reproducible (BASH_DIFF_SEED picks another). */
export function generatedLines(count: number, seed = Number(process.env.BASH_DIFF_SEED ?? 27)): string[] {
  const arb = fc.array(fc.constantFrom(...HOSTILE), { minLength: 1, maxLength: 9 }).map((t) => t.join(''));
  return fc.sample(arb, { numRuns: count, seed });
}

export const GENERATED = 300;

describe('local gate: the reading checked against real bash (differential)', function () {
  this.timeout(180_000);
  let base = '';
  let bash = '';
  before(function () {
    const found = spawnSync('bash', ['-c', 'command -v bash'], { encoding: 'utf8' });
    if (found.status !== 0) {
      skipOrFail(this, 'bash is not installed');
    }
    bash = found.stdout.trim();
    base = fs.mkdtempSync(path.join(os.tmpdir(), 'fountain-bashdiff-'));
    fs.mkdirSync(path.join(base, 'empty'));
    fs.mkdirSync(path.join(base, 'home'));
    fs.writeFileSync(path.join(base, 'prelude.sh'), PRELUDE);
  });
  after(() => {
    if (base !== '') {
      fs.rmSync(base, { recursive: true, force: true });
    }
  });

  it('the recorder sees what bash runs (programs, builtins, cd, created files)', () => {
    const r = compare(bash, base, 'cd src && ls -la; echo "a b" >out', 9999);
    assert.equal(r.same, false);
    assert.match(r.detail, /\["ls","-la"\]/);
    assert.match(r.detail, /"echo","a b"/);
    assert.match(r.detail, /created .*src\/out/);
  });

  it(`every line the gate allows reads as bash runs it (${CURATED.length} curated, ${GENERATED} generated)`, () => {
    const lines = [...CURATED, ...generatedLines(GENERATED)];
    const outcomes = lines.map((line, n) => compare(bash, base, line, n));
    const wrong = outcomes.filter((o) => o.allowed && !o.same);
    const allowed = outcomes.filter((o) => o.allowed).length;
    const agree = outcomes.filter((o) => o.same).length;
    if (process.env.BASH_DIFF_SUMMARY !== undefined) {
      console.log(
        `lines ${lines.length}, allowed ${allowed}, same reading as bash ${agree}, allowed and different ${wrong.length}`,
      );
    }
    assert.ok(allowed >= 15, `only ${allowed} lines allowed: the test would not test the allowed reading`);
    assert.deepEqual(
      wrong.map((o) => `${JSON.stringify(o.line)}: ${o.detail}`),
      [],
      'lines the gate allows although bash runs something else',
    );
  });
});
