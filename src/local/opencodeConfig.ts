/**
 * The opencode preset's `OPENCODE_CONFIG_CONTENT`: opencode allows bash, edits and fetches unasked by default, so the
 * preset makes every permission "ask". opencode merges this variable over its config files (global and project), so
 * the user's files stay in effect except for what this sets: the permission of every tool (top level and of the
 * default `build` agent, which a project's `agent.build.permission` could otherwise set to allow) and `default_agent`
 * (a project could name an agent of its own that allows everything). A user's own `OPENCODE_CONFIG_CONTENT` is kept
 * and merged: its other keys stay, its "deny" rules stay deny, anything it allowed is asked.
 * (Checked with opencode 1.18.33 against a hostile project opencode.json, .opencode/opencode.json and
 * .opencode/agent/build.md: every command was asked.)
 */

/** The permissions opencode 1.18 knows, each set to ask (`*` for any it adds later). */
export const OPENCODE_ASK_KEYS: readonly string[] = Object.freeze([
  '*',
  'bash',
  'edit',
  'write',
  'patch',
  'multiedit',
  'webfetch',
  'websearch',
  'codesearch',
  'task',
  'external_directory',
  'read',
  'glob',
  'grep',
  'list',
  'lsp',
  'skill',
  'todowrite',
  'todoread',
  'doom_loop',
]);

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Every permission "ask", except what `user` denies (a string "deny", or the deny patterns of an object rule). */
export function askPermissions(user: unknown): Json {
  const out: Json = {};
  for (const k of OPENCODE_ASK_KEYS) {
    out[k] = 'ask';
  }
  if (user === 'deny') {
    for (const k of OPENCODE_ASK_KEYS) {
      out[k] = 'deny';
    }
    return out;
  }
  if (!isObj(user)) {
    return out;
  }
  for (const [k, v] of Object.entries(user)) {
    if (v === 'deny') {
      out[k] = 'deny';
    } else if (isObj(v)) {
      const denies = Object.entries(v).filter(([, a]) => a === 'deny');
      if (denies.length) {
        // The last matching rule wins in opencode: the catch-all ask first, then the user's denies.
        out[k] = { '*': out[k] === 'deny' ? 'deny' : 'ask', ...Object.fromEntries(denies) };
      }
    }
  }
  return out;
}

/** The rules of two layers together (for their denies): "deny" anywhere denies all. */
function bothRules(a: unknown, b: unknown): unknown {
  if (a === 'deny' || b === 'deny') {
    return 'deny';
  }
  return { ...(isObj(a) ? a : {}), ...(isObj(b) ? b : {}) };
}

export interface OpencodeConfigContent {
  /** The value for OPENCODE_CONFIG_CONTENT. */
  readonly value: string;
  /** Set when the user's own value could not be read (it is then not used): say so in the log. */
  readonly problem?: string;
}

/** The merged OPENCODE_CONFIG_CONTENT for the user's own value (undefined: none). */
export function opencodeConfigContent(userValue: string | undefined): OpencodeConfigContent {
  let user: Json = {};
  let problem: string | undefined;
  if (userValue !== undefined && userValue.trim() !== '') {
    try {
      const parsed: unknown = JSON.parse(userValue);
      if (isObj(parsed)) {
        user = parsed;
      } else {
        problem = 'OPENCODE_CONFIG_CONTENT is not a JSON object; it was not passed to opencode';
      }
    } catch {
      problem = 'OPENCODE_CONFIG_CONTENT is not valid JSON; it was not passed to opencode';
    }
  }
  const agents = isObj(user.agent) ? user.agent : {};
  const build = isObj(agents.build) ? agents.build : {};
  const merged: Json = {
    ...user,
    permission: askPermissions(user.permission),
    default_agent: 'build',
    agent: { ...agents, build: { ...build, permission: askPermissions(bothRules(user.permission, build.permission)) } },
  };
  return { value: JSON.stringify(merged), ...(problem ? { problem } : {}) };
}
