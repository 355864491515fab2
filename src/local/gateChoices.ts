/**
 * The grants offered beside a request the gate asked about, in our own UI (never in place of the runtime's
 * options), and how a chosen one is applied. Each choice is offered only when it would actually allow this request
 * now (checked with the gate's own `decide`): a grant can never lift the denylist, plan mode, a deny pattern or an
 * out-of-scope path, so none is offered for those. The answer sent is always an option the runtime offered:
 * `allow_once`, or `allow_always` only when no `allow_once` was offered. A path-scope ask about a folder outside the
 * scope offers that folder for the session and an "always" entry of `fountain.local.allowPaths` (./pathChoices.ts).
 * Labels quote the agent's text: render them as inert text.
 */
import { allowPatternFor, extractVerb, requestKey, verbGrantLabel, type AllowPath, type Grant } from '../policy';
import { decideSafely, type LocalGate } from './gate';
import { folderEntry, folderOffer } from './pathChoices';
import type { LocalOption, LocalPermissionRequest, PendingAsk } from './permissions';
import type { SandboxScope } from './sandbox/scope';

export type GrantChoiceId = 'exact' | 'verb' | 'tool' | 'always' | 'folder' | 'alwaysFolder';

/** The setting an "always" choice asks the VS Code layer to extend (visibly, in the user's settings). */
export const LOCAL_ALLOW_SETTING = 'fountain.local.allow';
/** The setting an "always" folder choice extends. */
export const LOCAL_ALLOW_PATHS_SETTING = 'fountain.local.allowPaths';

export interface GrantChoice {
  readonly id: GrantChoiceId;
  /** One plain sentence for a QuickPick item. */
  readonly label: string;
  /** The session grant it adds (exact, verb, tool). */
  readonly grant?: Grant;
  /** For `always`: the pattern to append to {@link LOCAL_ALLOW_SETTING}; the gate only sees it once the setting is written. */
  readonly pattern?: string;
  /** For `alwaysFolder`: the entry to append to {@link LOCAL_ALLOW_PATHS_SETTING}. */
  readonly allowPath?: AllowPath;
  /**
   * For `alwaysFolder` in a sandboxed session: the running sandbox does not give this access there (it mounts
   * allowPaths at the agent's start), so the call allowed now may still fail inside until the agent restarts.
   */
  readonly untilRestart?: boolean;
}

function allowsWith(
  gate: LocalGate,
  request: LocalPermissionRequest,
  grant?: Grant,
  pattern?: string,
  allowPath?: AllowPath,
): boolean {
  const snap = gate.snapshot();
  const withPattern = pattern ? { ...snap.config, allow: [...(snap.config.allow ?? []), pattern] } : snap.config;
  const config = allowPath
    ? { ...withPattern, allowPaths: [...(withPattern.allowPaths ?? []), allowPath] }
    : withPattern;
  const grants = grant ? [...(snap.session?.grants ?? []), grant] : (snap.session?.grants ?? []);
  const d = decideSafely({
    ...snap,
    config,
    session: { ...snap.session, grants },
    request: gate.gateRequestOf(request),
  });
  return d.verdict === 'allow';
}

/** The `fountain.local.allow` pattern that covers exactly this request, when one can be written (src/policy). */
function exactPattern(gate: LocalGate, request: LocalPermissionRequest): string | undefined {
  const spec = allowPatternFor(gate.gateRequestOf(request), gate.snapshot().home);
  return 'pattern' in spec ? spec.pattern : undefined;
}

/**
 * The grant choices to offer beside `request`, in this order: exact, verb, tool, always, then for a path outside the
 * scope its folder for the session and always. `sandbox`: the session's sandbox, when it runs in one.
 */
export function grantChoices(gate: LocalGate, request: LocalPermissionRequest, sandbox?: SandboxScope): GrantChoice[] {
  const req = gate.gateRequestOf(request);
  const kind = req.kind ?? 'other';
  const out: GrantChoice[] = [];
  const offer = (c: GrantChoice) => {
    if (allowsWith(gate, request, c.grant, c.pattern, c.allowPath)) {
      out.push(c);
    }
  };
  offer({
    id: 'exact',
    label: 'Allow this exact request for the rest of the session',
    grant: { scope: 'exact', kind, key: requestKey(req) },
  });
  const verb = req.command !== undefined ? extractVerb(req.command) : undefined;
  if (verb !== undefined) {
    offer({
      id: 'verb',
      label: `Allow every command starting with "${verb}" (${verbGrantLabel(verb)}) for the session`,
      grant: { scope: 'verb', verb },
    });
  }
  // "Every execute call" is not offered: it would stand for every program, runners and interpreters included.
  if (kind !== 'execute' && req.command === undefined) {
    offer({ id: 'tool', label: `Allow every "${kind}" call for the session`, grant: { scope: 'tool', kind } });
  }
  const pattern = exactPattern(gate, request);
  if (pattern !== undefined) {
    offer({ id: 'always', label: `Always allow: add "${pattern}" to ${LOCAL_ALLOW_SETTING}`, pattern });
  }
  const folder = folderOffer(gate.snapshot(), req, sandbox);
  if (folder !== undefined) {
    const what = folder.access === 'r' ? 'reading' : folder.access === 'w' ? 'writing' : 'reading and writing';
    if (folder.sandboxSees) {
      offer({
        id: 'folder',
        label: `Allow ${what} in ${folder.dir} for the session`,
        grant: { scope: 'path', dir: folder.dir, access: folder.access },
      });
    }
    const allowPath = folderEntry(folder);
    offer({
      id: 'alwaysFolder',
      label: `Always allow ${what} in ${folder.dir}: add it to ${LOCAL_ALLOW_PATHS_SETTING}`,
      allowPath,
      ...(folder.sandboxSees ? {} : { untilRestart: true }),
    });
  }
  return out;
}

/** The option a chosen grant answers with: `allow_once`, else `allow_always`; never anything not offered. */
export function grantAnswerOption(options: readonly LocalOption[]): LocalOption | undefined {
  return options.find((o) => o.kind === 'allow_once') ?? options.find((o) => o.kind === 'allow_always');
}

export type ApplyGrantResult =
  | { readonly sent: true; readonly optionId: string; readonly pattern?: string; readonly allowPath?: AllowPath }
  | { readonly sent: false; readonly reason: 'closed' | 'no_allow_option' };

/**
 * Applies a choice the user picked for an open ask: adds its session grant (an `always` choice returns its pattern
 * for the VS Code layer to write to {@link LOCAL_ALLOW_SETTING}) and answers the ask with an allow option it
 * offered, delivered by `send` (the VS Code layer sends it through the inbox, whose guard keeps "only offered, never
 * twice" and records the answer like any other). The grant is added first, so the agent's next call already meets
 * it, and taken back when `send` reports that nothing was delivered. Nothing changes when the ask is already closed
 * or offers no allow option.
 */
export async function applyGrantChoiceVia(
  gate: LocalGate,
  ask: PendingAsk,
  choice: GrantChoice,
  send: (optionId: string) => Promise<boolean>,
): Promise<ApplyGrantResult> {
  const start = beginGrant(gate, ask, choice);
  if (!start.ok) {
    return start.result;
  }
  let delivered: boolean;
  try {
    delivered = await send(start.optionId);
  } catch (e) {
    start.finish(false); // a throwing sender delivered nothing: the grant goes before the error does
    throw e;
  }
  return start.finish(delivered);
}

type GrantStart =
  | { readonly ok: false; readonly result: ApplyGrantResult }
  | { readonly ok: true; readonly optionId: string; finish(delivered: boolean): ApplyGrantResult };

function beginGrant(gate: LocalGate, ask: PendingAsk, choice: GrantChoice): GrantStart {
  if (!ask.isOpen) {
    return { ok: false, result: { sent: false, reason: 'closed' } };
  }
  const option = grantAnswerOption(ask.request.options);
  if (!option) {
    return { ok: false, result: { sent: false, reason: 'no_allow_option' } };
  }
  const added = choice.grant ? gate.addGrant(choice.grant) : false;
  return {
    ok: true,
    optionId: option.optionId,
    finish: (delivered) => {
      if (!delivered) {
        if (added && choice.grant) {
          gate.revokeGrant(choice.grant);
        }
        return { sent: false, reason: 'closed' };
      }
      return {
        sent: true,
        optionId: option.optionId,
        ...(choice.pattern !== undefined ? { pattern: choice.pattern } : {}),
        ...(choice.allowPath !== undefined ? { allowPath: choice.allowPath } : {}),
      };
    },
  };
}
