/**
 * The hosts each preset's runtime talks to for its model and its sign-in, allowed without asking when
 * `fountain.local.network` is `ask` (README "Network" → "Which hosts"), and the base-URL variables each runtime
 * reads: a variable the agent is given adds its exact host and port (a scripted model on 127.0.0.1:PORT included,
 * which the loopback deny otherwise refuses). Ports: 443 and 80 for the hosts, exactly the URL's for a base URL.
 *
 * - claude (claude-agent-acp → Claude Code): api.anthropic.com; `ANTHROPIC_BASE_URL`.
 * - gemini (Gemini CLI): generativelanguage.googleapis.com with an API key; cloudcode-pa.googleapis.com and
 *   oauth2.googleapis.com with "Login with Google" (Code Assist); `GOOGLE_GEMINI_BASE_URL`, `CODE_ASSIST_ENDPOINT`.
 * - codex (codex-acp): api.openai.com with an API key; chatgpt.com and auth.openai.com with a ChatGPT sign-in;
 *   `OPENAI_BASE_URL` (a provider's `base_url` in CODEX_HOME/config.toml is not read here: add it to allowHosts).
 * - opencode: api.anthropic.com and api.openai.com (the keys the preset passes), opencode.ai (its own models) and
 *   models.dev (its model list); every `provider.*.options.baseURL` in `OPENCODE_CONFIG_CONTENT`.
 * - qwen (Qwen Code): dashscope.aliyuncs.com and dashscope-intl.aliyuncs.com (DashScope keys), chat.qwen.ai and
 *   portal.qwen.ai (Qwen OAuth); `OPENAI_BASE_URL`.
 */
import { parseHostPattern, type HostPattern } from './networkHosts';

export interface PresetNetwork {
  readonly hosts: readonly string[];
  /** Variables holding a base URL (`https://host[:port]/…`) the runtime sends its model requests to. */
  readonly baseUrlVars: readonly string[];
}

export const PRESET_NETWORK: Readonly<Record<string, PresetNetwork>> = Object.freeze({
  claude: { hosts: ['api.anthropic.com'], baseUrlVars: ['ANTHROPIC_BASE_URL'] },
  gemini: {
    hosts: ['generativelanguage.googleapis.com', 'cloudcode-pa.googleapis.com', 'oauth2.googleapis.com'],
    baseUrlVars: ['GOOGLE_GEMINI_BASE_URL', 'CODE_ASSIST_ENDPOINT'],
  },
  codex: { hosts: ['api.openai.com', 'chatgpt.com', 'auth.openai.com'], baseUrlVars: ['OPENAI_BASE_URL'] },
  opencode: { hosts: ['api.anthropic.com', 'api.openai.com', 'opencode.ai', 'models.dev'], baseUrlVars: [] },
  qwen: {
    hosts: ['dashscope.aliyuncs.com', 'dashscope-intl.aliyuncs.com', 'chat.qwen.ai', 'portal.qwen.ai'],
    baseUrlVars: ['OPENAI_BASE_URL'],
  },
});

/** One host the agent's model lives on, and what put it there (for the verdict's rule). */
export interface ModelHost {
  readonly pattern: HostPattern;
  /** `preset: claude`, `ANTHROPIC_BASE_URL`, `OPENCODE_CONFIG_CONTENT provider.fake`. */
  readonly source: string;
  /** True for a base URL: its exact host and port, which also lifts the address deny. */
  readonly exact: boolean;
}

/** `host:port` of an http(s) URL, or undefined when it is not one. */
export function baseUrlHost(url: string): { host: string; port: number } | undefined {
  let u: URL;
  try {
    u = new URL(url.trim());
  } catch {
    return undefined;
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') {
    return undefined;
  }
  const host = u.hostname
    .replace(/^\[|\]$/g, '')
    .toLowerCase()
    .replace(/\.$/, '');
  const port = u.port ? Number(u.port) : u.protocol === 'https:' ? 443 : 80;
  return host ? { host, port } : undefined;
}

function opencodeBaseUrls(content: string | undefined): { name: string; url: string }[] {
  if (content === undefined) {
    return [];
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(content);
  } catch {
    return [];
  }
  const providers = (parsed as { provider?: unknown } | null)?.provider;
  if (typeof providers !== 'object' || providers === null) {
    return [];
  }
  const out: { name: string; url: string }[] = [];
  for (const [name, p] of Object.entries(providers as Record<string, unknown>)) {
    const url = (p as { options?: { baseURL?: unknown } } | null)?.options?.baseURL;
    if (typeof url === 'string') {
      out.push({ name, url });
    }
  }
  return out;
}

function exactPattern(host: string, port: number): HostPattern | undefined {
  const r = parseHostPattern(host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`);
  return r.ok ? r.pattern : undefined;
}

/**
 * The model hosts of an agent started from preset `runtime` (none for a command no preset names) with the
 * environment `env` it was given.
 */
export function modelHosts(
  runtime: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
): ModelHost[] {
  const net = runtime !== undefined && Object.hasOwn(PRESET_NETWORK, runtime) ? PRESET_NETWORK[runtime] : undefined;
  if (!net) {
    return [];
  }
  const out: ModelHost[] = [];
  for (const h of net.hosts) {
    const r = parseHostPattern(h);
    if (r.ok) {
      out.push({ pattern: r.pattern, source: `preset: ${runtime}`, exact: false });
    }
  }
  const urls: { source: string; url: string }[] = net.baseUrlVars
    .filter((v) => Object.hasOwn(env, v) && typeof env[v] === 'string')
    .map((v) => ({ source: v, url: env[v]! }));
  if (runtime === 'opencode') {
    const content = Object.hasOwn(env, 'OPENCODE_CONFIG_CONTENT') ? env.OPENCODE_CONFIG_CONTENT : undefined;
    urls.push(
      ...opencodeBaseUrls(content).map((u) => ({ source: `OPENCODE_CONFIG_CONTENT provider ${u.name}`, url: u.url })),
    );
  }
  for (const { source, url } of urls) {
    const hp = baseUrlHost(url);
    const pattern = hp && exactPattern(hp.host, hp.port);
    if (pattern) {
      out.push({ pattern, source, exact: true });
    }
  }
  return out;
}
