/**
 * `fountain.localAgents` entries (zod/mini, parsed item by item so one bad entry never hides its neighbours) and the
 * launch spec a session starts from, whether it comes from a setting or a built-in preset.
 */
import * as z from 'zod/mini';
import { validatePolicy } from '../policy';
import { DEFAULT_GRACE_MS, DEFAULT_TERM_MS, presetById, type AgentAsking, type AgentPreset } from './presets';

/** The policy a local agent gets when its entry names none: every request asks. */
export const DEFAULT_LOCAL_POLICY: Readonly<Record<string, unknown>> = Object.freeze({ default: 'ask' });

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export const ENV_NAME_MESSAGE = 'env lists names of environment variables (like ANTHROPIC_API_KEY), never values';

const nonEmpty = (what: string) =>
  z.string().check(z.trim(), z.minLength(1, { error: `${what} must be a non-empty string` }));

export const LocalAgentConfigSchema = z.strictObject({
  name: nonEmpty('name'),
  command: nonEmpty('command'),
  args: z._default(z.array(z.string({ error: 'args must be a list of strings' })), []),
  env: z._default(
    z.array(z.string().check(z.regex(ENV_NAME, { error: ENV_NAME_MESSAGE })), { error: ENV_NAME_MESSAGE }),
    [],
  ),
  /** A label for the runtime (a preset id such as "claude" picks that preset's stop timings). */
  runtime: z.optional(z.string()),
  /** The seed-000 policy shape, validated as the server validates it. */
  policy: z.pipe(
    z._default(z.unknown(), DEFAULT_LOCAL_POLICY),
    z.transform((v, ctx) => {
      const result = validatePolicy(v);
      if (result.ok) {
        return result.policy;
      }
      for (const message of result.errors) {
        ctx.issues.push({ code: 'custom', message, input: v });
      }
      return z.NEVER;
    }),
  ),
  /** A session mode id to switch to after session/new, when the agent offers it. */
  defaultMode: z.optional(z.string()),
});

export type LocalAgentConfig = z.infer<typeof LocalAgentConfigSchema>;

export interface LocalAgentsParse {
  readonly agents: LocalAgentConfig[];
  /** One line per refused entry: `fountain.localAgents[2] (name): message`. */
  readonly problems: string[];
}

/** Reads the setting's value. Anything that is not a list yields no agents and one problem. */
export function parseLocalAgents(raw: unknown): LocalAgentsParse {
  if (raw === undefined || raw === null) {
    return { agents: [], problems: [] };
  }
  if (!Array.isArray(raw)) {
    return { agents: [], problems: ['fountain.localAgents must be a list of agents'] };
  }
  const agents: LocalAgentConfig[] = [];
  const problems: string[] = [];
  const names = new Set<string>();
  raw.forEach((item: unknown, i) => {
    const label = (m: string) => {
      const name: unknown = typeof item === 'object' && item !== null ? (item as { name?: unknown }).name : undefined;
      return `fountain.localAgents[${i}]${typeof name === 'string' && name ? ` (${JSON.stringify(name)})` : ''}: ${m}`;
    };
    const result = LocalAgentConfigSchema.safeParse(item);
    if (!result.success) {
      for (const issue of result.error.issues) {
        const where = issue.path.length ? `${issue.path.join('.')}: ` : '';
        problems.push(label(`${where}${issue.message}`));
      }
      return;
    }
    if (names.has(result.data.name)) {
      problems.push(label('another entry already has this name'));
      return;
    }
    names.add(result.data.name);
    agents.push(result.data);
  });
  return { agents, problems };
}

/** Everything a session needs to launch one agent. */
export interface LocalAgentSpec {
  readonly name: string;
  /** A command name (looked up on PATH) or a path. */
  readonly command: string;
  readonly args: readonly string[];
  /** Environment variable names passed through from the editor's environment. */
  readonly env: readonly string[];
  readonly runtime: string;
  readonly policy: Readonly<Record<string, unknown>>;
  readonly defaultMode?: string;
  readonly graceMs: number;
  readonly termMs: number;
  /** How to install the command when it is missing (presets only). */
  readonly install?: string;
  /** How much the agent asks (a preset's, or an entry's that runs a preset's exact command); undefined: unknown. */
  readonly asks?: AgentAsking;
}

export function specFromPreset(
  preset: AgentPreset,
  overrides: { policy?: Readonly<Record<string, unknown>>; env?: readonly string[]; defaultMode?: string } = {},
): LocalAgentSpec {
  return {
    name: preset.name,
    command: preset.command,
    args: preset.args,
    env: [...new Set([...preset.env, ...(overrides.env ?? [])])],
    runtime: preset.id,
    policy: overrides.policy ?? DEFAULT_LOCAL_POLICY,
    ...(overrides.defaultMode !== undefined ? { defaultMode: overrides.defaultMode } : {}),
    graceMs: preset.graceMs,
    termMs: preset.termMs,
    install: preset.install,
    asks: preset.asks,
  };
}

export function specFromConfig(config: LocalAgentConfig): LocalAgentSpec {
  const preset = config.runtime === undefined ? undefined : presetById(config.runtime);
  return {
    name: config.name,
    command: config.command,
    args: config.args,
    env: config.env,
    runtime: config.runtime ?? 'custom',
    policy: config.policy,
    ...(config.defaultMode !== undefined ? { defaultMode: config.defaultMode } : {}),
    graceMs: preset?.graceMs ?? DEFAULT_GRACE_MS,
    termMs: preset?.termMs ?? DEFAULT_TERM_MS,
    ...(preset && preset.command === config.command ? { install: preset.install } : {}),
    // Only the preset's exact command line was checked to ask.
    ...(preset && preset.command === config.command && sameArgs(preset.args, config.args) ? { asks: preset.asks } : {}),
  };
}

function sameArgs(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
