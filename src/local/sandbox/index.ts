/** The OS sandbox local agents run in (issue 19): plan, bubblewrap argv, macOS profile, detection. No vscode here. */
export { bwrapArgs, BWRAP_FLAGS } from './bwrap';
export {
  agentKey,
  confine,
  fsFacts,
  networkSetting,
  removeBlockers,
  sandboxSetting,
  SandboxRequiredError,
  UnsandboxedDeclinedError,
} from './confine';
export type {
  ConfineTarget,
  Confinement,
  NetworkSetting,
  SandboxRequest,
  SandboxSetting,
  SandboxWrapper,
  Unsandboxed,
} from './confine';
export { BWRAP_INSTALL, BWRAP_UNBLOCK, detectSandbox, probeFailure, SYSTEM_BWRAP } from './detect';
export type { SandboxDetection, SandboxTool, SandboxUnavailable } from './detect';
export { AGENT_STATE, HIDDEN_HOME, HIDDEN_SYSTEM, READ_ONLY_HOME } from './paths';
export type { AgentState } from './paths';
export { patternFolder, planSandbox } from './plan';
export type { HiddenPath, Layer, MountAccess, MountWhy, PathFacts, PathKind, SandboxInput, SandboxPlan } from './plan';
export { homeShort, outsideSandbox, sandboxView } from './scope';
export type { OutsideSandbox, SandboxScope, SandboxView } from './scope';
export { sbplString, SEATBELT_SERVICES, seatbeltProfile, SeatbeltPathError } from './seatbelt';
export { MAX_WATCHED, NewRepoWatch, WATCH_DEPTH } from './newRepos';
