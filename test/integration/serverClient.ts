/** Talks to the local Fountain-compatible server from inside the extension host, as another client would. */
export interface ServerInfo {
  url: string;
  apiKey: string;
  controlUrl: string;
  controlToken: string;
  [k: string]: unknown;
}

/** One entry of the server's request log (`GET /_control/log`). */
export interface LoggedRequest {
  at: string;
  method: string;
  path: string;
  status: number;
  body?: unknown;
}

export class TestServer {
  constructor(readonly info: ServerInfo) {}

  async api<T = unknown>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
    const res = await fetch(this.info.url + path, {
      method,
      headers: {
        authorization: `Bearer ${this.info.apiKey}`,
        accept: 'application/json',
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
  }

  async control<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await fetch(this.info.controlUrl + path, {
      method,
      headers: { 'x-control-token': this.info.controlToken, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) {
      throw new Error(`control ${method} ${path}: ${res.status} ${await res.text()}`);
    }
    return (await res.json()) as T;
  }

  /** Every API request the server answered, oldest first (control calls excluded). */
  async requestLog(): Promise<LoggedRequest[]> {
    return (await this.control<{ data: LoggedRequest[] }>('GET', '/log')).data;
  }

  /** The answer POSTs the server received for one conversation, oldest first. */
  async answersFor(conversationId: string): Promise<LoggedRequest[]> {
    const prefix = `/api/conversations/${conversationId}/requests/`;
    return (await this.requestLog()).filter((e) => e.method === 'POST' && e.path.startsWith(prefix));
  }

  /** Starts a conversation with a scripted agent whose prompt asks for something (see test/server/agents/scripted.ts). */
  async startConversation(agentId: string, prompt: string, extra: Record<string, unknown> = {}): Promise<string> {
    const r = await this.api<{ data: { id: string } }>('POST', '/api/conversations', {
      agent_id: agentId,
      prompt,
      ...extra,
    });
    if (r.status !== 200 && r.status !== 201) {
      throw new Error(`POST /api/conversations: ${r.status} ${JSON.stringify(r.body)}`);
    }
    return r.body.data.id;
  }

  /** What the scripted agent of a conversation received as prompts, and its cwd. */
  conversationState(id: string): Promise<{ cwd: string; agent_prompts: unknown[]; held: string[]; status: string }> {
    return this.control('GET', `/conversations/${id}`);
  }
}
