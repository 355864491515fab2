/** Local ACP agents: a self-contained source of permission requests (no vscode import in this folder). */
export {
  DEFAULT_LOCAL_POLICY,
  LocalAgentConfigSchema,
  parseLocalAgents,
  specFromConfig,
  specFromPreset,
} from './config';
export type { LocalAgentConfig, LocalAgentSpec, LocalAgentsParse } from './config';
export { PRESETS, presetById } from './presets';
export type { AgentPreset, PresetId } from './presets';
export { AgentNotFoundError, BASE_ENV_NAMES, buildAgentEnv, resolveCommand } from './launch';
export { processGroupAlive } from './agentProcess';
export type { AgentExit } from './agentProcess';
export { localAskTimeoutSec } from './permissions';
export type {
  AnswerResult,
  AskClose,
  AskInbox,
  LocalOption,
  LocalOutcome,
  LocalPermissionRequest,
  LocalToolCall,
  PendingAsk,
  PermissionDecider,
  PermissionDecision,
  PolicyMatch,
} from './permissions';
export { AgentStartError, LocalAgentSession } from './session';
export type { LocalSessionExit, LocalSessionOptions, LocalSessionStatus } from './session';
export { Transcript } from './transcript';
export type { WireDirection, WireListener } from './wire';
