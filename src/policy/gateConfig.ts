/**
 * The local gate's configuration, checked and compiled once per configuration object. Settings fail safe: an entry
 * that cannot be honoured (an unknown bundle, a malformed pattern or allowPaths entry, a policy key with no
 * verdict) disables only itself and is named in {@link gateConfigProblems} and in every decision's reason; deny
 * patterns, `auto_deny` and the denylist keep applying. A malformed deny entry does not simply drop out: what it
 * might have covered is asked, in every mode (see brokenDenyCover in patterns.ts). A malformed `builtinAllow` turns the bundles off and a
 * malformed `requirePlan` turns plan-first on (the stricter reading). A configuration object is compiled once and
 * cached: treat it as immutable (pass a new object when the settings change).
 */
import { resolveBuiltinAllow } from './bundles';
import { parsePatterns, type GatePattern } from './patterns';
import { allowPathProblem, type AllowPath } from './scope';
import { validatePolicy } from './validate';
import { ASK_TIMEOUT_KEY, DEFAULT_KEY, isVerdict, type PolicyMap } from './verdicts';

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
  /** Malformed deny entries, read as what they might have covered: what they match is asked (gateSteps.ts). */
  readonly brokenDeny: readonly GatePattern[];
  readonly policy: PolicyMap;
  readonly requirePlan: boolean;
  /** What was ignored, as sentences (empty when everything could be used). */
  readonly problems: readonly string[];
}

const compiled = new WeakMap<object, CompiledConfig>();

/** The keys of a policy that hold a verdict (the rest are dropped, each named by the validator); default ask. */
function usablePolicy(raw: unknown): PolicyMap {
  const out: Record<string, unknown> = { [DEFAULT_KEY]: 'ask' };
  if (typeof raw === 'object' && raw !== null && !Array.isArray(raw)) {
    for (const [k, v] of Object.entries(raw as Record<string, unknown>)) {
      // A key with no verdict asks (it never falls through to a looser default); ask_timeout is left to the broker.
      if (k !== '' && k !== ASK_TIMEOUT_KEY) {
        out[k] = isVerdict(v) ? v : 'ask';
      }
    }
  }
  return out;
}

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
  if (c.builtinAllow !== undefined && typeof c.builtinAllow !== 'boolean') {
    problems.push('builtinAllow must be true or false (the bundles are off until it is)');
  }
  const builtin = resolveBuiltinAllow(
    typeof c.builtinAllow === 'boolean' ? c.builtinAllow : c.builtinAllow === undefined ? undefined : false,
    c.builtinAllowExtras,
  );
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
      policy = usablePolicy(c.policy);
    }
  }
  const badPlan = c.requirePlan !== undefined && typeof c.requirePlan !== 'boolean';
  if (badPlan) {
    problems.push('requirePlan must be true or false (plan-first is on until it is)');
  }
  return {
    config: {
      roots,
      allowPaths,
      allow,
      deny: deny.patterns,
      brokenDeny: deny.broken,
      policy,
      requirePlan: c.requirePlan === true || badPlan,
      problems,
    },
    problems,
  };
}

/** Every problem with a configuration, as sentences; empty when the gate can use it. */
export function gateConfigProblems(config: GateConfig): string[] {
  return compileUnchecked(config).problems;
}

/** The configuration compiled (what could not be used is left out and listed in `problems`). Cached per object. */
export function compileGateConfig(config: GateConfig): CompiledConfig {
  const key = typeof config === 'object' && config !== null ? config : undefined;
  const hit = key ? compiled.get(key) : undefined;
  if (hit) {
    return hit;
  }
  const { config: out } = compileUnchecked(config);
  if (key) {
    compiled.set(key, out);
  }
  return out;
}
