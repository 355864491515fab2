/**
 * Policy validation with the messages the server's agent changeset gives (`Fountain.Agents.Agent`,
 * `Fountain.PermissionPolicy.reserved_errors/1`), as zod schemas, so a form can refuse what the server would
 * refuse, in the server's words, before sending it.
 */
import * as z from 'zod/mini';
import { parseTimeoutSec } from './timeout';
import {
  ASK_TIMEOUT_KEY,
  ASK_TIMEOUT_MAX_SEC,
  RESERVED_KEYS,
  VERDICTS,
  isPlainObject,
  isVerdict,
  sortKeys,
} from './verdicts';

/** Runtimes that never send `session/request_permission`, so a policy stricter than `auto_allow` is inert. */
export const NEVER_ASKING_RUNTIMES: readonly string[] = Object.freeze(['opencode']);

export const POLICY_NOT_A_MAP_MESSAGE = 'must be a map of tool name to verdict';
export const EMPTY_TOOL_NAME_MESSAGE = 'tool names must be non-empty strings';

export function unknownVerdictMessage(tool: string, value: unknown): string {
  return `${tool}: unknown verdict ${elixirInspect(value)} (one of ${VERDICTS.join(', ')})`;
}

export function badAskTimeoutMessage(value: unknown): string {
  return `${ASK_TIMEOUT_KEY}: ${elixirInspect(value)} is not a positive number of seconds no greater than ${ASK_TIMEOUT_MAX_SEC}`;
}

/** The server's sentence (Fountain.Agents.Agent `runtime_errors/2`), with the runtime's name in it. */
export function unenforceableMessage(runtime: string): string {
  return `the ${runtime} runtime never asks before it runs a tool, so a policy stricter than auto_allow cannot be enforced on it`;
}

/**
 * A value written the way Elixir's `inspect/1` writes decoded JSON, which is how the server quotes a bad value:
 * `"x"`, `nil`, `1.5`, `[1, 2]`, `%{"a" => 1}`. Floats that are whole numbers print as integers here, because
 * JavaScript cannot tell `1.0` from `1`. Deep values are cut short.
 */
export function elixirInspect(v: unknown, depth = 0): string {
  if (depth > 8) {
    return '...';
  }
  if (v === null || v === undefined) {
    return 'nil';
  }
  if (typeof v === 'string') {
    return JSON.stringify(v);
  }
  if (typeof v === 'number' || typeof v === 'boolean') {
    return String(v);
  }
  if (Array.isArray(v)) {
    return `[${v.map((x) => elixirInspect(x, depth + 1)).join(', ')}]`;
  }
  if (isPlainObject(v)) {
    const parts = sortKeys(Object.keys(v)).map((k) => `${JSON.stringify(k)} => ${elixirInspect(v[k], depth + 1)}`);
    return `%{${parts.join(', ')}}`;
  }
  return `#${typeof v}`;
}

function needsEnforcement(policy: Record<string, unknown>): boolean {
  return Object.keys(policy).some((k) => !RESERVED_KEYS.includes(k) && policy[k] !== 'auto_allow');
}

/** Every problem with a policy object, in the order the server lists them: tools (map order), reserved keys, runtime. */
export function policyProblems(policy: Record<string, unknown>, runtime?: string): string[] {
  const problems: string[] = [];
  for (const key of sortKeys(Object.keys(policy))) {
    if (RESERVED_KEYS.includes(key)) {
      continue;
    }
    if (key === '') {
      problems.push(EMPTY_TOOL_NAME_MESSAGE);
    } else if (!isVerdict(policy[key])) {
      problems.push(unknownVerdictMessage(key, policy[key]));
    }
  }
  if (Object.hasOwn(policy, ASK_TIMEOUT_KEY) && parseTimeoutSec(policy[ASK_TIMEOUT_KEY]) === undefined) {
    problems.push(badAskTimeoutMessage(policy[ASK_TIMEOUT_KEY]));
  }
  if (runtime !== undefined && NEVER_ASKING_RUNTIMES.includes(runtime) && needsEnforcement(policy)) {
    problems.push(unenforceableMessage(runtime));
  }
  return problems;
}

/**
 * A zod schema for a stored policy on an agent of `runtime` (omit it when unknown). `null` and a missing value
 * parse to `{}` (the server clears the policy on `null`); the output is a fresh copy of the input's own keys.
 * Every issue's message is one of the server's changeset messages.
 */
export function policySchemaFor(opts?: { runtime?: string }) {
  const runtime = opts?.runtime;
  return z.pipe(
    z.transform((v: unknown) => (v === null || v === undefined ? {} : v)),
    z.pipe(
      z
        .custom<Record<string, unknown>>((v) => isPlainObject(v), { error: POLICY_NOT_A_MAP_MESSAGE })
        .check(
          z.superRefine((policy, ctx) => {
            for (const message of policyProblems(policy, runtime)) {
              ctx.addIssue({ code: 'custom', message, input: policy });
            }
          }),
        ),
      // fromEntries keeps a `__proto__` key as a key rather than a prototype.
      z.transform((policy: Record<string, unknown>) => Object.fromEntries(Object.entries(policy))),
    ),
  );
}

/** The runtime-agnostic policy schema. */
export const policySchema = policySchemaFor();

/** Errors keyed as the server's changeset 422 body keys them. */
export function changesetErrors(errors: readonly string[]): { permission_policy: string[] } {
  return { permission_policy: [...errors] };
}

export type PolicyValidation =
  | { ok: true; policy: Record<string, unknown> }
  | { ok: false; errors: string[]; changeset: { permission_policy: string[] } };

/** Validate a policy as the server's agent changeset would, returning its messages on failure. */
export function validatePolicy(policy: unknown, opts?: { runtime?: string }): PolicyValidation {
  const result = (opts?.runtime === undefined ? policySchema : policySchemaFor(opts)).safeParse(policy);
  if (result.success) {
    return { ok: true, policy: result.data };
  }
  const errors = result.error.issues.map((i) => i.message);
  return { ok: false, errors, changeset: changesetErrors(errors) };
}
