/**
 * The answer an automatic verdict gives, chosen only from what the agent offered
 * (`Managoat.ACP.Permissions.outcome/2`, `deny_outcome/1`). Never an invented id.
 */

export interface OptionLike {
  optionId: string;
  kind?: string;
  name?: string;
}

export type AutoOutcome = { outcome: 'selected'; optionId: string } | { outcome: 'cancelled' };

function selected(option: unknown): AutoOutcome | undefined {
  if (typeof option !== 'object' || option === null) {
    return undefined;
  }
  const id: unknown = (option as { optionId?: unknown }).optionId;
  return typeof id === 'string' ? { outcome: 'selected', optionId: id } : undefined;
}

function firstOfKinds(options: readonly unknown[], kinds: readonly string[]): AutoOutcome | undefined {
  for (const kind of kinds) {
    for (const option of options) {
      if (typeof option === 'object' && option !== null && (option as { kind?: unknown }).kind === kind) {
        const out = selected(option);
        if (out) {
          return out;
        }
      }
    }
  }
  return undefined;
}

/**
 * `auto_allow`: the first `allow_always` option, else the first `allow_once`, else the first option offered.
 * `auto_deny`: the first `reject_always`, else the first `reject_once`, else `{outcome: "cancelled"}`; it never
 * falls back to "the first option", which could be an allow. With nothing usable offered, both are cancelled.
 * Options whose `optionId` is not a string are skipped (the list is the agent's, and hostile).
 */
export function autoOutcome(verdict: 'auto_allow' | 'auto_deny', options: readonly OptionLike[]): AutoOutcome {
  const list: readonly unknown[] = Array.isArray(options) ? options : [];
  if (verdict === 'auto_allow') {
    return firstOfKinds(list, ['allow_always', 'allow_once']) ?? selected(list[0]) ?? { outcome: 'cancelled' };
  }
  // Anything but an explicit allow is answered as a deny.
  return firstOfKinds(list, ['reject_always', 'reject_once']) ?? { outcome: 'cancelled' };
}

/**
 * The outcome that refuses a local request (the ask timeout's, a dismissal's and a local `auto_deny`'s answer): the
 * first `reject_once` in the agent's order, else its first `reject_always`, else `cancelled`. (A remote request's
 * `auto_deny` is the server's, {@link autoOutcome}.)
 */
export function denyOutcome(options: readonly OptionLike[]): AutoOutcome {
  const list: readonly unknown[] = Array.isArray(options) ? options : [];
  return firstOfKinds(list, ['reject_once', 'reject_always']) ?? { outcome: 'cancelled' };
}
