/**
 * The two-pointer wildcard match behind the gate's command and path globs: `*` any run; `?` one character when `anyOne`
 * is set. O(glob × text) at worst, never exponential as a backtracking regular expression would be.
 */
export function wildcardMatches(glob: string, text: string, anyOne: boolean): boolean {
  let p = 0;
  let t = 0;
  let star = -1;
  let mark = 0;
  while (t < text.length) {
    if (p < glob.length && glob[p] !== '*' && ((anyOne && glob[p] === '?') || glob[p] === text[t])) {
      p++;
      t++;
    } else if (p < glob.length && glob[p] === '*') {
      star = p++;
      mark = t;
    } else if (star >= 0) {
      p = star + 1;
      t = ++mark;
    } else {
      return false;
    }
  }
  while (p < glob.length && glob[p] === '*') {
    p++;
  }
  return p === glob.length;
}
