/** The local Fountain-compatible test server: programmatic entry point. */
export { startServer } from './server';
export type { FailRule, RunningServer, ServerOptions } from './server';
export { ServerClock } from './clock';
export type { Clock } from './clock';
export { scriptedAgents, parseScript } from './agents/scripted';
export type { AgentDefinition, AgentLauncher, AgentProcess, AgentLaunchContext, AgentMetadata } from './agents/types';
