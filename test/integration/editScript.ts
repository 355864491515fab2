/** Scripted answers for the agent-policy editor: the same edit flow as the commands, with no widgets. */
import type { Verdict } from '../../src/policy';
import type { TestApi } from '../../src/testApi';
import type { EditResult, PolicyPrompts } from '../../src/ui/policy/policyEditor';

/** A scripted walk through the edit flow. */
export interface EditScript {
  readonly server?: string;
  readonly agentId: string;
  readonly kind?: string;
  readonly steps: readonly (
    { readonly key: string; readonly verdict: Verdict | 'remove' } | { readonly timeout: string }
  )[];
  readonly confirm: boolean;
  readonly acceptRisk?: boolean;
}

/** Runs the extension's edit flow with scripted answers instead of widgets; `calls` lists the prompts reached, in order. */
export async function editScripted(
  api: TestApi,
  script: EditScript,
): Promise<{ result: EditResult; calls: string[]; errors: string[] }> {
  const calls: string[] = [];
  const errors: string[] = [];
  let step = 0;
  const prompts: PolicyPrompts = {
    pickAgent: () => (calls.push('pickAgent'), Promise.resolve(script.agentId)),
    pickKey: () => {
      calls.push('pickKey');
      const s = script.steps[step];
      if (!s) {
        return Promise.resolve({ type: 'review' });
      }
      return Promise.resolve('timeout' in s ? { type: 'timeout' } : { type: 'key', key: s.key });
    },
    pickVerdict: (key) => {
      calls.push(`pickVerdict:${key}`);
      const s = script.steps[step++];
      return Promise.resolve(s && 'verdict' in s ? s.verdict : undefined);
    },
    inputTimeout: () => {
      calls.push('inputTimeout');
      const s = script.steps[step++];
      return Promise.resolve(s && 'timeout' in s ? s.timeout : undefined);
    },
    confirmRisk: (kind) => (calls.push(`confirmRisk:${kind}`), Promise.resolve(!!script.acceptRisk)),
    preview: () => (calls.push('preview'), Promise.resolve()),
    confirm: () => (calls.push('confirm'), Promise.resolve(script.confirm)),
    showError: (m) => void errors.push(m),
    showInfo: () => undefined,
  };
  const result = await api.editPolicy(
    {
      agentId: script.agentId,
      ...(script.server ? { server: script.server } : {}),
      ...(script.kind ? { kind: script.kind } : {}),
    },
    prompts,
  );
  return { result, calls, errors };
}
