/** Helpers shared by the API route families. */
import type { Route } from '../router';

export const apiRoute = (
  method: string,
  re: RegExp,
  name: string,
  auth: 'any' | 'full',
  handle: Route['handle'],
  json = true,
): Route => ({ method, re, name, json, auth, handle });

/** `streams=a,b` → the set, or undefined for all streams. */
export function parseStreams(url: URL): Set<string> | undefined {
  const s = url.searchParams.get('streams');
  if (s === null || s === '') {
    return undefined;
  }
  return new Set(s.split(',').map((x) => x.trim()));
}

export const truthy = (v: string | null) => v === 'true' || v === '1';
