/**
 * A grant cannot run what the agent wrote. A session grant or an allow pattern for a program that runs files of
 * the workspace (`npm test` runs package.json's scripts, `make` the Makefile, `pytest` conftest.py and the tests,
 * `python3 a.py` a.py, `cargo build` build.rs, …) would let an agent write code there unasked (acceptEdits, an
 * edit pattern) and then run it with no prompt. So while such a grant or pattern is active, a write of a file the
 * program runs is asked, in every mode but yolo (which asks about nothing it can allow), and the reason names the
 * grant. Without such a grant the write is decided as before.
 */
import type { Ctx, GateDecision } from './gateTypes';
import { askOrDeny } from './gateSteps';
import type { AllowRule } from './gateConfig';
import type { Grant } from './grants';
import { patternWords } from './commandRules';
import { parseCommand } from './shell';
import { basename } from './shellWords';

/** The files a program runs: their base names, and the file name endings of its sources. */
interface Runs {
  readonly names: RegExp;
  readonly label: string;
}

const JS: Runs = {
  names:
    /^(?:package\.json|\.npmrc|\.yarnrc(?:\.yml)?|\.pnpmfile\.cjs|pnpm-workspace\.yaml|bunfig\.toml|.*\.(?:[cm]?[jt]sx?))$/,
  label: 'package.json, .npmrc and JavaScript/TypeScript sources',
};
const PY: Runs = {
  names: /^(?:conftest\.py|pytest\.ini|tox\.ini|noxfile\.py|setup\.cfg|setup\.py|pyproject\.toml|.*\.pth|.*\.py)$/,
  label: 'conftest.py, pytest.ini, tox.ini, pyproject.toml and Python sources',
};
const MAKE: Runs = { names: /^(?:GNUmakefile|[Mm]akefile|.*\.mk|.*\.sh)$/, label: 'Makefiles and shell scripts' };
const RUST: Runs = {
  names: /^(?:build\.rs|Cargo\.toml|.*\.rs)$/,
  label: 'build.rs, Cargo.toml and Rust sources',
};
const GO: Runs = { names: /^(?:go\.mod|.*\.go)$/, label: 'go.mod and Go sources' };
const RUBY: Runs = { names: /^(?:Rakefile|Gemfile|.*\.rake|.*\.rb)$/, label: 'Rakefile, Gemfile and Ruby sources' };
const JVM: Runs = {
  names: /^(?:pom\.xml|build\.gradle(?:\.kts)?|settings\.gradle(?:\.kts)?|gradle\.properties|.*\.(?:java|kt|kts))$/,
  label: 'pom.xml, Gradle build files and JVM sources',
};

/** Programs that run files of the workspace, by name. */
const RUNS_FILES: Readonly<Record<string, Runs>> = {
  npm: JS,
  npx: JS,
  pnpm: JS,
  pnpx: JS,
  yarn: JS,
  bun: JS,
  bunx: JS,
  node: JS,
  deno: JS,
  tsx: JS,
  jest: JS,
  vitest: JS,
  mocha: JS,
  eslint: JS,
  tsc: JS,
  webpack: JS,
  vite: JS,
  pytest: PY,
  'py.test': PY,
  python: PY,
  python3: PY,
  tox: PY,
  nox: PY,
  uv: PY,
  poetry: PY,
  make: MAKE,
  gmake: MAKE,
  cargo: RUST,
  go: GO,
  rake: RUBY,
  bundle: RUBY,
  ruby: RUBY,
  rspec: RUBY,
  mvn: JVM,
  gradle: JVM,
  gradlew: JVM,
};

/** A program that runs workspace files and what it was allowed by ("the session grant for npm test"). */
interface ActiveRunner {
  readonly runs: Runs;
  readonly by: string;
}

function programOf(command: string): string | undefined {
  const p = parseCommand(command);
  const first = p.parts[0]?.words[0];
  return first !== undefined ? basename(first) : undefined;
}

function fromGrant(g: Grant): ActiveRunner[] {
  if (g.scope === 'verb') {
    const runs = RUNS_FILES[g.verb];
    return runs ? [{ runs, by: `the session grant for "${g.verb} *"` }] : [];
  }
  if (g.scope === 'tool') {
    // "Every execute call" covers what a verb grant would for each program (not those only exact grants cover).
    return g.kind === 'execute'
      ? [...new Set(Object.values(RUNS_FILES))].map((runs) => ({ runs, by: 'the session grant for every command' }))
      : [];
  }
  if (g.scope === 'path' || g.kind !== 'execute') {
    return [];
  }
  const prog = programOf(g.key);
  const runs = prog !== undefined ? RUNS_FILES[prog] : undefined;
  return runs ? [{ runs, by: `the session grant for "${g.key.slice(0, 80)}"` }] : [];
}

function fromRule(r: AllowRule): ActiveRunner[] {
  if (r.bundle !== undefined || (r.kind !== undefined && r.kind !== 'execute')) {
    return [];
  }
  const words = patternWords(r.glob);
  const prog = words?.[0] !== undefined ? basename(words[0]) : undefined;
  const runs = prog !== undefined ? RUNS_FILES[prog] : undefined;
  return runs ? [{ runs, by: `the allow pattern "${r.source.slice(0, 80)}"` }] : [];
}

/** The exact files a granted command names to run (`python3 a.py`, `bash build.sh`): asked when written too. */
function namedFiles(ctx: Ctx): Map<string, string> {
  const out = new Map<string, string>();
  for (const g of ctx.grants) {
    if (g.scope === 'exact' && g.kind === 'execute') {
      for (const part of parseCommand(g.key).parts) {
        for (const w of part.words.slice(1)) {
          if (!w.startsWith('-') && /\.[A-Za-z0-9]+$/.test(w)) {
            out.set(basename(w), `the session grant for "${g.key.slice(0, 80)}"`);
          }
        }
      }
    }
  }
  return out;
}

/** Asks about a write of a file that an active grant or allow pattern's program runs (see the file comment). */
export function decidePlanted(ctx: Ctx): GateDecision | undefined {
  if (ctx.mode === 'yolo' || !ctx.used.some((u) => u.access === 'write')) {
    return undefined;
  }
  const active = [...ctx.grants.flatMap(fromGrant), ...ctx.cfg.allow.flatMap(fromRule)];
  const named = namedFiles(ctx);
  if (active.length === 0 && named.size === 0) {
    return undefined;
  }
  for (const u of ctx.used) {
    if (u.access !== 'write') {
      continue;
    }
    const path = u.placed?.path ?? u.given;
    const name = basename(path.replace(/\/+$/, ''));
    const hit = active.find((a) => a.runs.names.test(name));
    const by = hit?.by ?? named.get(name);
    if (by !== undefined) {
      const what = hit ? ` (it runs ${hit.runs.label})` : '';
      return askOrDeny(ctx, {
        rule: 'protected',
        reason: `This call would write ${path}, which a program allowed without asking by ${by} runs${what}, so it is never allowed automatically while that grant or pattern is active.`,
        path,
        access: 'write',
      });
    }
  }
  return undefined;
}
