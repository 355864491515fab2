/**
 * The local server's real-agent pieces other tiers use (the scripted model and the install check), re-exported here
 * so that no tier imports the server tier directly.
 */
export { startFakeModel, QUIET_CLAUDE_ENV, type FakeModel, type FakeModelOptions } from './scriptedModel';
export { realAgentsInstalled, REAL_AGENTS_SETUP_HINT } from '../server/agents/real';
export {
  AGENT_ENTRIES,
  PRESET_AGENTS,
  presetAgentMissing,
  presetBin,
  presetModelEnv,
  type PresetAgent,
} from './presetAgents';
