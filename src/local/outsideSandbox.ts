/**
 * The sentence a request of a sandboxed session gets when one of its paths lies outside the sandbox: the same scope
 * the gate reads (what the gate would offer but the sandbox would refuse). Part of dist/local.js: the inbox's local
 * source (src/session/localSource.ts) gets it injected, so dist/extension.js does not carry the policy's request
 * reader; a local ask only exists once this bundle is loaded.
 */
import { gateRequestFrom } from '../policy';
import type { LocalToolCall } from './permissions';
import { outsideSandbox, type SandboxScope } from './sandbox/scope';

/** Undefined when the session runs unsandboxed or every path of the request works inside. */
export function outsideSentence(
  sandbox: (SandboxScope & { readonly cwd: string }) | undefined,
  toolCall: LocalToolCall,
): string | undefined {
  if (!sandbox) {
    return undefined;
  }
  const paths = gateRequestFrom(toolCall, sandbox.cwd).paths ?? [];
  return outsideSandbox(sandbox, paths)?.sentence;
}
