/**
 * "Always…" beside a network ask's own options (Allow Once, Allow <host> for This Session, Reject: see
 * src/local/network/decider.ts), in Answer… and so in the toast's More…: the same honest "always" as the gate's
 * (src/ui/always/alwaysModal.ts): the rule shown editable as it will be stored in `fountain.local.allowHosts`, a
 * dry run over the past network asks, the waiting network asks it covers (answered with their own Allow Once on
 * confirmation); nothing is written or sent before the confirmation. The answer goes through the answer flow.
 */
import * as vscode from 'vscode';
import { Counted } from '../plainWords';
import type { LocalModule } from './loader';
import type { PendingAsk } from '../../local';
import type { ExtraAnswerChoice } from '../answer/answerChoices';
import type { AlwaysRequest } from '../always/alwaysModal';
import { answerCovered, confirmAlways } from '../always/alwaysModal';
import type { WaitingInfo, WaitingRequests } from '../always/alwaysContext';
import type { HistoryEntry } from '../../domain/history';
import { isLocalSource } from '../../session/localKey';
import { inertLine } from '../display';
import { LOCAL_SECTION } from '../../platform/localGateSettings';
import { NetworkStrings } from './networkStrings';
import type { FlowAnswer } from './grantPicks';

const ALLOW_HOSTS_KEY = 'allowHosts';

/** host:port of a waiting request that is a network ask (its raw input), else undefined. */
function waitingTarget(w: WaitingInfo): { host: string; port: number } | undefined {
  const net = (w.toolCall.rawInput as { network?: { host?: unknown; port?: unknown } } | undefined)?.network;
  return typeof net?.host === 'string' && typeof net.port === 'number' ? { host: net.host, port: net.port } : undefined;
}

/** host:port of a past network ask, read from its kept label ("Connect to host:port"), else undefined. */
function entryTarget(e: HistoryEntry, title: (hp: string) => string): { host: string; port: number } | undefined {
  if (!isLocalSource(e.server) || e.kind !== 'fetch' || e.label === undefined) {
    return undefined;
  }
  const [before, after] = title('\u0000').split('\u0000');
  if (!e.label.startsWith(before) || !e.label.endsWith(after)) {
    return undefined;
  }
  const hp = e.label.slice(before.length, e.label.length - after.length);
  const m = /^\[?([^\]]+)\]?:(\d+)$/.exec(hp);
  return m ? { host: m[1], port: Number(m[2]) } : undefined;
}

/** The user (global) value of fountain.local.allowHosts. */
function userAllowHosts(): string[] {
  const v = vscode.workspace.getConfiguration(LOCAL_SECTION).inspect<unknown>(ALLOW_HOSTS_KEY)?.globalValue;
  return Array.isArray(v) ? v.filter((p): p is string => typeof p === 'string') : [];
}

async function appendAllowHost(pattern: string): Promise<void> {
  const list = userAllowHosts();
  if (!list.includes(pattern)) {
    await vscode.workspace
      .getConfiguration(LOCAL_SECTION)
      .update(ALLOW_HOSTS_KEY, [...list, pattern], vscode.ConfigurationTarget.Global);
  }
}

/** The AlwaysRequest of a network rule answering `ask`: what a rule covers, past and waiting. */
export function networkAlways(
  local: LocalModule,
  ask: PendingAsk,
  network: NonNullable<PendingAsk['network']>,
  title: (hp: string) => string,
): AlwaysRequest {
  const covers = (rule: string, t: { host: string; port: number } | undefined): boolean => {
    const p = local.parseHostPattern(rule);
    return !!t && p.ok && local.patternCoversHost(p.pattern, t.host, t.port);
  };
  const allowOnce = ask.request.options.find((o) => o.optionId === local.NET_ALLOW_ONCE);
  return {
    rule: network.pattern,
    setting: local.ALLOW_HOSTS_SETTING,
    requestId: ask.id,
    optionName: inertLine(allowOnce?.name ?? '?', 80),
    check: (rule) => {
      const p = local.parseHostPattern(rule);
      if (!p.ok) {
        return { problem: p.problem };
      }
      return covers(rule, network) ? { warnings: [] } : { problem: NetworkStrings.notThisRequest };
    },
    matcher: (rule) => ({
      entry: (e) => (entryTarget(e, title) ? covers(rule, entryTarget(e, title)) : false),
      waiting: (w) => isLocalSource(w.server) && covers(rule, waitingTarget(w)),
    }),
    scope: { source: (e) => isLocalSource(e.server), kind: 'fetch' },
  };
}

/** Always… for an open network ask: one Answer… item (none once the ask closed). */
export function networkPicks(
  waiting: WaitingRequests,
  local: LocalModule,
  ask: PendingAsk,
  answer: FlowAnswer,
  title: (hp: string) => string,
): ExtraAnswerChoice[] {
  const network = ask.network;
  if (!network || !ask.isOpen) {
    return [];
  }
  const once = ask.request.options.find((o) => o.optionId === local.NET_ALLOW_ONCE);
  return [
    {
      label: NetworkStrings.always(inertLine(network.pattern, 200)),
      detail: NetworkStrings.alwaysDetail(inertLine(once?.name ?? '?', 80)),
      run: async () => {
        const decision = await confirmAlways(waiting, networkAlways(local, ask, network, title));
        if (decision.kind === 'cancel' || !(await answer(local.NET_ALLOW_ONCE))) {
          return; // cancelled: nothing written, nothing sent; or the flow said why nothing was sent
        }
        await appendAllowHost(decision.rule);
        const others = await answerCovered(waiting, decision.alsoAnswer);
        const rule = inertLine(decision.rule, 300);
        const shown = await vscode.window.showInformationMessage(
          others > 0 ? NetworkStrings.addedAnd(rule, Counted.otherWaitingRequests(others)) : NetworkStrings.added(rule),
          NetworkStrings.openSetting,
        );
        if (shown === NetworkStrings.openSetting) {
          await vscode.commands.executeCommand('workbench.action.openSettings', local.ALLOW_HOSTS_SETTING);
        }
      },
    },
  ];
}
