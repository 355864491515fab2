/** Fountain's permission-policy engine: lookup, merge, narrowing, automatic outcomes, deadlines, validation. */
export {
  ASK_TIMEOUT_KEY,
  ASK_TIMEOUT_MAX_SEC,
  BUILTIN_VERDICT,
  DEFAULT_KEY,
  IN_TURN_CEILING_SEC,
  RESERVED_KEYS,
  TOOL_KINDS,
  VERDICTS,
  asVerdict,
  isVerdict,
  matchingKeys,
  strictness,
  stricter,
  toolLabel,
  verdictForKey,
  verdictOf,
} from './verdicts';
export type { PolicyMap, ToolRequest, Verdict } from './verdicts';
export { checkNarrows, explainVerdict, mergeAskTimeouts, mergePolicies } from './merge';
export type { VerdictExplanation, VerdictSource } from './merge';
export { autoOutcome, denyOutcome } from './outcome';
export type { AutoOutcome, OptionLike } from './outcome';
export { effectiveTimeoutSec, metaTimeoutOf, parseConfiguredTimeoutSec, parseTimeoutSec } from './timeout';
export {
  NEVER_ASKING_RUNTIMES,
  changesetErrors,
  elixirInspect,
  policySchema,
  policySchemaFor,
  unenforceableMessage,
  validatePolicy,
} from './validate';
export type { PolicyValidation } from './validate';
