/** Fountain's permission-policy engine (lookup, merge, narrowing, automatic outcomes, deadlines, validation) and the local gate. */
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

/** The local permission gate (issue 12): modes, denylist, path scope, patterns, bundles, grants, plan-first. */
export { EDIT_KINDS, GATE_MODES, MAX_GATE_CHARS, NO_EFFECT_KINDS, PLAN_MODE_KINDS, decide } from './gate';
export type { GateDecision, GateInput, GateMode, GateRequest, GateRule, GateVerdict } from './gate';
export { allowPatternFor, checkAllowPattern, dryRunAllowPath, dryRunPattern } from './grantSpec';
export type { AllowPatternSpec, PatternCheck } from './grantSpec';
export { normaliseLine } from './normalise';
export type { NormCommand, NormLine, NormRedirect } from './normalise';
export { EXACT_ONLY, hazardIn, patternCovers, patternWords, verbCovers } from './commandRules';
export { READ_ONLY_SPECS, readFind } from './programSpecs';
export { GIT_SPECS, gitHazard, gitReading } from './gitSpecs';
export { hazardOf, readArgv } from './specParse';
export type { ProgramSpec, SpecPath, SpecReading } from './specParse';
export { isNetworkDevice, placePath } from './paths';
export {
  HOME_ONLY_NAMES,
  PROTECTED_DIRS,
  PROTECTED_FILES,
  PROTECTED_NAMES,
  PROTECTED_SUBDIRS,
  protectedWrite,
} from './protectedPaths';
export type { PathEnv, PlacedPath } from './paths';
export { readWord, readWords } from './shellWords';
export type { ShellEnv } from './shellWords';
export { compileGateConfig, gateConfigProblems } from './gateConfig';
export type { GateConfig } from './gateConfig';
export { gateOutcome } from './gateAnswer';
export { commandAllowProblem, grantLabel, redirectProblem } from './gateCommand';
export { denylistLine, denylistMatch } from './denylist';
export type { DenylistHit } from './denylist';
export {
  extractVerb,
  grantCoversPart,
  grantCoversRequest,
  grantIdentity,
  isGrant,
  pathGrantCovers,
  requestKey,
  verbGrantLabel,
} from './grants';
export type { Grant, KeyedRequest } from './grants';
export {
  BUNDLES,
  BUNDLE_CORE_AGENT_TOOLS,
  BUNDLE_DEV_TOOLS,
  BUNDLE_READ_ONLY,
  knownBundles,
  resolveBuiltinAllow,
} from './bundles';
export { GateConfigError, commandMatches, parsePattern, parsePatterns, pathMatches } from './patterns';
export type { GatePattern } from './patterns';
export { accessFor, allowPathProblem, isInside, normalisePath, pathGlobMatches, pathPatternMatches } from './scope';
export type { Access, AllowPath } from './scope';
export { allParts, hasSubstitution, parseCommand } from './shell';
export type { CommandPart, ParsedCommand, Redirect, Substitution } from './shell';
export { recommendLocal } from './localRecommendations';
export type { ApprovalEntry, LocalRecommendation, LocalRecommendationOptions } from './localRecommendations';
export { gateRequestFrom, shellQuote } from './gateRequest';
export type { ToolCallLike } from './gateRequest';
export { MAX_CHECKED_CHARS, remoteDanger } from './remoteDanger';
export type { RemoteDanger } from './remoteDanger';
