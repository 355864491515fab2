/**
 * How a gate decision answers the agent, chosen only from the options it offered (never an invented id):
 * - deny: the first `reject_once` option offered (in the agent's order), else its first `reject_always`, else
 *   `cancelled` (a refusal never makes the agent remember a rule the user did not choose);
 * - allow: the option the user picked when it was offered, else the first `allow_once`. Never `allow_always`
 *   on the gate's own account: that would make the agent write a rule the user did not choose. With no
 *   `allow_once` offered there is no honest automatic allow, so the request goes to a human (undefined);
 * - ask: undefined (the request goes to the inbox).
 */
import type { AutoOutcome, OptionLike } from './outcome';
import type { GateDecision } from './gate';

function idOf(option: unknown): string | undefined {
  const id: unknown = typeof option === 'object' && option !== null ? (option as OptionLike).optionId : undefined;
  return typeof id === 'string' ? id : undefined;
}

function kindOf(option: unknown): unknown {
  return typeof option === 'object' && option !== null ? (option as OptionLike).kind : undefined;
}

/** The answer for `decision`, or undefined when a human must answer. `picked`: an optionId the user chose. */
export function gateOutcome(
  decision: Pick<GateDecision, 'verdict'>,
  options: readonly OptionLike[],
  picked?: string,
): AutoOutcome | undefined {
  const list: readonly unknown[] = Array.isArray(options) ? options : [];
  if (decision.verdict === 'deny') {
    for (const kind of ['reject_once', 'reject_always']) {
      for (const o of list) {
        const id = idOf(o);
        if (id !== undefined && kindOf(o) === kind) {
          return { outcome: 'selected', optionId: id };
        }
      }
    }
    return { outcome: 'cancelled' };
  }
  if (decision.verdict === 'allow') {
    if (picked !== undefined && list.some((o) => idOf(o) === picked)) {
      return { outcome: 'selected', optionId: picked };
    }
    for (const o of list) {
      const id = idOf(o);
      if (id !== undefined && kindOf(o) === 'allow_once') {
        return { outcome: 'selected', optionId: id };
      }
    }
  }
  return undefined;
}
