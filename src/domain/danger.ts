/**
 * The danger mark of a request: its command (else its title) is on the local gate's built-in denylist. The check
 * itself (src/policy/remoteDanger.ts) is its own lazily loaded bundle, so the inbox receives it as a function
 * (InboxOptions.danger) and computes the mark once per version of a request's details.
 */
import { commandOf } from './requestLabel';
import type { RequestDetails } from './model';

/** Why a request is dangerous, in the denylist's words ("recursively removes your home directory"). Our text. */
export interface DangerMark {
  readonly reason: string;
}

/** The denylist check: the command first, then the title; undefined when neither is denylisted. */
export type DangerCheck = (command: string | undefined, title: string | undefined) => DangerMark | undefined;

/** The mark of `r` under `check` (none without a check). */
export function dangerOf(r: RequestDetails, check: DangerCheck | undefined): DangerMark | undefined {
  return check ? check(commandOf(r), r.title) : undefined;
}

/** What an entry remembers: the mark and the details it was computed from (details are replaced, never mutated). */
export interface DangerMemo {
  dangerFor?: RequestDetails;
  danger?: DangerMark;
}

/** The entry's mark, computed again only when its details changed since the last time (a merge replaced them). */
export function memoDanger(e: DangerMemo & { readonly request: RequestDetails }, check: DangerCheck | undefined) {
  if (e.dangerFor !== e.request) {
    e.danger = dangerOf(e.request, check);
    e.dangerFor = e.request;
  }
  return e.danger;
}
