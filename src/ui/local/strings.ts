import * as vscode from 'vscode';
import type { StartFailure } from '../../local/startFailure';

/** Every user-facing string of the local agents' VS Code side, as whole sentences for vscode.l10n. */
export const LocalStrings = {
  untrusted: vscode.l10n.t(
    'Local agents are not started in an untrusted workspace: an agent runs commands in its folder. Trust this workspace to start one.',
  ),
  manageTrust: vscode.l10n.t('Manage Workspace Trust'),
  noFolder: vscode.l10n.t('Open a folder first: a local agent works in a workspace folder.'),
  pickAgent: vscode.l10n.t('Pick a local agent to start'),
  pickFolder: vscode.l10n.t('Pick the workspace folder the agent works in'),
  presetsGroup: vscode.l10n.t('Built-in presets'),
  configuredGroup: vscode.l10n.t('From the fountain.localAgents setting'),
  notInstalled: (install: string) => vscode.l10n.t('Not installed. Install it with: {0}', install),
  notFound: vscode.l10n.t('Not found on PATH.'),
  settingProblems: (count: number) =>
    count === 1
      ? vscode.l10n.t('1 entry of the fountain.localAgents setting was ignored; the logs say why.')
      : vscode.l10n.t('{0} entries of the fountain.localAgents setting were ignored; the logs say why.', count),
  starting: (agent: string, folder: string) => vscode.l10n.t('Starting {0} in {1}…', agent, folder),
  started: (agent: string, folder: string) => vscode.l10n.t('{0} is ready in {1}.', agent, folder),
  startFailed: (message: string) => vscode.l10n.t('The local agent did not start: {0}', message),
  crashed: (message: string, tail: string) =>
    tail
      ? vscode.l10n.t('{0}. Its last output was: {1}', message, tail)
      : vscode.l10n.t('{0}. It wrote nothing to stderr.', message),
  restart: vscode.l10n.t('Restart'),
  showLogs: vscode.l10n.t('Show Logs'),
  noSession: vscode.l10n.t('No local agent is running. Start one with "Start Local Agent…".'),
  pickSession: vscode.l10n.t('Pick a local agent session'),
  promptTitle: (agent: string, folder: string) => vscode.l10n.t('Prompt for {0} in {1}', agent, folder),
  promptPlaceholder: vscode.l10n.t('One line; press Enter to send. For several lines use the compose button.'),
  composeInEditor: vscode.l10n.t('Compose in Editor (several lines)'),
  promptEmpty: vscode.l10n.t('The prompt is empty.'),
  promptBusy: (agent: string) =>
    vscode.l10n.t('{0} is still working on the previous prompt. Cancel the turn or wait for it to end.', agent),
  promptFailed: (message: string) => vscode.l10n.t('The prompt was not sent: {0}', message),
  draftSessionGone: vscode.l10n.t('The session this prompt draft was for has ended. Start the agent again.'),
  stopped: (agent: string) => vscode.l10n.t('{0} stopped.', agent),
};

/**
 * One sentence for an agent that did not start, naming it and the likely cause (its output is in the logs, never
 * here). `agent` and every value in `f` are already made inert by the caller.
 */
export function couldNotStart(agent: string, f: StartFailure): string {
  switch (f.kind) {
    case 'notFound':
      return f.install
        ? vscode.l10n.t(
            '{0} could not start: the command {1} was not found on its PATH. Install it with: {2}',
            agent,
            f.command,
            f.install,
          )
        : vscode.l10n.t(
            '{0} could not start: the command {1} was not found on its PATH (or is not executable).',
            agent,
            f.command,
          );
    case 'cannotRun':
      return vscode.l10n.t('{0} could not start: {1} could not be run ({2}).', agent, f.command, f.code);
    case 'missingModule':
      if (!f.sandboxed) {
        return vscode.l10n.t(
          '{0} could not start: a module it needs is missing ({1}); its install may be incomplete.',
          agent,
          f.module ?? '?',
        );
      }
      return vscode.l10n.t(
        '{0} could not start: a module it needs is missing inside the sandbox ({1}). The logs have its output.',
        agent,
        f.module ?? '?',
      );
    case 'exited':
      return vscode.l10n.t('{0} could not start: it exited at once ({1}). The logs have its output.', agent, f.how);
    case 'timeout':
      return vscode.l10n.t('{0} could not start: it did not answer within {1} seconds.', agent, f.seconds);
    default:
      return vscode.l10n.t('{0} could not start: {1}', agent, f.line);
  }
}

/** Status words for a session, as shown in pickers and the tree. */
export function statusText(status: string): string {
  switch (status) {
    case 'starting':
      return vscode.l10n.t('starting');
    case 'idle':
      return vscode.l10n.t('idle');
    case 'running':
      return vscode.l10n.t('running');
    case 'waiting':
      return vscode.l10n.t('waiting');
    case 'exited':
      return vscode.l10n.t('exited');
    default:
      return vscode.l10n.t('stopped');
  }
}
