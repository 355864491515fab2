// ESLint rule `fountain/no-import-cycle`: a file of src/ may not reach itself through its relative imports.
// It follows every static `import … from './x'`, `export … from './x'` and `import('./x')` of the TypeScript sources
// (`import type` too: a type circle is still a circle a reader has to untangle) and reports the first circle found
// from each file, naming every file on it. Only relative specifiers are followed (packages cannot import us back).
import fs from 'node:fs';
import path from 'node:path';

const SPECIFIER =
  /(?:^|[\s;])(?:import|export)\s[^'"`;]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s*['"]([^'"]+)['"]/gm;

/** @type {Map<string, {mtime: number, out: string[]}>} file → the files it imports, while the file is unchanged. */
const edges = new Map();

function resolve(from, spec) {
  if (!spec.startsWith('.')) {
    return undefined;
  }
  const base = path.resolve(path.dirname(from), spec);
  for (const candidate of [base, base + '.ts', path.join(base, 'index.ts'), base.replace(/\.js$/, '.ts')]) {
    if (candidate.endsWith('.ts') && fs.existsSync(candidate) && fs.statSync(candidate).isFile()) {
      return candidate;
    }
  }
  return undefined;
}

function importsOf(file) {
  let mtime = -1;
  try {
    mtime = fs.statSync(file).mtimeMs;
  } catch {
    return [];
  }
  const known = edges.get(file);
  if (known && known.mtime === mtime) {
    return known.out;
  }
  const out = [];
  edges.set(file, { mtime, out });
  let text = '';
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return out;
  }
  // Comments could hold example imports: drop them first (strings stay, specifiers are strings).
  text = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
  for (const m of text.matchAll(SPECIFIER)) {
    const target = resolve(file, m[1] ?? m[2] ?? m[3]);
    if (target && !out.includes(target)) {
      out.push(target);
    }
  }
  return out;
}

/** A path from `start` back to itself, or undefined. Depth-first, each file visited once. */
function cycleFrom(start) {
  const seen = new Set();
  const stack = [];
  const visit = (file) => {
    for (const next of importsOf(file)) {
      if (next === start) {
        return [...stack, file, start];
      }
      if (!seen.has(next)) {
        seen.add(next);
        stack.push(file);
        const found = visit(next);
        stack.pop();
        if (found) {
          return found;
        }
      }
    }
    return undefined;
  };
  return visit(start);
}

export const noImportCycle = {
  meta: {
    type: 'problem',
    docs: { description: 'No import circles among the files of src/' },
    schema: [],
    messages: { cycle: 'Import circle: {{path}}' },
  },
  create(context) {
    return {
      Program(node) {
        const file = path.resolve(context.filename);
        const cycle = cycleFrom(file);
        if (cycle) {
          const root = context.cwd ?? process.cwd();
          context.report({
            node,
            messageId: 'cycle',
            data: { path: cycle.map((f) => path.relative(root, f)).join(' → ') },
          });
        }
      },
    };
  },
};

export default { rules: { 'no-import-cycle': noImportCycle } };
