/** The local agents' command ids (package.json), registered at activation and run by the lazily loaded UI. */
export const LOCAL_COMMAND_IDS = [
  'fountain.local.start',
  'fountain.local.sendPrompt',
  'fountain.local.cancelTurn',
  'fountain.local.stop',
  'fountain.local.restart',
  'fountain.local.showTranscript',
] as const;

export type LocalCommandId = (typeof LOCAL_COMMAND_IDS)[number];
