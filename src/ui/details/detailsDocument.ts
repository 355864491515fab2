/**
 * The text of a request's details document: everything about one request, agent text inert. Built as its own bundle,
 * dist/details.js (esbuild.mjs), and loaded by RequestDetailsView (details.ts) the first time details are shown.
 */
import { conversationLabel } from '../../domain/conversationLabel';
import type { InboxItem } from '../../domain/inbox';
import { AGENT_EXITED } from '../../domain/model';
import { DetailsDocumentStrings as S } from './detailsStrings';
import { inertBlock, inertFull } from '../display';
import { reachesOf, reachSentence } from './reachText';

export { optionReachLine, toastReach } from './reachText';
import type { ProvenanceText } from '../tree/pendingTree';
import { Time } from '../time';

export function renderDetails(
  item: InboxItem,
  provenance: ProvenanceText | undefined,
  now: number,
  evidence: readonly string[] = [],
): string {
  const r = item.request;
  const c = item.conversation;
  const out: string[] = [];
  const field = (name: string, value: string) => out.push(`${(name + ':').padEnd(16)} ${value}`);
  const section = (title: string) => out.push('', title, '-'.repeat(title.length));
  out.push(S.heading, '='.repeat(S.heading.length));
  if (item.danger) {
    out.push(S.danger(inertFull(item.danger.reason)), '');
  }
  field(S.status, status(item, now));
  // Named by its title, else its agent's name and runtime; the id is its own labelled field (for the server's
  // logs), never the name.
  field(S.conversation, inertFull(conversationLabel(c, S.conversationWords)));
  field(S.conversationId, c.id);
  field(S.server, c.server);
  field(S.agent, c.agentName ? inertFull(c.agentName) : '—');
  field(S.runtime, c.runtime ? inertFull(c.runtime) : '—');
  field(S.kind, r.kind ? inertFull(r.kind) : '—');
  if (provenance) {
    field(S.whyAsked, provenance.describe(item));
  }
  field(S.askedAt, Time.dateTime(item.askedAt));
  if (item.deadline !== undefined) {
    field(S.deadline, `${Time.dateTime(item.deadline)} (${item.detached ? S.detached : S.inTurn})`);
  }
  if (r.metaTimeoutSec !== undefined) {
    field(S.agentTimeout, `${r.metaTimeoutSec} s`);
  }
  field(S.requestId, inertFull(r.key.requestId));
  section(S.tool);
  out.push(inertBlock(item.label));
  if (r.title && r.title !== item.label) {
    out.push('', S.titleLine(''), inertBlock(r.title));
  }
  if (evidence.length) {
    // What is really there and what the agent changed so far (src/ui/evidence/evidence.ts; its lines arrive inert).
    section(S.evidence);
    out.push(...evidence);
  }
  if (r.summary) {
    section(S.summary);
    out.push(inertBlock(r.summary));
  }
  const cwd = cwdOf(r.rawInput);
  if (cwd || r.locations.length) {
    section(S.paths);
    if (cwd) {
      out.push(S.cwd(inertFull(cwd)));
    }
    for (const l of r.locations) {
      out.push(`- ${inertFull(l.path)}${l.line !== undefined ? `:${l.line}` : ''}`);
    }
    out.push(S.sandboxPaths);
  }
  section(S.options);
  const reaches = reachesOf(item);
  r.options.forEach((o, i) => {
    out.push(`${i + 1}. ${inertFull(o.name)}  —  ${S.optionKind(inertFull(o.kind))}, id ${inertFull(o.optionId)}`);
    // What a persistent option keeps, where and for how long (the agent's own words come inert from the domain).
    const reach = reaches.find((x) => x.option === o);
    if (reach) {
      out.push(`   ${S.reach(reachSentence(reach))}`);
    }
  });
  if (r.rawInput !== undefined) {
    section(S.rawInput);
    out.push(inertBlock(JSON.stringify(r.rawInput, null, 2) ?? 'null'));
  }
  if (r.textContent.length) {
    section(S.content);
    out.push(...r.textContent.map((t) => inertBlock(t)));
  }
  if (provenance) {
    out.push('', S.changePolicyHint);
  }
  if (r.diffs.length) {
    section(S.diffs);
    for (const d of r.diffs) {
      out.push(`- ${inertFull(d.path)} (${d.oldText === null ? S.newFile : S.modified})`);
    }
    if (evidence.length === 0) {
      out.push(S.openDiffHint);
    }
  }
  return out.join('\n') + '\n';
}

function status(item: InboxItem, now: number): string {
  const s = item.state;
  const at = (ms: number) => Time.dateTime(ms);
  switch (s.kind) {
    case 'open':
      return item.deadline !== undefined ? S.waitingLeft(Time.left(item.deadline - now)) : S.waiting;
    case 'answering':
      return S.answering(inertFull(s.optionId));
    case 'leftOpen':
      return S.leftOpen(s.reason, s.message ? inertFull(s.message) : '');
    case 'answeredByYou':
      return S.answeredByYou(inertFull(s.optionId), at(s.at));
    case 'resolvedElsewhere':
      return S.answeredElsewhere(s.optionId ? inertFull(s.optionId) : '?', s.outcome ?? 'answered', at(s.at));
    case 'expired':
      return S.expired(at(s.at));
    case 'turnEnded':
      return S.turnEnded(at(s.at));
    case 'conversationEnded':
      return s.reason === AGENT_EXITED ? S.agentExited(at(s.at)) : S.conversationEnded(inertFull(s.reason), at(s.at));
    case 'noLongerWaiting':
      return s.cause === 'withdrawn' ? S.withdrawn(at(s.at)) : S.noLongerWaiting(at(s.at));
  }
}

function cwdOf(rawInput: unknown): string | undefined {
  if (rawInput && typeof rawInput === 'object' && !Array.isArray(rawInput)) {
    const cwd = (rawInput as Record<string, unknown>).cwd;
    return typeof cwd === 'string' ? cwd : undefined;
  }
  return undefined;
}

// The editor-title answer commands (editorTitle.ts loads them with this bundle).
export { EditorActions } from './editorActions';
