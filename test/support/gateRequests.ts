/** Local permission requests for gate tests: a shell command, or a file call of a kind on a path (fresh ids). */
import type { LocalPermissionRequest } from '../../src/local';

export const OPTIONS = [
  { optionId: 'allow', name: 'Allow', kind: 'allow_once' },
  { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
];
let n = 0;
export const shell = (command: string): LocalPermissionRequest => ({
  sessionId: 's',
  toolCall: { toolCallId: `p${n++}`, title: command, kind: 'execute', rawInput: { command } },
  options: OPTIONS,
});
export const file = (kind: string, p: string): LocalPermissionRequest => ({
  sessionId: 's',
  toolCall: { toolCallId: `p${n++}`, title: `${kind} ${p}`, kind, locations: [{ path: p }] },
  options: OPTIONS,
});
