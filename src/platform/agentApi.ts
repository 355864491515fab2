import type { ListedAgent } from '../domain/agentChoices';
import type { AgentRecord } from '../domain/provenance';
import type { ApiClient } from '../protocol/apiClient';
import { checkServerUrl } from '../protocol/fountainClient';
import type { WireAgent } from '../protocol/schema';
import type { Config } from './config';
import type { Logger } from './log';
import type { ApiKeyStore } from './secrets';

/**
 * GET/PATCH of agents on the configured server, through the connection's own HTTP client (one per server, with the
 * key it was started with). Only the server the settings name is ever called: a request whose server is another
 * one gets an error, not a call.
 */
export class AgentApi {
  constructor(
    private readonly config: Config,
    private readonly keys: ApiKeyStore,
    private readonly connection: { readonly server: string | undefined; readonly api: ApiClient | undefined },
    private readonly log: Logger,
  ) {}

  /** The normalised URL of the configured server, if the URL is acceptable. */
  currentServer(): string | undefined {
    const url = this.config.serverUrl;
    if (!url) {
      return undefined;
    }
    const check = checkServerUrl(url, { allowInsecureHttp: this.config.allowInsecureHttp });
    return check.ok ? check.url : undefined;
  }

  async getAgent(server: string, agentId: string, signal?: AbortSignal): Promise<AgentRecord> {
    const api = await this.client(server);
    return toRecord(await api.getAgent(agentId, signal), agentId);
  }

  /** `GET /api/agents`: the agents the key may see, for the policy editor's picker. */
  async listAgents(server: string, signal?: AbortSignal): Promise<ListedAgent[]> {
    const api = await this.client(server);
    return (await api.listAgents(signal)).map(toListed);
  }

  /** PATCH `{permission_policy}`; throws FountainHttpError (422 with the changeset) or FountainNetworkError. */
  async patchPolicy(server: string, agentId: string, policy: Record<string, unknown>): Promise<AgentRecord> {
    const api = await this.client(server);
    this.log.info(`PATCH agent ${JSON.stringify(agentId)}: permission_policy with ${Object.keys(policy).length} keys`);
    return toRecord(await api.patchAgent(agentId, { permission_policy: policy }), agentId);
  }

  private async client(server: string): Promise<ApiClient> {
    const url = this.config.serverUrl;
    if (!url || this.currentServer() !== server) {
      throw new Error(`not connected to ${server}`);
    }
    const api = this.connection.server === server ? this.connection.api : undefined;
    if (!api) {
      throw new Error((await this.keys.get(url)) ? `not connected to ${server}` : 'not signed in');
    }
    return api;
  }
}

function toListed(a: WireAgent): ListedAgent {
  const str = (v: string | null | undefined) => (typeof v === 'string' && v !== '' ? v : undefined);
  const fields = {
    name: str(a.name),
    runtime: str(a.runtime),
    sandboxProvider: str(a.sandbox_provider),
    sandboxMode: str(a.sandbox_mode),
    conversationCount:
      typeof a.conversation_count === 'number' && Number.isInteger(a.conversation_count) && a.conversation_count >= 0
        ? a.conversation_count
        : undefined,
  };
  return {
    id: a.id,
    ...Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)),
  };
}

function toRecord(a: WireAgent, fallbackId: string): AgentRecord {
  const extra = a as Record<string, unknown>;
  const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
  const runtime = str(extra.runtime);
  const version = str(extra.updated_at);
  return {
    id: a.id || fallbackId,
    ...(a.name ? { name: a.name } : {}),
    ...(runtime ? { runtime } : {}),
    ...(version ? { version } : {}),
    policy: a.permission_policy ?? {},
  };
}
