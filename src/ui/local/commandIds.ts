/** The local agents' command ids (package.json), registered at activation and run by the lazily loaded UI. */
export const SESSION_COMMAND_IDS = [
  'fountain.local.start',
  'fountain.local.sendPrompt',
  'fountain.local.cancelTurn',
  'fountain.local.stop',
  'fountain.local.restart',
  'fountain.local.showTranscript',
] as const;

/** The local gate's commands (src/ui/local/gateCommands.ts). */
export const GATE_COMMAND_IDS = [
  'fountain.local.changeMode',
  'fountain.local.whatWouldHappen',
  'fountain.local.recommend',
  'fountain.local.revokeGrant',
  'fountain.local.makeThisAsk',
] as const;

export const LOCAL_COMMAND_IDS = [...SESSION_COMMAND_IDS, ...GATE_COMMAND_IDS] as const;

export type SessionCommandId = (typeof SESSION_COMMAND_IDS)[number];
export type GateCommandId = (typeof GATE_COMMAND_IDS)[number];
export type LocalCommandId = SessionCommandId | GateCommandId;
