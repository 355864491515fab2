/**
 * Where an agent's command is and what environment it gets. The command is resolved on PATH here (no shell), so a
 * missing agent is reported with its install command before anything is spawned. The environment is a minimal base
 * plus only the variables the agent's entry names: the editor's own variables (tokens, VSCODE_*, ELECTRON_*,
 * NODE_OPTIONS) never reach an agent unless a user lists them.
 */
import which from 'which';
import type { LocalAgentSpec } from './config';
import { opencodeConfigContent } from './opencodeConfig';
import type { StartFailure } from './startFailure';

/** Variables every agent gets when the editor has them: what a login shell would give a program. */
export const BASE_ENV_NAMES: readonly string[] = Object.freeze([
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'LANG',
  'LC_ALL',
  'LC_CTYPE',
  'TZ',
  'TERM',
  'TMPDIR',
  'XDG_CONFIG_HOME',
  'XDG_DATA_HOME',
  'XDG_CACHE_HOME',
  'XDG_STATE_HOME',
  'XDG_RUNTIME_DIR',
  // Windows equivalents (absent elsewhere).
  'SYSTEMROOT',
  'USERPROFILE',
  'APPDATA',
  'LOCALAPPDATA',
  'TEMP',
  'TMP',
  'PATHEXT',
  'COMSPEC',
]);

export type SourceEnv = Readonly<Record<string, string | undefined>>;

/** The agent's environment: the base names plus `names`, each copied only when `source` has it. */
export function buildAgentEnv(source: SourceEnv, names: readonly string[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of [...BASE_ENV_NAMES, ...names]) {
    const value = Object.hasOwn(source, name) ? source[name] : undefined;
    if (typeof value === 'string') {
      env[name] = value;
    }
  }
  return env;
}

/** The absolute path `command` runs, looked up on `pathEnv` (a path containing a separator is checked as is). */
export async function resolveCommand(command: string, pathEnv: string | undefined): Promise<string | undefined> {
  const found = await which(command, { path: pathEnv ?? '', nothrow: true });
  return found ?? undefined;
}

/** Thrown by a start when the command is not installed; `message` says how to install it. */
export class AgentNotFoundError extends Error {
  readonly failure: StartFailure;
  constructor(
    readonly command: string,
    readonly install: string | undefined,
  ) {
    super(
      install
        ? `${command} was not found on PATH. Install it with: ${install}`
        : `${command} was not found on PATH (or is not executable).`,
    );
    this.name = 'AgentNotFoundError';
    this.failure = { kind: 'notFound', command, ...(install !== undefined ? { install } : {}) };
  }
}

/** Resolves the spec's command or throws {@link AgentNotFoundError}. */
export async function resolveAgentCommand(spec: LocalAgentSpec, env: Record<string, string>): Promise<string> {
  const resolved = await resolveCommand(spec.command, env.PATH);
  if (!resolved) {
    throw new AgentNotFoundError(spec.command, spec.install);
  }
  return resolved;
}

/**
 * The environment after what the spec's runtime needs to ask (presets.ts): for opencode, OPENCODE_CONFIG_CONTENT with
 * every permission "ask", merged into the user's own value (read from `source` even when the entry does not list it).
 */
export function presetEnv(
  spec: Pick<LocalAgentSpec, 'runtime'>,
  env: Record<string, string>,
  source: SourceEnv,
  log: (line: string) => void,
): Record<string, string> {
  if (spec.runtime !== 'opencode') {
    return env;
  }
  const user = Object.hasOwn(source, 'OPENCODE_CONFIG_CONTENT') ? source.OPENCODE_CONFIG_CONTENT : undefined;
  const content = opencodeConfigContent(user);
  if (content.problem) {
    log(`[fountain] ${content.problem}`);
  }
  return { ...env, OPENCODE_CONFIG_CONTENT: content.value };
}
