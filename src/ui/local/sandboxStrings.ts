import * as vscode from 'vscode';
import type { SandboxUnavailable } from '../../local/sandbox';

/** Why an agent runs without a sandbox, in a few words. */
function why(reason: SandboxUnavailable | 'off' | 'not_requested'): string {
  switch (reason) {
    case 'off':
      return vscode.l10n.t('fountain.local.sandbox is off');
    case 'not_installed':
      return vscode.l10n.t('bubblewrap not installed');
    case 'blocked':
      return vscode.l10n.t('bubblewrap is installed but blocked by the user-namespace restriction');
    case 'not_working':
      return vscode.l10n.t('the sandbox cannot start on this machine');
    case 'unsupported_platform':
      return vscode.l10n.t('no sandbox on this platform');
    default:
      return vscode.l10n.t('started without one');
  }
}

/** Every user-facing string of the sandbox (src/ui/local/sandbox*.ts). */
export const SandboxStrings = {
  why,
  startUnsandboxed: vscode.l10n.t('Start Without Sandbox'),
  offModal: vscode.l10n.t('Start this local agent without a sandbox?'),
  offModalDetail: vscode.l10n.t(
    'fountain.local.sandbox is "off": the agent and every command it runs will have all of your rights (your SSH keys, cloud credentials and every file you can write). The gate still asks, but nothing bounds a mistake. This is asked once per window.',
  ),
  copyInstall: vscode.l10n.t('Copy Install Command'),
  unavailableWarning: (reason: Parameters<typeof why>[0], install: string | undefined, fix?: string) =>
    install
      ? vscode.l10n.t(
          'Local agents run without a sandbox ({0}): they can read your secrets and write anywhere you can. Install it with: {1}',
          why(reason),
          install,
        )
      : fix
        ? vscode.l10n.t(
            'Local agents run without a sandbox ({0}): they can read your secrets and write anywhere you can. Fix: {1}',
            why(reason),
            fix,
          )
        : vscode.l10n.t(
            'Local agents run without a sandbox ({0}): they can read your secrets and write anywhere you can.',
            why(reason),
          ),
  sandboxedRow: (extra: string) => vscode.l10n.t('sandbox: workspace rw, home hidden{0}', extra),
  allowPathsCount: (n: number) => vscode.l10n.t(', {0} allowPaths', n),
  unsandboxedRow: (reason: string) => vscode.l10n.t('not sandboxed: {0}', reason),
  writable: (paths: string) => vscode.l10n.t('Writable: {0}', paths),
  readOnly: (paths: string) => vscode.l10n.t('Read-only besides the system: {0}', paths),
  protectedFiles: (paths: string) => vscode.l10n.t('Read-only in the workspace: {0}', paths),
  hidden: (paths: string) => vscode.l10n.t('Never visible: {0}', paths),
  skipped: (paths: string) => vscode.l10n.t('Not mounted: {0}', paths),
  network: (how: 'proxy' | 'none' | 'open') =>
    how === 'proxy'
      ? vscode.l10n.t(
          "Network: only through Fountain's proxy, which decides each host (not this machine's 127.0.0.1 or its local sockets).",
        )
      : how === 'none'
        ? vscode.l10n.t('Network: none.')
        : vscode.l10n.t(
            "Network: the host's, not confined (fountain.local.network is open): the agent reaches this machine's local services and anything else.",
          ),
  openNetworkCount: vscode.l10n.t(', network open'),
  unsandboxedTooltip: vscode.l10n.t(
    'This agent and its commands run with all of your rights. Set fountain.local.sandbox to "auto" or "required" where a sandbox is available.',
  ),
  newReposRow: (n: number) =>
    n === 1
      ? vscode.l10n.t('sandbox: a new git repository appeared inside')
      : vscode.l10n.t('sandbox: {0} new git repositories appeared inside', n),
  newReposTooltip: (paths: string) =>
    vscode.l10n.t(
      "Created inside the sandbox during this session: {0}. Its .git/config can run commands when git outside opens it (VS Code's git extension does): read it before you open the folder.",
      paths,
    ),
  newRepoWarning: (agent: string, repo: string) =>
    vscode.l10n.t(
      "{0} created a new git repository inside its sandbox: {1}. Its .git/config can run commands when git outside opens it (VS Code's git extension does): read it before you open the folder.",
      agent,
      repo,
    ),
  statusOne: (agent: string) => vscode.l10n.t('$(warning) Unsandboxed: {0}', agent),
  statusMany: (n: number) => vscode.l10n.t('$(warning) {0} unsandboxed agents', n),
  statusTooltip: (agents: string) =>
    vscode.l10n.t('Running without a sandbox: {0}. Click to open the fountain.local.sandbox setting.', agents),
  openNetworkOne: (agent: string) => vscode.l10n.t('$(warning) Open network: {0}', agent),
  openNetworkMany: (n: number) => vscode.l10n.t('$(warning) {0} agents on the open network', n),
  openNetworkTooltip: (agents: string) =>
    vscode.l10n.t(
      "Sandboxed, but on the host's network (fountain.local.network is open): {0}. They reach this machine's local services and any host. Click to open the fountain.local.network setting.",
      agents,
    ),
};
