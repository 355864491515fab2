/**
 * Fountain's permission-policy vocabulary and lookup, as the server applies it
 * (`Managoat.ACP.Permissions`, `Fountain.PermissionPolicy`). No vscode import: this folder is plain logic.
 *
 * Policies arrive from the wire and are treated as hostile: any value may be junk, any key may be any string,
 * including `__proto__` or `constructor`. Every read goes through {@link ownValue}, never a plain index.
 */

export type Verdict = 'auto_allow' | 'ask' | 'auto_deny';

/** Every verdict, least strict first. */
export const VERDICTS: readonly Verdict[] = Object.freeze(['auto_allow', 'ask', 'auto_deny'] as const);

/** A raw stored policy: key → verdict, plus `default` and the reserved `ask_timeout`. Values may be junk. */
export type PolicyMap = Readonly<Record<string, unknown>>;

/** The longest `ask_timeout` the server stores: 365 days, in seconds. */
export const ASK_TIMEOUT_MAX_SEC = 31_536_000;
/** The server's default global ask timeout, which every in-turn request gets. */
export const IN_TURN_CEILING_SEC = 300;

/** The policy key that covers every tool no other key names. */
export const DEFAULT_KEY = 'default';
/** The one reserved key: it names no tool, and is never read as a verdict. */
export const ASK_TIMEOUT_KEY = 'ask_timeout';
/** Keys of a policy that name something other than a tool. */
export const RESERVED_KEYS: readonly string[] = Object.freeze([ASK_TIMEOUT_KEY]);

/** The verdict when a policy names neither the tool nor a default. */
export const BUILTIN_VERDICT: Verdict = 'auto_allow';

/** ACP's tool kinds, in the protocol's order: the keys worth offering in a form. */
export const TOOL_KINDS: readonly string[] = Object.freeze([
  'read',
  'edit',
  'delete',
  'move',
  'search',
  'execute',
  'think',
  'fetch',
  'switch_mode',
  'other',
]);

/** The parts of a tool card a policy can match. Fields are untrusted and may be anything at run time. */
export interface ToolRequest {
  title?: string | null;
  kind?: string | null;
}

const RANK: Readonly<Record<Verdict, number>> = { auto_allow: 0, ask: 1, auto_deny: 2 };

export function isVerdict(v: unknown): v is Verdict {
  return v === 'auto_allow' || v === 'ask' || v === 'auto_deny';
}

/** `auto_allow` 0 < `ask` 1 < `auto_deny` 2. */
export function strictness(v: Verdict): number {
  // A caller handing in junk gets the strictest rank, as the server's `rank/1` does.
  return isVerdict(v) ? RANK[v] : RANK.auto_deny;
}

/** The stricter of two verdicts; `a` on a tie. */
export function stricter(a: Verdict, b: Verdict): Verdict {
  return strictness(a) >= strictness(b) ? a : b;
}

/** A stored value read as a verdict: anything that is not one is `auto_deny`, never trusted into an allow. */
export function asVerdict(v: unknown): Verdict {
  return isVerdict(v) ? v : 'auto_deny';
}

function nonEmptyString(v: unknown): v is string {
  return typeof v === 'string' && v !== '';
}

/** Whether `v` is a JSON object (not null, not an array). */
export function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) {
    return false;
  }
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/**
 * The value a policy stores under `key`, or undefined when it stores none. Own properties only, reserved keys
 * excluded. `null` counts as absent, as a JSON `null` does on the server (`Map.get` gives `nil` and the lookup
 * moves on); the validator refuses it at the door.
 */
export function ownValue(policy: PolicyMap | null | undefined, key: string): unknown {
  if (!isPlainObject(policy) || RESERVED_KEYS.includes(key) || !Object.hasOwn(policy, key)) {
    return undefined;
  }
  const v = policy[key];
  return v === null ? undefined : v;
}

/** The tool keys a policy names (own keys, reserved keys and `default` excluded), in the server's map order. */
export function toolKeys(policy: PolicyMap | null | undefined): string[] {
  if (!isPlainObject(policy)) {
    return [];
  }
  return sortKeys(Object.keys(policy).filter((k) => k !== DEFAULT_KEY && !RESERVED_KEYS.includes(k)));
}

const encoder = new TextEncoder();

/** Byte-wise UTF-8 order, which is how the server iterates a small map's string keys. */
export function compareKeys(a: string, b: string): number {
  const x = encoder.encode(a);
  const y = encoder.encode(b);
  const n = Math.min(x.length, y.length);
  for (let i = 0; i < n; i++) {
    if (x[i] !== y[i]) {
      return x[i] - y[i];
    }
  }
  return x.length - y.length;
}

export function sortKeys(keys: readonly string[]): string[] {
  return [...keys].sort(compareKeys);
}

/** The tool's name as a card labels it: the title, else the kind, else "tool". */
export function toolLabel(req: ToolRequest): string {
  const title: unknown = req?.title;
  const kind: unknown = req?.kind;
  if (nonEmptyString(title)) {
    return title;
  }
  if (nonEmptyString(kind)) {
    return kind;
  }
  return 'tool';
}

/**
 * The policy keys a request matches, most specific first: the title, the kind, then `default`. Empty or non-string
 * fields are skipped, duplicates dropped, and reserved keys left out because no lookup ever reads them.
 */
export function matchingKeys(req: ToolRequest): string[] {
  const keys: string[] = [];
  const fields: unknown[] = [req?.title, req?.kind, DEFAULT_KEY];
  for (const k of fields) {
    if (nonEmptyString(k) && !RESERVED_KEYS.includes(k) && !keys.includes(k)) {
      keys.push(k);
    }
  }
  return keys;
}

/**
 * The verdict a policy gives a request, and the key that decided it: the title, then the kind, then `default`;
 * `key` is null when none matched and the built-in `auto_allow` applies. A matched value that is not a verdict
 * is `auto_deny`.
 */
export function verdictOf(
  policy: PolicyMap | null | undefined,
  req: ToolRequest,
): { verdict: Verdict; key: string | null } {
  for (const key of matchingKeys(req)) {
    const v = ownValue(policy, key);
    if (v !== undefined) {
      return { verdict: asVerdict(v), key };
    }
  }
  return { verdict: BUILTIN_VERDICT, key: null };
}

/**
 * What a policy gives one key on its own, the way the server's `verdict_for/2` reads it when merging: the key's
 * value, else the policy's `default`, else `auto_allow`. Unlike {@link verdictOf} it never consults a kind.
 */
export function verdictForKey(
  policy: PolicyMap | null | undefined,
  key: string,
): { verdict: Verdict; key: string | null } {
  const own = key === DEFAULT_KEY ? undefined : ownValue(policy, key);
  if (own !== undefined) {
    return { verdict: asVerdict(own), key };
  }
  const dflt = ownValue(policy, DEFAULT_KEY);
  if (dflt !== undefined) {
    return { verdict: asVerdict(dflt), key: DEFAULT_KEY };
  }
  return { verdict: BUILTIN_VERDICT, key: null };
}
