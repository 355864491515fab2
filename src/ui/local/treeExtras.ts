/**
 * A local session's gate in the Pending Approvals tree (main bundle: the tree draws it before any local command
 * ran): its mode in the group's description, its "N decided without you" row, and one inert row per session grant,
 * each with a Revoke Grant action.
 */
import * as vscode from 'vscode';
import type { AgentAsking, AgentModeInfo, GateMode, Grant } from '../../local';
import { inertBlockShort, inertLabel, inertLine } from '../display';
import type { LocalGroupExtras, SessionRow } from '../tree/sessionRows';
import type { ManagedSession } from './manager';
import { sandboxRow } from './sandboxRow';
import { DecidedStrings } from '../history/decidedStrings';
import type { DecidedRecorder } from './decidedRecorder';

/** The contextValue of a grant row (package.json: the Revoke Grant inline action). */
export const GRANT_ROW_CONTEXT = 'fountainLocalGrant;';

/** A grant's identity within its session (the row id's second half). */
export function grantKey(g: Grant): string {
  switch (g.scope) {
    case 'exact':
      return `exact:${g.kind}:${g.key}`;
    case 'verb':
      return `verb:${g.verb}`;
    case 'tool':
      return `tool:${g.kind}`;
    case 'path':
      return `path:${g.access}:${g.dir}`;
  }
}

/** The tree id of a grant row: unique across sessions. */
export function grantRowId(sessionId: string, g: Grant): string {
  return JSON.stringify([sessionId, grantKey(g)]);
}

/** The session id and grant key of a grant row id; undefined for anything else. */
export function parseGrantRowId(id: string): { sessionId: string; key: string } | undefined {
  try {
    const v: unknown = JSON.parse(id);
    return Array.isArray(v) && v.length === 2 && typeof v[0] === 'string' && typeof v[1] === 'string'
      ? { sessionId: v[0], key: v[1] }
      : undefined;
  } catch {
    return undefined;
  }
}

/** The mode as the tree shows it: its id and what it does, in a few words. */
export function modeTreeText(mode: GateMode): string {
  switch (mode) {
    case 'acceptEdits':
      return vscode.l10n.t('mode acceptEdits: edits run unasked');
    case 'plan':
      return vscode.l10n.t('mode plan: read only');
    case 'allow':
      return vscode.l10n.t('mode allow: only what is allowed runs');
    case 'yolo':
      return vscode.l10n.t('YOLO: everything not denied runs unasked');
    default:
      return vscode.l10n.t('mode ask');
  }
}

/** A grant in words (the agent's text inert, on one line). */
export function grantWords(g: Grant, max = 1000): string {
  switch (g.scope) {
    case 'verb':
      return vscode.l10n.t('Grant: every "{0}" command ({0} *)', inertLine(g.verb, max));
    case 'tool':
      return vscode.l10n.t('Grant: every "{0}" call', inertLine(g.kind, max));
    case 'path':
      return g.access === 'r'
        ? vscode.l10n.t('Grant: reading in the folder {0}', inertLine(g.dir, max))
        : g.access === 'w'
          ? vscode.l10n.t('Grant: writing in the folder {0}', inertLine(g.dir, max))
          : vscode.l10n.t('Grant: reading and writing in the folder {0}', inertLine(g.dir, max));
    default:
      return vscode.l10n.t('Grant: exactly "{0}" ({1})', inertLine(g.key, max), inertLine(g.kind, 40));
  }
}

function grantRow(s: ManagedSession, g: Grant): SessionRow {
  const label = inertLabel(grantWords(g, 4000), 100).text;
  const full = inertBlockShort(g.scope === 'exact' ? g.key : '', 2000);
  return {
    id: grantRowId(s.id, g),
    label,
    tooltip: [
      grantWords(g, 200),
      ...(g.scope === 'exact' ? [full.text] : []),
      vscode.l10n.t('A session grant: it ends with the session and never lifts the denylist or a deny pattern.'),
    ].join('\n'),
    icon: 'key',
    contextValue: GRANT_ROW_CONTEXT,
  };
}

/** Whether the agent's own mode is the expected one: its asking mode (its own plan mode too while the gate plans). */
function agentModeFits(gate: GateMode, agent: AgentModeInfo): boolean {
  return agent.kind === 'asks' || (gate === 'plan' && agent.kind === 'plan');
}

/** The agent half of the mode: undefined when it fits the gate's (nothing to add), else words for the tree. */
export function agentModeText(
  gate: GateMode,
  agent: AgentModeInfo | undefined,
  asking?: AgentAsking,
): string | undefined {
  if (asking?.level === 'never') {
    return vscode.l10n.t('this agent does not ask; the gate sees nothing');
  }
  if (!agent || agentModeFits(gate, agent)) {
    return undefined;
  }
  const id = inertLine(agent.id, 40);
  return agent.asks
    ? vscode.l10n.t('agent mode {0}', id)
    : vscode.l10n.t('agent mode {0}: this agent does not ask; the gate sees nothing', id);
}

/** The tooltip's lines about the agent: the mode it reports and what it runs without asking. */
function agentTooltip(agent: AgentModeInfo | undefined, asking: AgentAsking | undefined): string[] {
  const lines = [
    agent
      ? vscode.l10n.t('Agent mode (as the agent reports it): {0}', inertLine(agent.name ?? agent.id, 80))
      : vscode.l10n.t('The agent reports no mode of its own.'),
  ];
  if (asking?.level === 'partial') {
    lines.push(
      vscode.l10n.t('This agent runs some calls without asking, so the gate never sees them: {0}.', asking.unasked),
    );
  } else if (asking === undefined) {
    lines.push(vscode.l10n.t('Fountain has not checked whether this agent asks before it acts.'));
  }
  return lines;
}

/** The contextValue of the "N decided without you" row (no menu actions: its click opens the group). */
export const DECIDED_ROW_CONTEXT = 'fountainLocalDecided;';

/** "12 decided without you": the session's decisions the gate made by itself; a click opens them in the History. */
export function decidedRow(s: ManagedSession, decided: DecidedRecorder): SessionRow {
  const title = DecidedStrings.count(decided.count(s));
  return {
    // Three elements: never read as a grant row id (parseGrantRowId).
    id: JSON.stringify([s.id, 'decided', '']),
    label: title,
    tooltip: DecidedStrings.countTooltip,
    icon: 'history',
    contextValue: DECIDED_ROW_CONTEXT,
    command: { command: 'fountain.history.showDecided', title, arguments: [decided.keyOf(s)] },
  };
}

/** What the tree shows for one session besides its requests. */
export function sessionExtras(s: ManagedSession, decided: DecidedRecorder): LocalGroupExtras {
  const mode = s.gate.mode;
  const agent = agentModeText(mode, s.agentMode, s.asking);
  const blind = s.asking?.level === 'never' || (s.agentMode !== undefined && !s.agentMode.asks);
  return {
    mode: {
      text: agent ? `${modeTreeText(mode)} · ${agent}` : modeTreeText(mode),
      tooltip: [
        vscode.l10n.t('Local gate mode: {0}. Change it with "Change Local Agent Mode…".', mode),
        ...agentTooltip(s.agentMode, s.asking),
      ].join('\n'),
      warning: mode === 'yolo' || blind,
    },
    rows: [sandboxRow(s), decidedRow(s, decided), ...s.gate.grants.map((g) => grantRow(s, g))],
  };
}
