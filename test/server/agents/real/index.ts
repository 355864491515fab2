// Launchers for REAL published ACP agents (installed by test/harness/setup-acp-agents.sh into
// test/runtime/acp-agents), pointed at a scripted fake model API on 127.0.0.1 (./fakeModel).
//
//   const agent = createRealAgent('claude');
//   const proc = await agent({ conversationId, cwd });   // also: agent.launch(ctx)
//   ... speak ACP over proc.input (agent stdin) / proc.output (agent stdout) ...
//   await proc.dispose();
//
// Each launch gets its own fake model server, temp HOME and TMPDIR. The agent's environment is built from scratch
// (PATH, LANG, HOME, TMPDIR and the preset's variables): no API keys, configs or FOUNTAIN_TOKEN from the calling
// process leak in. The prompt decides the shell command the model asks for: see `parseFileDirective`.
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Readable, Writable } from 'node:stream';
import {
  QUIET_CLAUDE_ENV,
  startFakeModel,
  type FakeModel,
  type FakeModelOptions,
  type FakeModelRequest,
} from './fakeModel';

export { commandFor, parseFileDirective, type FileDirective, type FakeModelRequest } from './fakeModel';

import type { AgentDefinition, AgentLaunchContext, AgentProcess } from '../types';

export type { AgentLaunchContext, AgentProcess } from '../types';

export type RealAgentPreset = 'claude' | 'gemini';

/** What a launch returns: the contract's streams plus test diagnostics. */
export interface RealAgentProcess extends AgentProcess {
  readonly pid: number;
  /** Every request the fake model got so far (kind, turn, tool asked for, tool result seen). */
  readonly modelRequests: readonly FakeModelRequest[];
  /** The last ~16 KB of the agent's stderr (for failure messages; never contains secrets: there are none). */
  stderrTail(): string;
  /** Resolves when the agent process has exited. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * An AgentDefinition (test/server/agents/types.ts) that is also callable as the launcher itself:
 * `agent(ctx)` and `agent.launch(ctx)` are the same.
 */
export interface RealAgent extends AgentDefinition {
  (ctx: AgentLaunchContext): Promise<RealAgentProcess>;
  readonly launch: (ctx: AgentLaunchContext) => Promise<RealAgentProcess>;
  readonly runtime: RealAgentPreset;
}

export interface RealAgentOptions {
  /** Fake model script options (how the command is derived, final text). */
  readonly model?: FakeModelOptions;
  /**
   * After stdin is closed, how long to wait for a clean exit before SIGTERM to the group. Default per preset:
   * gemini 2500 ms (it exits 0 about 1.6 s after stdin EOF); claude 250 ms (it never exits on EOF).
   */
  readonly graceMs?: number;
  /** After SIGTERM, how long before SIGKILL. Default per preset: gemini 2000 ms; claude 1000 ms (its `claude` CLI
   * child outlives SIGTERM by more than 2 s; its state lives only in the temp HOME we delete anyway). */
  readonly termMs?: number;
  /** Where setup-acp-agents.sh installed the agents. Default test/runtime/acp-agents. */
  readonly runtimeDir?: string;
  /** The agent-level Fountain policy the definition carries. Default `{ default: 'ask' }`: every request asks. */
  readonly policy?: Record<string, unknown>;
}

const DEFAULT_RUNTIME_DIR = path.resolve(__dirname, '../../../runtime/acp-agents');
export const REAL_AGENTS_SETUP_HINT = 'real ACP agents are not installed: run `bash test/harness/setup-acp-agents.sh`';

interface PresetSpec {
  readonly name: string;
  readonly graceMs: number;
  readonly termMs: number;
  readonly description: string;
  readonly entry: readonly string[];
  readonly args: readonly string[];
  env(home: string, baseUrl: string): Record<string, string>;
  prepare(home: string): void;
}

const PRESETS: Record<RealAgentPreset, PresetSpec> = {
  // @zed-industries/claude-agent-acp -> @anthropic-ai/claude-agent-sdk -> Claude Code cli.js (Anthropic Messages API)
  claude: {
    name: 'Claude Code (claude-agent-acp 0.23.1, real)',
    graceMs: 250,
    termMs: 1000,
    description: 'The published claude-agent-acp 0.23.1 (Claude Code 2.1.83) on a scripted loopback model',
    entry: ['@zed-industries', 'claude-agent-acp', 'dist', 'index.js'],
    args: [],
    env: (home, baseUrl) => ({
      ANTHROPIC_BASE_URL: baseUrl,
      ANTHROPIC_API_KEY: 'sk-ant-fake-offline-key',
      CLAUDE_CONFIG_DIR: path.join(home, '.claude'),
      ...QUIET_CLAUDE_ENV,
    }),
    prepare: (home) => {
      const dir = path.join(home, '.claude');
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, 'settings.json'), JSON.stringify({ skipWebFetchPreflight: true }));
    },
  },
  // @google/gemini-cli --acp (Gemini generateContent API). GOOGLE_GEMINI_BASE_URL selects the "gateway" auth type,
  // so no authenticate call is needed. GEMINI_CLI_NO_RELAUNCH: no self re-spawn whose parent ignores SIGTERM.
  gemini: {
    name: 'Gemini CLI (0.61.0, real)',
    graceMs: 2500,
    termMs: 2000,
    description: 'The published @google/gemini-cli 0.61.0 --acp on a scripted loopback model',
    entry: ['@google', 'gemini-cli', 'bundle', 'gemini.js'],
    args: ['--acp'],
    env: (_home, baseUrl) => ({
      GOOGLE_GEMINI_BASE_URL: baseUrl,
      GEMINI_API_KEY: 'fake-offline-gemini-key',
      GEMINI_CLI_NO_RELAUNCH: 'true',
    }),
    prepare: (home) => {
      const dir = path.join(home, '.gemini');
      fs.mkdirSync(dir, { recursive: true });
      const settings = {
        privacy: { usageStatisticsEnabled: false },
        telemetry: { enabled: false },
        general: { disableAutoUpdate: true, disableUpdateNag: true },
      };
      fs.writeFileSync(path.join(dir, 'settings.json'), JSON.stringify(settings));
    },
  },
};

/** True when setup-acp-agents.sh has installed the agent(s); callers skip with REAL_AGENTS_SETUP_HINT otherwise. */
export function realAgentsInstalled(preset?: RealAgentPreset, runtimeDir = DEFAULT_RUNTIME_DIR): boolean {
  const wanted = preset ? [preset] : (Object.keys(PRESETS) as RealAgentPreset[]);
  return wanted.every((p) => fs.existsSync(path.join(runtimeDir, 'node_modules', ...PRESETS[p].entry)));
}

// Process groups still alive; killed synchronously if the test process exits without dispose().
const liveGroups = new Set<number>();
process.once('exit', () => {
  for (const pgid of liveGroups) {
    try {
      process.kill(-pgid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
});

const STDERR_TAIL = 16_384;
// Keys never passed to an agent even if a caller puts them in ctx.env.
const FORBIDDEN_ENV = /^(FOUNTAIN_TOKEN|ANTHROPIC_AUTH_TOKEN|.*_API_KEY|NODE_OPTIONS)$/i;

export function createRealAgent(preset: RealAgentPreset, opts: RealAgentOptions = {}): RealAgent {
  const spec = PRESETS[preset];
  const runtimeDir = opts.runtimeDir ?? DEFAULT_RUNTIME_DIR;
  const graceMs = opts.graceMs ?? spec.graceMs;
  const termMs = opts.termMs ?? spec.termMs;

  const launch = async (ctx: AgentLaunchContext): Promise<RealAgentProcess> => {
    const entry = path.join(runtimeDir, 'node_modules', ...spec.entry);
    if (!fs.existsSync(entry)) {
      throw new Error(`${REAL_AGENTS_SETUP_HINT} (missing ${entry})`);
    }
    const tag = ctx.conversationId.replace(/[^A-Za-z0-9-]/g, '').slice(0, 8);
    const root = fs.mkdtempSync(path.join(os.tmpdir(), `fountain-real-${preset}-${tag}-`));
    const home = path.join(root, 'home');
    const tmp = path.join(root, 'tmp');
    fs.mkdirSync(home);
    fs.mkdirSync(tmp);
    let model: FakeModel | undefined;
    let child: ChildProcess | undefined;
    try {
      model = await startFakeModel(opts.model);
      spec.prepare(home);
      // ctx.env goes first, so callers add variables but cannot replace HOME, PATH or the model endpoint.
      const callerEnv = Object.fromEntries(Object.entries(ctx.env ?? {}).filter(([k]) => !FORBIDDEN_ENV.test(k)));
      const env: Record<string, string> = {
        ...callerEnv,
        PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
        LANG: 'C.UTF-8',
        HOME: home,
        TMPDIR: tmp,
        TERM: 'dumb',
        NO_COLOR: '1',
        CI: '1',
        ...spec.env(home, model.baseUrl),
      };
      child = spawn(process.execPath, [entry, ...spec.args], {
        cwd: ctx.cwd,
        env,
        stdio: ['pipe', 'pipe', 'pipe'],
        detached: true,
      });
      // A spawn failure (e.g. cwd missing) arrives as an async 'error' event; without a listener it would crash.
      child.once('error', () => undefined);
    } catch (e) {
      await model?.close();
      fs.rmSync(root, { recursive: true, force: true });
      throw e;
    }
    const proc = child;
    const fake = model;
    const pid = proc.pid;
    if (pid === undefined) {
      await fake.close();
      fs.rmSync(root, { recursive: true, force: true });
      throw new Error(`could not spawn the ${preset} agent (${entry}) in cwd ${ctx.cwd}`);
    }
    liveGroups.add(pid);

    let stderr = '';
    proc.stderr!.on('data', (c: Buffer) => {
      stderr = (stderr + c.toString('utf8')).slice(-STDERR_TAIL);
    });
    // EPIPE after the agent died must not crash the test process.
    proc.stdin!.on('error', () => undefined);
    let hasExited = false;
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
      proc.once('exit', (code, signal) => {
        hasExited = true;
        resolve({ code, signal });
      });
    });

    const groupAlive = () => {
      try {
        process.kill(-pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    const signalGroup = (sig: NodeJS.Signals) => {
      try {
        process.kill(-pid, sig);
      } catch {
        // group already empty
      }
    };
    const waitGone = async (ms: number) => {
      const deadline = Date.now() + ms;
      while (Date.now() < deadline && (!hasExited || groupAlive())) {
        await new Promise((r) => setTimeout(r, 50));
      }
      return hasExited && !groupAlive();
    };

    let disposing: Promise<void> | undefined;
    const dispose = () =>
      (disposing ??= (async () => {
        proc.stdin!.end();
        if (!(await waitGone(graceMs))) {
          signalGroup('SIGTERM');
          if (!(await waitGone(termMs))) {
            signalGroup('SIGKILL');
            await waitGone(2000);
          }
        }
        liveGroups.delete(pid);
        await fake.close();
        fs.rmSync(root, { recursive: true, force: true });
      })());

    return {
      input: Writable.toWeb(proc.stdin!) as WritableStream<Uint8Array>,
      output: Readable.toWeb(proc.stdout!) as unknown as ReadableStream<Uint8Array>,
      dispose,
      pid,
      modelRequests: fake.requests,
      stderrTail: () => stderr,
      exited,
    };
  };

  // A callable launcher that also carries its metadata (`name` must be defined: a function's own `name` is read-only).
  const agent = (ctx: AgentLaunchContext) => launch(ctx);
  Object.defineProperties(agent, {
    launch: { value: launch, enumerable: true },
    id: { value: `real-${preset}`, enumerable: true },
    name: { value: spec.name, enumerable: true },
    runtime: { value: preset, enumerable: true },
    description: { value: spec.description, enumerable: true },
    policy: { value: { ...(opts.policy ?? { default: 'ask' }) }, enumerable: true },
  });
  return agent as RealAgent;
}
