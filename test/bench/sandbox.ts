/**
 * The OS sandbox's start-up cost (issue 19): the published claude-agent-acp (test/runtime/acp-agents) started by the
 * product's own process code (src/local/agentProcess.ts), from spawn to its reply to `initialize`, unsandboxed
 * (baseline) and inside bubblewrap with the wrapper the product builds for it (src/local/sandbox/confine.ts:
 * detection, plan, argv), alternating in the same run, p50 of several starts each. Its HOME is a throwaway folder,
 * its model the scripted loopback one (initialize does not reach it; nothing else would either).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { AgentProcess } from '../../src/local/agentProcess';
import { confine, type SandboxWrapper } from '../../src/local/sandbox';
import { AGENT_ENTRIES } from '../support/presetAgents';
import { startFakeModel, writeQuietClaudeSettings } from '../support/scriptedModel';
import type { Row } from './table';

const RUNS = 7;

export interface SandboxBench {
  readonly runs: number;
  readonly plainMs: number;
  readonly sandboxedMs: number;
}

const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Spawn → the `initialize` reply (id 1) on stdout, in ms; the agent is stopped (its group) afterwards. */
async function startToInitialize(
  command: string,
  cwd: string,
  env: Record<string, string>,
  sandbox?: SandboxWrapper,
): Promise<number> {
  const t0 = performance.now();
  const proc = await AgentProcess.spawn({
    command,
    args: [],
    cwd,
    env,
    graceMs: 500,
    termMs: 1000,
    ...(sandbox ? { sandbox } : {}),
  });
  const writer = proc.input.getWriter();
  const reader = proc.output.getReader();
  try {
    const init = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: 1, clientCapabilities: {} },
    };
    await writer.write(new TextEncoder().encode(JSON.stringify(init) + '\n'));
    const decoder = new TextDecoder();
    let buf = '';
    const timer = setTimeout(() => void proc.stop(), 60_000);
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) {
          throw new Error(`the agent ended before its initialize reply: ${proc.stderrTail().join('\n')}`);
        }
        buf += decoder.decode(value, { stream: true });
        for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
          const line = buf.slice(0, nl);
          buf = buf.slice(nl + 1);
          const msg = JSON.parse(line) as { id?: number; result?: { protocolVersion?: number } };
          if (msg.id === 1) {
            if (!msg.result?.protocolVersion) {
              throw new Error(`initialize failed: ${line}`);
            }
            return performance.now() - t0;
          }
        }
      }
    } finally {
      clearTimeout(timer);
    }
  } finally {
    reader.releaseLock();
    writer.releaseLock();
    await proc.stop();
  }
}

export async function sandboxBench(): Promise<SandboxBench> {
  const agent = AGENT_ENTRIES.claude.file;
  if (!fs.existsSync(agent)) {
    throw new Error(`${agent} is missing: run \`bash test/harness/setup-acp-agents.sh\``);
  }
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'fountain-bench-sandbox-'));
  const model = await startFakeModel();
  try {
    const home = path.join(root, 'home');
    const ws = path.join(root, 'ws');
    const bin = path.join(root, 'bin');
    for (const d of [ws, bin, path.join(root, 'tmp')]) {
      fs.mkdirSync(d, { recursive: true });
    }
    // The command as a preset finds it: `claude-agent-acp` on PATH (a link to the installed agent).
    const command = path.join(bin, AGENT_ENTRIES.claude.command);
    fs.symlinkSync(agent, command);
    const claudeDir = path.join(home, '.claude');
    writeQuietClaudeSettings(claudeDir);
    const env = {
      PATH: [bin, path.dirname(process.execPath), '/usr/bin', '/bin'].join(path.delimiter),
      HOME: home,
      TMPDIR: path.join(root, 'tmp'),
      LANG: 'C.UTF-8',
      ANTHROPIC_BASE_URL: model.baseUrl,
      ANTHROPIC_API_KEY: 'sk-ant-fake-offline-key',
      CLAUDE_CONFIG_DIR: claudeDir,
    };
    const c = await confine({ setting: 'required', roots: [ws] }, { runtime: 'claude', command, cwd: ws, env });
    if (!c.sandboxed || c.tool !== 'bwrap') {
      throw new Error(`no bubblewrap sandbox here: ${JSON.stringify(c)}`);
    }
    const plain: number[] = [];
    const boxed: number[] = [];
    await startToInitialize(command, ws, env); // warm-up: the file cache for both sides
    await startToInitialize(command, ws, env, c.wrap);
    for (let i = 0; i < RUNS; i++) {
      // Alternating, so a machine getting busier moves both sides.
      plain.push(await startToInitialize(command, ws, env));
      boxed.push(await startToInitialize(command, ws, env, c.wrap));
    }
    return { runs: RUNS, plainMs: p50(plain), sandboxedMs: p50(boxed) };
  } finally {
    await model.close();
    fs.rmSync(root, { recursive: true, force: true });
  }
}

/** The bench's rows. */
export async function sandboxRows(): Promise<Row[]> {
  const r = await sandboxBench();
  const ratio = r.sandboxedMs / r.plainMs;
  return [
    { section: 'Local agent start-up in the OS sandbox (claude-agent-acp, fresh processes, same run)' },
    [`agent start → its \`initialize\` reply, unsandboxed, p50 of ${r.runs} (baseline)`, `${r.plainMs.toFixed(0)} ms`],
    ['same, inside bubblewrap (the product’s own plan and argv), p50', `${r.sandboxedMs.toFixed(0)} ms`],
    ['sandboxed / baseline', ratio.toFixed(2), '≤ 1.5', ratio <= 1.5],
  ];
}
