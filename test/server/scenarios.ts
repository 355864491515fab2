/**
 * Named scenarios that populate a fresh server. `demo`: several conversations from different agents, requests
 * arriving over the first minute (clock-driven, so a manual clock only plays them as it is advanced), one detached
 * request with a deadline days away, and the real claude-agent-acp and Gemini CLI agents when they are installed.
 */
import type { RunningServer } from './server';

type Step = {
  atMs: number;
  agent: string;
  title: string;
  prompt: string;
  labels?: Record<string, string>;
  user?: string;
};

const DEMO: Step[] = [
  {
    atMs: 0,
    agent: 'waiter',
    title: 'Nightly release',
    prompt: 'say: Preparing the release\nwait(432000): ./deploy.sh --prod',
    labels: { team: 'release' },
  },
  {
    atMs: 0,
    agent: 'claude',
    title: 'Fix the flaky test',
    prompt: 'say: Running the tests first\nrun: npm test -- --grep flaky',
    labels: { team: 'web' },
  },
  {
    atMs: 8_000,
    agent: 'gemini',
    title: 'Tidy the README',
    prompt: 'edit: README.md => # Demo\\n\\nTidied by Gemini.\n',
    labels: { team: 'docs' },
  },
  {
    atMs: 18_000,
    agent: 'codex',
    title: 'Push the hotfix',
    prompt: 'run: git push --force origin hotfix/login',
    labels: { team: 'web' },
  },
  {
    atMs: 30_000,
    agent: 'qwen',
    title: 'Clean build output',
    prompt: 'run: rm -rf build dist',
    labels: { team: 'infra' },
  },
  {
    atMs: 45_000,
    agent: 'claude',
    title: 'Plan the refactor',
    prompt: 'plan: 1. split the parser\n2. add tests',
    labels: { team: 'web' },
  },
  { atMs: 55_000, agent: 'claude', title: 'Create a marker', prompt: 'run: touch demo-marker.txt' },
  {
    atMs: 5_000,
    agent: 'real-claude',
    title: 'Real Claude adapter',
    prompt: 'Please create file demo-real.txt containing hello from the real agent',
  },
  {
    atMs: 10_000,
    agent: 'real-gemini',
    title: 'Real Gemini CLI',
    prompt: 'Please create file demo-gemini.txt containing hello from Gemini',
  },
];

export async function runScenario(name: string, server: RunningServer): Promise<void> {
  switch (name) {
    case 'empty':
    case 'none':
      return;
    case 'demo': {
      const agents = new Set(server.store.agents.keys());
      const start = server.clock.now();
      for (const s of DEMO) {
        if (!agents.has(s.agent)) {
          continue; // real agents only when present
        }
        const create = () => {
          const r = server.createConversation(
            { agent_id: s.agent, prompt: s.prompt, title: s.title, labels: s.labels ?? {} },
            s.user,
          );
          if (r.status >= 300) {
            console.error(`[test-server] demo: ${s.agent} failed: ${JSON.stringify(r.body)}`);
          }
        };
        if (s.atMs === 0) {
          create();
        } else {
          server.clock.at(start + s.atMs, create);
        }
      }
      return;
    }
    default:
      throw new Error(`unknown scenario "${name}" (known: demo, empty)`);
  }
}
