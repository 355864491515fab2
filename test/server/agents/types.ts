/**
 * The launcher contract between the test server and an ACP agent. The server is the ACP *client*: it starts one agent
 * per conversation and talks ND-JSON JSON-RPC over the agent's stdin/stdout, here given as web streams.
 * Scripted agents (./scripted.ts) run in-process; real agents (./real/index.ts) are child processes.
 */

export interface AgentLaunchContext {
  /** The Fountain conversation id (a UUID). */
  readonly conversationId: string;
  /** The agent's working directory (the "sandbox"); it exists when launch is called. */
  readonly cwd: string;
  /** Extra environment for the agent; never the caller's secrets. */
  readonly env: Readonly<Record<string, string>>;
}

export interface AgentProcess {
  /** The agent's stdin: the server writes ND-JSON here. */
  readonly input: WritableStream<Uint8Array>;
  /** The agent's stdout: the server reads ND-JSON from here. */
  readonly output: ReadableStream<Uint8Array>;
  /** Stop the agent and release what it holds. Safe to call more than once. */
  dispose(): Promise<void>;
}

export type AgentLauncher = (ctx: AgentLaunchContext) => Promise<AgentProcess>;

/** `claude | codex | gemini | opencode | acp`, as Fountain's `runtime` field. */
export type AgentRuntime = 'claude' | 'codex' | 'gemini' | 'opencode' | 'acp';

export interface AgentMetadata {
  readonly id: string;
  readonly name: string;
  readonly runtime: AgentRuntime;
  /** The agent's stored permission policy (the agent-level policy a launch policy may only narrow). */
  readonly policy: Record<string, unknown>;
  /** One line for humans and the demo. */
  readonly description?: string;
}

export interface AgentDefinition extends AgentMetadata {
  readonly launch: AgentLauncher;
}
