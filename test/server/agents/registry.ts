/**
 * The agent registry: scripted agents always; real agents (claude-agent-acp / gemini-cli against a scripted model
 * server, from ./real/index.ts) when that module is present and loads.
 */
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { scriptedAgents } from './scripted';
import type { AgentDefinition, AgentLauncher } from './types';

interface RealModule {
  createRealAgent(
    preset: 'claude' | 'gemini',
  ): AgentLauncher | { launch: AgentLauncher; policy?: Record<string, unknown> };
  realAgentsInstalled?(preset?: 'claude' | 'gemini'): boolean;
}

const here = path.dirname(fileURLToPath(import.meta.url));

/** Real-agent ids when ./real/index.ts exists and exports createRealAgent; [] otherwise (never throws). */
export async function realAgents(log: (m: string) => void = () => undefined): Promise<AgentDefinition[]> {
  const file = path.join(here, 'real', 'index.ts');
  if (!existsSync(file)) {
    return [];
  }
  try {
    const mod = (await import(pathToFileURL(file).href)) as Partial<RealModule>;
    if (typeof mod.createRealAgent !== 'function') {
      return [];
    }
    const out: AgentDefinition[] = [];
    for (const preset of ['claude', 'gemini'] as const) {
      if (mod.realAgentsInstalled && !mod.realAgentsInstalled(preset)) {
        log(`real ${preset} agent not installed (bash test/harness/setup-acp-agents.sh); not registered`);
        continue;
      }
      const made = mod.createRealAgent(preset);
      const launch: AgentLauncher = typeof made === 'function' ? made : made.launch.bind(made);
      out.push({
        id: `real-${preset}`,
        name: preset === 'claude' ? 'Claude Code (real adapter)' : 'Gemini CLI (real)',
        runtime: preset,
        description: `the real ${preset} ACP agent against a scripted model server`,
        policy: { default: 'ask' },
        launch,
      });
    }
    return out;
  } catch (err) {
    log(`real agents unavailable: ${(err as Error)?.message ?? String(err)}`);
    return [];
  }
}

export async function agentRegistry(
  opts: { real?: boolean; log?: (m: string) => void } = {},
): Promise<Map<string, AgentDefinition>> {
  const all = [...scriptedAgents(), ...(opts.real === false ? [] : await realAgents(opts.log))];
  return new Map(all.map((a) => [a.id, a]));
}
