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
export type { AgentAsking, AgentPreset, PresetId } from './presets';
export { agentModeClass, agentModeFor, sendableMode } from './agentModes';
export type { AgentModeClass, AgentModeInfo } from './agentModes';
export { opencodeConfigContent } from './opencodeConfig';
export { AgentNotFoundError, BASE_ENV_NAMES, buildAgentEnv, presetEnv, resolveCommand } from './launch';
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
  GateAnswer,
  PermissionDecision,
  PolicyMatch,
  SessionGate,
} from './permissions';
export type { GateDecision, GateMode, Grant } from '../policy';
export { LocalGate, decideSafely, gateModeFor, sameGrant } from './gate';
export type { GateDecisionEvent, GateSnapshot, LocalGateOptions, LocalGateSettings, SetModeResult } from './gate';
export {
  LOCAL_ALLOW_PATHS_SETTING,
  LOCAL_ALLOW_SETTING,
  applyGrantChoiceVia,
  grantAnswerOption,
  grantChoices,
} from './gateChoices';
export type { ApplyGrantResult, GrantChoice, GrantChoiceId } from './gateChoices';
export { outsideSentence } from './outsideSandbox';
export { probeRequests, whatWouldHappen } from './whatWouldHappen';
export { recommendLocal } from '../policy';
export type { ApprovalEntry, LocalRecommendation } from '../policy';
export type { WouldHappen } from './whatWouldHappen';
export { AgentStartError, LocalAgentSession } from './session';
export type { LocalSessionExit, LocalSessionOptions, LocalSessionStatus } from './session';
export { Transcript } from './transcript';
export {
  ALLOW_HOSTS_SETTING,
  ENGLISH_NETWORK_WORDS,
  NET_ALLOW_ONCE,
  NET_ALLOW_SESSION,
  NET_REJECT,
  createNetworkDecider,
} from './network/decider';
export type {
  NetworkAskInfo,
  NetworkDecided,
  NetworkDecider,
  NetworkDeciderOptions,
  NetworkEvent,
  NetworkWords,
} from './network/decider';
export type { ConnectAttempt, ConnectionRecord, HostDecider, HostVerdict } from './network/contract';
export { compileHostPatterns, parseHostPattern, patternCoversHost } from '../policy/networkHosts';
export type { WireDirection, WireListener } from './wire';
export { BLOCKED_HEADER } from './network/contract';
export type { ForwarderRuntime } from './network/forwarderLine';
