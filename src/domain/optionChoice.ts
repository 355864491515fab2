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
 * The toast's buttons. At most three options: all of them; more: the first `allow_once` (else the first allow-kind)
 * and the first reject-kind option plus a "more" marker, so the user always reaches the full list. The first button
 * is the one VS Code highlights, so it is never a persistent option: the first `allow_once` goes first, else the first
 * option that is not `allow_always`; the others keep the agent's order.
 */
export function toastButtons(options: readonly PermissionOption[]): ToastButtons {
  if (options.length <= MAX_TOAST_OPTIONS) {
    return { options: safeFirst(options), more: false };
  }
  const allow = options.find((o) => o.kind === 'allow_once') ?? options.find((o) => isAllowKind(o.kind));
  const reject = options.find((o) => isRejectKind(o.kind));
  const picked = options.filter((o) => o === allow || o === reject);
  return { options: safeFirst(picked), more: true };
}

/** `options` with the first `allow_once` (else the first non-persistent option) moved to the front. */
function safeFirst(options: readonly PermissionOption[]): PermissionOption[] {
  const once = options.findIndex((o) => o.kind === 'allow_once');
  const first = once >= 0 ? once : options.findIndex((o) => o.kind !== 'allow_always');
  return first <= 0 ? [...options] : [options[first], ...options.filter((_, i) => i !== first)];
}

/** The first `allow_once` option, for an inline "Allow" tree action; undefined when the agent offered none. */
export function inlineAllowOption(options: readonly PermissionOption[]): PermissionOption | undefined {
  return options.find((o) => o.kind === 'allow_once');
}

/** The first `reject_once` option, else the first `reject_always`, for an inline "Reject" tree action. */
export function inlineRejectOption(options: readonly PermissionOption[]): PermissionOption | undefined {
  return options.find((o) => o.kind === 'reject_once') ?? options.find((o) => o.kind === 'reject_always');
}

/**
 * A confusable-folded form of a display name, for telling names apart the way a reader would: compatibility
 * normalisation (NFKD), combining marks dropped, then the Unicode confusables table (UTS #39 data, through
 * `unhomoglyph`) maps every look-alike to its prototype ("Аllow" with a Cyrillic А folds like "Allow"), then lower
 * case and single spaces. Two names with the same fold must not be shown as two identical buttons.
 */
export function foldConfusable(name: string): string {
  const stripped = name.normalize('NFKD').replace(/\p{M}/gu, '');
  return confusableFold()(stripped).normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
}

let fold: ((text: string) => string) | undefined;
/**
 * The confusables table (about 100 KB) is its own bundle, dist/confusables.js (esbuild.mjs keeps './confusables'
 * external), loaded on the first comparison instead of at activation.
 */
function confusableFold(): (text: string) => string {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  fold ??= (require('./confusables') as typeof import('./confusables')).unhomoglyph;
  return fold;
}

/** Words (matched on folded names) that make a name read as allow, as reject, or as persistent. */
const wordsRegex = (words: readonly string[]) => {
  let re: RegExp | undefined;
  return (): RegExp =>
    (re ??= new RegExp(
      `(?:^|[^a-z0-9])(?:${words.map((w) => foldConfusable(w).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})(?=$|[^a-z0-9])`,
    ));
};
const READS_ALLOW = wordsRegex([
  'allow',
  'yes',
  'accept',
  'approve',
  'proceed',
  'ok',
  'okay',
  'run',
  'continue',
  'confirm',
  'grant',
  'trust',
]);
const READS_REJECT = wordsRegex([
  'reject',
  'deny',
  'decline',
  'cancel',
  'no',
  "don't",
  'dont',
  'never',
  'stop',
  'abort',
  'refuse',
  'block',
  'skip',
  'disallow',
  'forbid',
]);
/**
 * "don't ask again" says the choice is remembered (codex: "Yes, and don't ask again for these files" is an
 * allow_always): a persistent phrase, and its "don't" is not a reject word.
 */
const DONT_ASK_AGAIN = ["don't ask again", 'dont ask again', 'do not ask again', 'never ask again'];
const READS_DONT_ASK_AGAIN = wordsRegex(DONT_ASK_AGAIN);
const READS_PERSISTENT = wordsRegex([
  ...DONT_ASK_AGAIN,
  'always',
  'session',
  'all',
  'project',
  'user',
  'forever',
  'permanently',
  'remember',
  'auto',
]);

/**
 * True when an option's name plainly says what its kind does: an allow kind named with allow words and no reject
 * words (and "always"-style words exactly when it is `allow_always`), likewise for reject kinds. Anything else
 * ("Reject" for an `allow_always`, "Allow" for an `allow_always`, a name with no such word, an unknown kind) is a
 * disagreement, and the UI then shows the kind before the name.
 */
export function nameMatchesKind(name: string, kind: string): boolean {
  const f = foldConfusable(name);
  const persistent = READS_PERSISTENT().test(f);
  // "don't ask again" counts as persistent only, never as a reject (its "don't") or an allow word.
  const words = f.replace(new RegExp(READS_DONT_ASK_AGAIN().source, 'g'), ' ');
  const allow = READS_ALLOW().test(words);
  const reject = READS_REJECT().test(words);
  if (isAllowKind(kind)) {
    return allow && !reject && persistent === (kind === 'allow_always');
  }
  if (isRejectKind(kind)) {
    return reject && !allow && persistent === (kind === 'reject_always');
  }
  return false;
}

/** How a button shows an option; the UI supplies the (localised, inert) text. */
export interface OptionTitleFormat {
  /** The option's name as displayed (inert, shortened). */
  name(option: PermissionOption): string;
  /** The option's id as displayed (inert, shortened). */
  id(option: PermissionOption): string;
  /** The kind first, then the name: `Allow always: "Reject"`. */
  withKind(name: string, kind: string): string;
}

/**
 * The button titles for the options of one toast, in order. A name that disagrees with its kind is shown after the
 * kind, so an allow option never reads as a reject; titles whose confusable-folded forms are equal to each other or
 * to one of our own buttons (`reserved`) get the option id appended, then the position if the ids fold equal too.
 */
export function optionButtonTitles(
  options: readonly PermissionOption[],
  fmt: OptionTitleFormat,
  reserved: readonly string[],
): string[] {
  const base = options.map((o) => {
    const name = fmt.name(o);
    return nameMatchesKind(name, o.kind) ? name : fmt.withKind(name, o.kind);
  });
  const taken = new Set(reserved.map(foldConfusable));
  const clashing = (titles: readonly string[], i: number) => {
    const f = foldConfusable(titles[i]);
    return taken.has(f) || titles.some((t, j) => j !== i && foldConfusable(t) === f);
  };
  const withIds = base.map((t, i) => (clashing(base, i) ? `${t} (${fmt.id(options[i])})` : t));
  return withIds.map((t, i) => (clashing(withIds, i) ? `${t} (#${i + 1})` : t));
}
