/**
 * The local gate's configuration, checked and compiled once per configuration object. Anything that cannot be
 * honoured (an unknown bundle, a malformed pattern or allowPaths entry, an invalid policy) is a configuration
 * error: {@link gateConfigProblems} lists them for a settings check, and the gate throws {@link GateConfigError}
 * rather than run with part of what the user wrote silently ignored. A configuration object is compiled once and
 * cached: treat it as immutable (pass a new object when the settings change).
 */
import { resolveBuiltinAllow } from './bundles';
import { GateConfigError, parsePatterns, type GatePattern } from './patterns';
import { allowPathProblem, type AllowPath } from './scope';
import { validatePolicy } from './validate';
import { DEFAULT_KEY, type PolicyMap } from './verdicts';

export interface GateConfig {
  /** Workspace folders: read + write. */
  roots: string[];
  allowPaths?: AllowPath[];
  /** `'<kind>:<glob>'` or `'<glob>'`; `bash:` = `execute:`. */
  allow?: string[];
  deny?: string[];
  /** Default true: the read_only bundle. */
  builtinAllow?: boolean;
  /** More bundles: `dev_tools`, `core_agent_tools`. */
  builtinAllowExtras?: string[];
  /** Seed-000 verdicts, title → kind → default; default `{"default": "ask"}`. */
  policy?: Record<string, string>;
  requirePlan?: boolean;
}

/** An allow pattern and where it came from: the user's `allow` list or a named bundle. */
export interface AllowRule extends GatePattern {
  readonly bundle?: string;
}

export interface CompiledConfig {
  readonly roots: readonly string[];
  readonly allowPaths: readonly AllowPath[];
  readonly allow: readonly AllowRule[];
  readonly deny: readonly GatePattern[];
  readonly policy: PolicyMap;
  readonly requirePlan: boolean;
}

const compiled = new WeakMap<object, CompiledConfig>();

function compileUnchecked(config: GateConfig): { config: CompiledConfig; problems: string[] } {
  const problems: string[] = [];
  const c = (typeof config === 'object' && config !== null ? config : {}) as Partial<GateConfig>;
  const roots = Array.isArray(c.roots) ? c.roots.filter((r): r is string => typeof r === 'string') : [];
  if (Array.isArray(c.roots) && roots.length !== c.roots.length) {
    problems.push('roots must be a list of absolute paths');
  }
  const allowPaths: AllowPath[] = [];
  for (const entry of Array.isArray(c.allowPaths) ? c.allowPaths : []) {
    const p = allowPathProblem(entry);
    if (p) {
      problems.push(p);
    } else {
      allowPaths.push(entry);
    }
  }
  const user = parsePatterns(c.allow);
  const deny = parsePatterns(c.deny);
  const builtin = resolveBuiltinAllow(c.builtinAllow, c.builtinAllowExtras);
  const bundled = parsePatterns(builtin.patterns);
  problems.push(...user.problems, ...deny.problems, ...builtin.problems, ...bundled.problems);
  const allow: AllowRule[] = [
    ...user.patterns,
    ...bundled.patterns.map((p, i) => ({ ...p, bundle: builtin.entries[i].bundle })),
  ];
  let policy: PolicyMap = { [DEFAULT_KEY]: 'ask' };
  if (c.policy !== undefined) {
    const v = validatePolicy(c.policy);
    if (v.ok) {
      policy = Object.hasOwn(v.policy, DEFAULT_KEY) ? v.policy : { ...v.policy, [DEFAULT_KEY]: 'ask' };
    } else {
      problems.push(...v.errors.map((e) => `policy: ${e}`));
    }
  }
  if (c.requirePlan !== undefined && typeof c.requirePlan !== 'boolean') {
    problems.push('requirePlan must be true or false');
  }
  return {
    config: { roots, allowPaths, allow, deny: deny.patterns, policy, requirePlan: c.requirePlan === true },
    problems,
  };
}

/** Every problem with a configuration, as sentences; empty when the gate can use it. */
export function gateConfigProblems(config: GateConfig): string[] {
  return compileUnchecked(config).problems;
}

/** The configuration compiled, or a {@link GateConfigError} listing every problem. Cached per object. */
export function compileGateConfig(config: GateConfig): CompiledConfig {
  const key = typeof config === 'object' && config !== null ? config : undefined;
  const hit = key ? compiled.get(key) : undefined;
  if (hit) {
    return hit;
  }
  const { config: out, problems } = compileUnchecked(config);
  if (problems.length > 0) {
    throw new GateConfigError(problems);
  }
  if (key) {
    compiled.set(key, out);
  }
  return out;
}
