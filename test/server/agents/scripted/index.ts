/**
 * Scripted in-process ACP agents: one per runtime style (./styles), driven by the prompt DSL (./dsl), run by
 * ./agent. See test/server/README.md for the DSL.
 */
import type { AgentDefinition } from '../types';
import { launchScripted } from './agent';
import { STYLES } from './styles';

export { DEFAULT_DETACHED_TIMEOUT_SEC, parseResume, parseScript, performStep } from './dsl';
export { CLAUDE_OPTIONS, CLAUDE_PLAN_OPTIONS, GEMINI_OPTIONS, OPENCODE_OPTIONS, WAITER_OPTIONS } from './styles';
export type { Option, ToolCall } from './styles';

/** Agent-level policies the scripted agents ship with: they ask for everything, so every request reaches a human. */
const DEFAULT_POLICY: Record<string, unknown> = { default: 'ask' };

export function scriptedAgents(): AgentDefinition[] {
  return STYLES.map((s) => ({
    id: s.id,
    name: s.name,
    runtime: s.runtime,
    description: s.description,
    policy:
      s.runtime === 'opencode'
        ? {}
        : s.detachByDefault
          ? { default: 'ask', ask_timeout: 259200 }
          : { ...DEFAULT_POLICY },
    launch: (ctx) => launchScripted(s, ctx),
  }));
}
