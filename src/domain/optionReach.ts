/**
 * The reach of a persistent ("always") option: what choosing it keeps, where, and for how long, said before the
 * click. From the option's own `_meta.permission` when the runtime sends it (`changes[].description`, and
 * `lifetime.scope` such as `persistent`), else from what each runtime's "always" is known to do (measured, see
 * docs: claude writes a rule into `.claude/settings.local.json`, codex keeps a session grant in its process, …), else
 * "unknown": nothing is guessed. The sentences themselves are the UI's (localised); this module picks the facts.
 * Agent text (descriptions, scope, mode ids) comes back inert: control and bidi characters as visible escapes.
 */
import * as z from 'zod/mini';
import { toInertText } from './inertText';
import type { PermissionOption } from './model';

/** Where the request's agent runs: in a Fountain sandbox, or on this machine (a local ACP session). */
export type ReachWhere = 'fountain' | 'local';

/** What a runtime's persistent option is known to do, when its `_meta` does not say. */
export type KnownReach =
  /** claude in a Fountain sandbox: a rule in the sandbox's `.claude/settings.local.json`; gone with the sandbox. */
  | 'claudeSandboxRule'
  /** claude on this machine: a rule for the session or in `.claude/settings.local.json` of the folder. */
  | 'claudeLocalRule'
  /** claude's exit-plan-mode request: the option switches the session's mode (`mode` holds the option id). */
  | 'claudeModeSwitch'
  /** codex "for session": a grant in the codex process (on Fountain: that sandbox wake). */
  | 'codexSessionGrant'
  /** codex "commands starting with …": a prefix rule written to codex's rules file. */
  | 'codexPrefixRule'
  /** gemini "for this session": kept in the gemini process only. */
  | 'geminiSession'
  /** gemini "for all future sessions": written to `~/.gemini/policies/auto-saved.toml`. */
  | 'geminiSaved'
  /** qwen "in project": written to `.qwen/settings.json` in the working folder. */
  | 'qwenProject';

export type Reach =
  | { readonly source: 'meta'; readonly descriptions: readonly string[]; readonly scope?: string }
  | { readonly source: 'runtime'; readonly fact: KnownReach; readonly mode?: string }
  | { readonly source: 'unknown' };

export interface OptionReach {
  /** The offered option, unchanged. */
  readonly option: PermissionOption;
  readonly where: ReachWhere;
  readonly reach: Reach;
}

/** The part of an option's `_meta` this module reads; everything else is ignored. Parsed, never trusted raw. */
const ScopeSchema = z.looseObject({ scope: z.optional(z.string()) });
const OptionMetaSchema = z.looseObject({
  _meta: z.looseObject({
    permission: z.optional(
      z.looseObject({ changes: z.optional(z.array(z.unknown())), lifetime: z.optional(ScopeSchema) }),
    ),
    // The wire note leaves it open whether `lifetime` sits beside or inside `permission`: both are read.
    lifetime: z.optional(ScopeSchema),
    codex: z.optional(z.looseObject({ decision: z.optional(z.unknown()) })),
  }),
});
const ChangeSchema = z.looseObject({ description: z.string() });

/** Scopes that say the option keeps nothing past this one request. */
const ONE_SHOT = new Set(['once', 'single', 'request', 'none']);

interface ParsedMeta {
  readonly descriptions: string[];
  readonly scope?: string;
  readonly codexDecision?: string;
}

function parseMeta(option: PermissionOption): ParsedMeta | undefined {
  const r = OptionMetaSchema.safeParse(option);
  if (!r.success) {
    return undefined;
  }
  const m = r.data._meta;
  const descriptions: string[] = [];
  for (const c of m.permission?.changes ?? []) {
    const d = ChangeSchema.safeParse(c);
    if (d.success && d.data.description.trim() !== '') {
      descriptions.push(d.data.description);
    }
  }
  const scope = m.permission?.lifetime?.scope ?? m.lifetime?.scope;
  const decision = m.codex?.decision;
  return {
    descriptions,
    ...(scope !== undefined && scope.trim() !== '' ? { scope } : {}),
    ...(typeof decision === 'string' ? { codexDecision: decision } : {}),
  };
}

/** True for an option that keeps something past this request: `*_always`, or a `_meta` scope that is not one-shot. */
export function isPersistentOption(option: PermissionOption): boolean {
  if (option.kind === 'allow_always' || option.kind === 'reject_always') {
    return true;
  }
  const scope = parseMeta(option)?.scope;
  return scope !== undefined && !ONE_SHOT.has(scope.trim().toLowerCase());
}

const inert = (s: string) => toInertText(s, { singleLine: true });

/** What a runtime's persistent allow option is known to do, from seed 000 and the real-acp captures. */
function knownReach(
  option: PermissionOption,
  meta: ParsedMeta | undefined,
  runtime: string | undefined,
  where: ReachWhere,
  requestKind: string | undefined,
): Reach {
  const unknown: Reach = { source: 'unknown' };
  if (option.kind !== 'allow_always') {
    return unknown; // no runtime's reject_always (or a meta-only persistent option) was measured
  }
  switch (runtime?.trim().toLowerCase()) {
    case 'claude':
      if (requestKind === 'switch_mode') {
        return { source: 'runtime', fact: 'claudeModeSwitch', mode: inert(option.optionId) };
      }
      return { source: 'runtime', fact: where === 'fountain' ? 'claudeSandboxRule' : 'claudeLocalRule' };
    case 'codex':
      if (
        option.optionId === 'approved-execpolicy-amendment' ||
        meta?.codexDecision?.startsWith('acceptWithExecpolicy')
      ) {
        return { source: 'runtime', fact: 'codexPrefixRule' };
      }
      if (option.optionId === 'approved-for-session' || meta?.codexDecision === 'acceptForSession') {
        return { source: 'runtime', fact: 'codexSessionGrant' };
      }
      return unknown;
    case 'gemini':
      if (option.optionId === 'proceed_always') {
        return { source: 'runtime', fact: 'geminiSession' };
      }
      return option.optionId === 'proceed_always_and_save' ? { source: 'runtime', fact: 'geminiSaved' } : unknown;
    case 'qwen':
      return option.optionId === 'proceed_always_project' ? { source: 'runtime', fact: 'qwenProject' } : unknown;
    default:
      return unknown;
  }
}

/**
 * The reach of each persistent option of a request, in the runtime's order: from its `_meta` (inert descriptions
 * and scope) when it says anything, else what its runtime (`conversation.runtime`, or the local session's preset
 * id) is known to do, else `unknown`.
 */
export function optionReaches(
  request: { readonly kind?: string; readonly options: readonly PermissionOption[] },
  context: { readonly runtime?: string; readonly where: ReachWhere },
): OptionReach[] {
  return request.options.filter(isPersistentOption).map((option) => {
    const meta = parseMeta(option);
    const { where } = context;
    if (meta && (meta.descriptions.length > 0 || meta.scope !== undefined)) {
      const reach: Reach = {
        source: 'meta',
        descriptions: meta.descriptions.map(inert),
        ...(meta.scope !== undefined ? { scope: inert(meta.scope) } : {}),
      };
      return { option, where, reach };
    }
    return { option, where, reach: knownReach(option, meta, context.runtime, where, request.kind) };
  });
}

/** The UI's sentences (localised); `name` is the option's name as displayed. */
export interface ReachFormat {
  /** One sentence for a reach. */
  sentence(r: OptionReach): string;
  /** `"Always Allow": <sentence>` */
  note(name: string, sentence: string): string;
  /** `"Always Allow": what it keeps is in Details` */
  seeDetails(name: string): string;
  /** The option's name as displayed (inert, shortened). */
  name(option: PermissionOption): string;
}

/** The toast's reach note, at most this many characters (longer: a pointer to Details, which has it all). */
export const TOAST_REACH_MAX = 120;

/**
 * The reach text for a toast: every persistent option's note, when together they fit in `max` characters; else
 * one "see Details" pointer per option. Undefined when the request offers no persistent option.
 */
export function toastReachNote(
  reaches: readonly OptionReach[],
  fmt: ReachFormat,
  max = TOAST_REACH_MAX,
  runtimeKnown = true,
): string | undefined {
  if (reaches.length === 0) {
    return undefined;
  }
  // A toast shows at once, often before the conversation (and so its runtime) is known: "reach unknown" would then
  // be a guess, so the toast points to Details, which shows the reach once the runtime is known.
  if (!runtimeKnown && reaches.some((r) => r.reach.source === 'unknown')) {
    return reaches.map((r) => fmt.seeDetails(fmt.name(r.option))).join(' · ');
  }
  const full = reaches.map((r) => fmt.note(fmt.name(r.option), fmt.sentence(r))).join(' · ');
  if ([...full].length <= max) {
    return full;
  }
  return reaches.map((r) => fmt.seeDetails(fmt.name(r.option))).join(' · ');
}
