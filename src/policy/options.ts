/** GNU-style option reading shared by the normaliser, the denylist and the program specifications. */

/**
 * A long option (`--rec`, `--output=x`) resolved against the full names a program knows (without `--`), the way
 * GNU getopt_long does: an exact name, else the one name it is a prefix of. `ambiguous` lists every candidate
 * when there are several (the program refuses it, but a guard counts every one).
 */
export function resolveLong(
  word: string,
  names: readonly string[],
): { name: string; value?: string } | { ambiguous: string[]; value?: string } | undefined {
  if (!word.startsWith('--') || word === '--') {
    return undefined;
  }
  const eq = word.indexOf('=');
  const given = word.slice(2, eq < 0 ? undefined : eq);
  const value = eq < 0 ? undefined : word.slice(eq + 1);
  const withValue = value === undefined ? {} : { value };
  if (names.includes(given)) {
    return { name: given, ...withValue };
  }
  const candidates = given === '' ? [] : names.filter((n) => n.startsWith(given));
  if (candidates.length === 1) {
    return { name: candidates[0], ...withValue };
  }
  return candidates.length > 1 ? { ambiguous: candidates, ...withValue } : undefined;
}

/** Every full name a long option word could mean: the resolved one, or all ambiguous candidates, or none. */
export function longNames(word: string, names: readonly string[]): string[] {
  const r = resolveLong(word, names);
  if (r === undefined) {
    return [];
  }
  return 'name' in r ? [r.name] : r.ambiguous;
}

/**
 * Skips the options of a wrapper (`sudo -u root`, `nice -n 5`, `timeout -s KILL 5`) and returns the index of the
 * first word that is not one. `valued`: short letters that take a value; `longValued`: long names that take one
 * (GNU prefixes resolved against `longs`).
 */
export function skipOptions(
  words: readonly string[],
  from: number,
  valued: string,
  longs: readonly string[] = [],
  longValued: readonly string[] = [],
): number {
  let i = from;
  while (i < words.length) {
    const w = words[i];
    if (w === '--') {
      return i + 1;
    }
    if (!w.startsWith('-') || w === '-') {
      return i;
    }
    if (w.startsWith('--')) {
      const names = longNames(w, longs);
      i += !w.includes('=') && names.some((n) => longValued.includes(n)) ? 2 : 1;
      continue;
    }
    // A short cluster: a valued letter takes the rest of the word, or the next word.
    let j = 1;
    for (; j < w.length; j++) {
      if (valued.includes(w[j])) {
        break;
      }
    }
    i += j < w.length && j === w.length - 1 ? 2 : 1;
  }
  return i;
}
