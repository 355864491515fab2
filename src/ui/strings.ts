import * as vscode from 'vscode';
import { conversationLabel, type ConversationWords } from '../domain/conversationLabel';

/** Every user-facing string of the code side, localisable (house style §8.17). */
const AuthStrings = {
  openSettings: vscode.l10n.t('Open Settings'),
  signIn: vscode.l10n.t('Sign In'),
  signOut: vscode.l10n.t('Sign Out'),
  noServer: vscode.l10n.t('No Fountain server is configured. Set "fountain.serverUrl" (or FOUNTAIN_BASE_URL).'),
  accountLabel: (who: string, server: string) => vscode.l10n.t('{0} on {1}', who, server),
  signInCancelled: vscode.l10n.t('Sign-in to Fountain was cancelled or refused.'),
  signedOut: (server: string) => vscode.l10n.t('Signed out of Fountain at {0}.', server),
};

/** Strings of the approval flow. */
const AnswerStrings = {
  retry: vscode.l10n.t('Retry'),
  noLongerWaitingGone: vscode.l10n.t('This request is no longer waiting.'),
  optionNotOfferedLocal: vscode.l10n.t('That option was not offered for this request; nothing was sent.'),
  answeredElsewhere: (option: string, ago: string, label: string) =>
    vscode.l10n.t('Already answered elsewhere: {0} {1}. Nothing was sent for "{2}".', option, ago, label),
  answeredElsewhereUnknown: (ago: string, label: string) =>
    vscode.l10n.t('Already answered elsewhere {0}. Nothing was sent for "{1}".', ago, label),
  alreadyAnsweredByYou: (option: string, ago: string, label: string) =>
    vscode.l10n.t('You already answered "{2}": {0} {1}.', option, ago, label),
  noLongerWaiting: (reason: string, label: string) =>
    vscode.l10n.t('No longer waiting: {0}. Nothing was sent for "{1}".', reason, label),
  reasonExpired: vscode.l10n.t('expired'),
  reasonTurnEnded: vscode.l10n.t('turn ended'),
  reasonConversationEnded: vscode.l10n.t('conversation ended'),
  reasonAgentExited: vscode.l10n.t('the agent exited'),
  reasonWithdrawn: vscode.l10n.t('the agent withdrew it'),
  reasonGone: vscode.l10n.t('the server no longer holds it'),
  answered: (label: string) => vscode.l10n.t('Answered "{0}".', label),
  notDelivered: (label: string) =>
    vscode.l10n.t(
      'Your answer to "{0}" was recorded, but the conversation could not wake up. Send it any prompt to continue.',
      label,
    ),
  leftOpen: (reason: string, label: string) =>
    vscode.l10n.t('"{1}" is still waiting: {0}. You can answer it again later.', reason, label),
  leftOpenReason: (reason: 'busy' | 'credits' | 'suspended' | 'unavailable') =>
    ({
      busy: vscode.l10n.t('the conversation is busy with another turn'),
      credits: vscode.l10n.t('the account is out of credits'),
      suspended: vscode.l10n.t('the account is suspended'),
      unavailable: vscode.l10n.t('the server is not ready'),
    })[reason],
  optionNotOfferedServer: (label: string) =>
    vscode.l10n.t('The server refused the option for "{0}" as not offered. The request is still waiting.', label),
  spriteToken: vscode.l10n.t(
    'The server refused the answer: the key in use is a sandbox token, which may not answer requests. Sign in with a user key.',
  ),
  authFailed: vscode.l10n.t('The Fountain server no longer accepts your key. Sign in again.'),
  rateLimited: (retryAfterSec: number | undefined) =>
    retryAfterSec !== undefined
      ? vscode.l10n.t(
          'The server is rate-limiting answers; try again in {0} s. The request is still waiting.',
          retryAfterSec,
        )
      : vscode.l10n.t('The server is rate-limiting answers; try again shortly. The request is still waiting.'),
  network: (label: string) =>
    vscode.l10n.t('Could not reach the server to answer "{0}". It is still waiting; nothing was sent twice.', label),
  unexpected: (why: string, label: string) =>
    vscode.l10n.t(
      'The answer to "{1}" did not go through: {0}. The request is still waiting; Show Logs has the details.',
      why,
      label,
    ),
  /** Reject with Reason…: the reject did not take, so its reason stays here. */
  reasonNotSent: (message: string) => vscode.l10n.t('{0} Your reason was not sent.', message),
};

/** How a toast or a list names a conversation: its title, else its agent's name, else untitled; never an id. */
export function conversationName(c: {
  readonly title?: string;
  readonly agentName?: string;
  readonly runtime?: string;
}): string {
  return conversationLabel(c, CONVERSATION_WORDS);
}

const CONVERSATION_WORDS: ConversationWords = {
  agentAndRuntime: (agent, runtime) => vscode.l10n.t('{0} ({1})', agent, runtime),
  untitledWithRuntime: (runtime) => vscode.l10n.t('Untitled conversation ({0})', runtime),
  untitled: vscode.l10n.t('Untitled conversation'),
};

export const Strings = { ...AuthStrings, ...AnswerStrings };

export const TreeStrings = {
  unknownConversation: vscode.l10n.t('(conversation)'),
  unknownRequest: vscode.l10n.t('(request no longer known)'),
  badge: (n: number) => (n === 1 ? vscode.l10n.t('1 approval waiting') : vscode.l10n.t('{0} approvals waiting', n)),
  waiting: (n: number) => (n === 0 ? vscode.l10n.t('nothing waiting') : vscode.l10n.t('{0} waiting', n)),
  tooltipAgent: (agent: string, runtime: string) => vscode.l10n.t('Agent: {0} · runtime: {1}', agent, runtime),
  tooltipServer: (server: string) => vscode.l10n.t('On {0}', server),
  showDetails: vscode.l10n.t('Show Details'),
  left: (countdown: string) => vscode.l10n.t('{0} left', countdown),
  answering: vscode.l10n.t('answering…'),
  answeredByYou: (option: string) => vscode.l10n.t('answered by you: {0}', option),
  expired: vscode.l10n.t('expired'),
  turnEnded: vscode.l10n.t('turn ended'),
  conversationEnded: vscode.l10n.t('conversation ended'),
  noLongerWaiting: vscode.l10n.t('no longer waiting'),
  agentExited: vscode.l10n.t('agent exited'),
  withdrawn: vscode.l10n.t('withdrawn by the agent'),
  /** A local session's status in its group's description. */
  localStatus: (status: string): string =>
    ({
      starting: vscode.l10n.t('starting'),
      idle: vscode.l10n.t('idle'),
      running: vscode.l10n.t('running'),
      waiting: vscode.l10n.t('waiting'),
      exited: vscode.l10n.t('exited'),
      stopped: vscode.l10n.t('stopped'),
    })[status] ?? status,
  tooltipLocal: (agent: string) =>
    vscode.l10n.t('Local agent {0}, run by this editor: its requests never go to a Fountain server', agent),
  tooltipKind: (kind: string) => vscode.l10n.t('Kind: {0}', kind),
  tooltipConversationTitle: (title: string) => vscode.l10n.t('Conversation: {0}', title),
  tooltipSummary: (summary: string) => vscode.l10n.t('Summary: {0}', summary),
  tooltipOptions: (options: string) => vscode.l10n.t('Options: {0}', options),
  tooltipLastError: (kind: string) => vscode.l10n.t('Last answer attempt failed: {0}', kind),
  tooltipShortened: vscode.l10n.t('(shortened: Show Details has the full text)'),
};

export const DetailStrings = {
  gone: vscode.l10n.t('This request is no longer known to Fountain Approvals.'),
  diffTitle: (p: string) => vscode.l10n.t('{0} (current ↔ proposed)', p),
};

export const ToastStrings = {
  /** On every toast of a local agent that runs unsandboxed (the setting is off, or no sandbox could be had). */
  outsideSandbox: vscode.l10n.t('runs outside any sandbox'),
  /** On every toast of a sandboxed local agent on the host's network (`fountain.local.network` open). */
  openNetwork: vscode.l10n.t('network not confined'),
  single: (label: string, where: string, kind: string) => vscode.l10n.t('Approve {2}: {0} — {1}', label, where, kind),
  /** claude's plan approval (ExitPlanMode): the plan itself opens beside the toast. */
  plan: (label: string, where: string) =>
    vscode.l10n.t('Approve the plan "{0}" — {1} (the whole plan is open beside)', label, where),
  /** "1 of N": this request and how many others are waiting now. */
  oneOf: (total: number) => vscode.l10n.t('1 of {0} waiting', total),
  rejectWithReason: vscode.l10n.t('Reject with Reason…'),
  merged: (n: number) => (n === 1 ? vscode.l10n.t('1 approval waiting') : vscode.l10n.t('{0} approvals waiting', n)),
  /** The extras of a burst, after the first requests got toasts of their own. */
  moreWaiting: (n: number) =>
    n === 1 ? vscode.l10n.t('1 more approval waiting') : vscode.l10n.t('{0} more approvals waiting', n),
  /** A button whose option name disagrees with its kind: the kind first. */
  optionWithKind: (name: string, kind: string) => vscode.l10n.t('{1}: "{0}"', name, kind),
  kindLabel: (kind: string) => {
    switch (kind) {
      case 'allow_once':
        return vscode.l10n.t('Allow once');
      case 'allow_always':
        return vscode.l10n.t('Allow always');
      case 'reject_once':
        return vscode.l10n.t('Reject once');
      case 'reject_always':
        return vscode.l10n.t('Reject always');
      default:
        return vscode.l10n.t('Kind {0}', kind);
    }
  },
  review: vscode.l10n.t('Review'),
  more: vscode.l10n.t('More…'),
  details: vscode.l10n.t('Details'),
  mute: vscode.l10n.t("Don't Show Again"),
  openSettings: vscode.l10n.t('Open Settings'),
  muted: vscode.l10n.t(
    'Approval notifications are off ("fountain.notifications"). The Pending Approvals view and its badge still update.',
  ),
};

export const StatusStrings = {
  name: vscode.l10n.t('Fountain Approvals'),
  connected: vscode.l10n.t('connected'),
  connecting: vscode.l10n.t('connecting…'),
  /** The cause (a status, a socket error) is in the log: "Stream disconnected (…)". */
  backoff: vscode.l10n.t('connection lost, reconnecting; Show Logs says why'),
  authFailed: (message: string) => vscode.l10n.t('the server refused the key: {0}', message),
  refused: (message: string) => vscode.l10n.t('not connecting: {0}', message),
  noServer: vscode.l10n.t('no server configured'),
  noKey: vscode.l10n.t('not signed in'),
  waiting: (n: number) => (n === 1 ? vscode.l10n.t('1 approval waiting') : vscode.l10n.t('{0} approvals waiting', n)),
  /** Beside the count while a request has waited over a minute (the item then has the warning background). */
  waitingLong: vscode.l10n.t('a request has waited over a minute'),
  show: vscode.l10n.t('Show Pending Approvals'),
  reconnect: vscode.l10n.t('Reconnect'),
  showLogs: vscode.l10n.t('Show Logs'),
  signIn: vscode.l10n.t('Sign In'),
};

export const CommandStrings = {
  noAllowOnce: vscode.l10n.t(
    'The agent offered no "allow once" option for this request; use Answer… to see its options.',
  ),
  noReject: vscode.l10n.t('The agent offered no reject option for this request; use Answer… to see its options.'),
  selectFirst: vscode.l10n.t('Select a request in the Pending Approvals view first.'),
  answerNeedsRow: vscode.l10n.t(
    "Nothing was sent: answer from a request's own buttons in the Pending Approvals view, or press the key on the focused request.",
  ),
  forged: vscode.l10n.t('Refused: Fountain Approvals answers only requests picked in its own views. Nothing was sent.'),
  gone: vscode.l10n.t('This request is no longer known.'),
};

/** Provenance ("why it asked") and the agent-policy editor (issue 6). */
export const PolicyStrings = {
  agentPolicy: vscode.l10n.t('agent policy'),
  launchPolicy: vscode.l10n.t('launch policy'),
  localPolicy: (agent: string) => vscode.l10n.t('local policy of {0}', agent),
  localNoKey: (where: string) => vscode.l10n.t('asked: no key of the {0} names this tool', where),
  localGate: (reason: string) => vscode.l10n.t('asked by the local gate: {0}', reason),
  keyTitle: (key: string) => vscode.l10n.t('title "{0}"', key),
  keyKind: (key: string) => vscode.l10n.t('kind "{0}"', key),
  keyDefault: vscode.l10n.t('"default"'),
  /** Toast suffix and tree/details line: "asked by kind "execute" (agent policy)". */
  askedBy: (key: string, source: string) => vscode.l10n.t('asked by {0} in the {1}', key, source),
  decidedBy: (verdict: string, key: string, source: string) =>
    vscode.l10n.t('{0} by {1} in the {2}', verdict, key, source),
  builtin: vscode.l10n.t('no policy names this tool (built-in auto_allow)'),
  loosened: vscode.l10n.t('note: a title key outranked a stricter kind key of the other policy'),
  unreadable: vscode.l10n.t("unknown: the agent's policy could not be read"),
  pendingConversation: vscode.l10n.t('reading the conversation…'),
  pendingAgent: vscode.l10n.t('reading the agent policy…'),
  tooltipWhy: (text: string) => vscode.l10n.t('Why asked: {0}', text),
  noAgent: vscode.l10n.t('This request has no known agent yet; try again in a moment.'),
};

/** The approval history's commands (issue 6); the view's own strings are in historyStrings.ts (dist/history.js). */
export const HistoryStrings = {
  cleared: vscode.l10n.t('Approval history cleared.'),
  confirmClear: vscode.l10n.t('Clear the local approval history? Recommendations are computed from it.'),
  clear: vscode.l10n.t('Clear'),
  noRecommendations: vscode.l10n.t(
    'No recommendations yet: a kind needs the same answer every time, often enough, across conversations.',
  ),
};
