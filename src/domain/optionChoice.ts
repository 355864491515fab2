/**
 * Which of the runtime's options to put on a toast or as inline tree actions. Never synthesises an option: every
 * returned entry is one of the offered objects, unchanged, so its `optionId` can be sent as is.
 */
import type { PermissionOption } from './model';

/** Toasts show at most this many buttons before falling back to "allow / reject / more". */
export const MAX_TOAST_OPTIONS = 3;

export function isAllowKind(kind: string): boolean {
  return kind === 'allow_once' || kind === 'allow_always';
}

export function isRejectKind(kind: string): boolean {
  return kind === 'reject_once' || kind === 'reject_always';
}

export interface ToastButtons {
  /** Options to show as buttons, in the agent's order. */
  readonly options: readonly PermissionOption[];
  /** True when some offered options are not among `options`: show a "More…" button that opens the full list. */
  readonly more: boolean;
}

/**
 * All options in the agent's order when there are at most three; otherwise the first allow-kind and the first
 * reject-kind option (in the agent's order) plus a "more" marker. An agent that offers neither kind gets no buttons
 * but the marker, so the user always reaches the full list.
 */
export function toastButtons(options: readonly PermissionOption[]): ToastButtons {
  if (options.length <= MAX_TOAST_OPTIONS) {
    return { options: [...options], more: false };
  }
  const allow = options.find((o) => isAllowKind(o.kind));
  const reject = options.find((o) => isRejectKind(o.kind));
  const picked = options.filter((o) => o === allow || o === reject);
  return { options: picked, more: true };
}

/** The first `allow_once` option, for an inline "Allow" tree action; undefined when the agent offered none. */
export function inlineAllowOption(options: readonly PermissionOption[]): PermissionOption | undefined {
  return options.find((o) => o.kind === 'allow_once');
}

/** The first `reject_once` option, else the first `reject_always`, for an inline "Reject" tree action. */
export function inlineRejectOption(options: readonly PermissionOption[]): PermissionOption | undefined {
  return options.find((o) => o.kind === 'reject_once') ?? options.find((o) => o.kind === 'reject_always');
}
