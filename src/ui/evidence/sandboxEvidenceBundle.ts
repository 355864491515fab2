/**
 * dist/evidence.js (esbuild.mjs): the evidence before the click (src/ui/evidence/evidence.ts), its sandbox reads and the
 * "Show Agent's Changes So Far" document (src/ui/evidence/evidenceAccess.ts). Loaded by src/ui/evidence/lazyEvidence.ts on first use.
 */
export { SandboxEvidence } from './evidence';
export { SANDBOX_DIFF_SCHEME, SandboxDiffDocuments, sandboxAccess } from './evidenceAccess';
