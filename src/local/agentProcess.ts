/**
 * One agent process: its own process group (detached), ACP on stdin/stdout, stderr to a log callback with the last
 * lines kept for a crash message, never a shell. Ended by group: stdin closed, a grace period, SIGTERM to the group,
 * then SIGKILL, so a child the agent started (claude-agent-acp runs a `claude` CLI) goes too.
 * A watchdog (a `/bin/sh` in a group of its own, holding a pipe from this process) ends the group when this process
 * dies without stopping it (the extension host killed: no deactivate, no exit hook); some agents never exit on stdin
 * EOF, so nothing else would end them.
 * With a sandbox wrapper the process is the wrapper (`bwrap … -- command args`): bubblewrap runs the agent in a PID
 * namespace of its own with `--die-with-parent`, so ending the wrapper's group (stop, watchdog) ends the agent too.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { Readable, Writable } from 'node:stream';
import { Emitter, type Event } from '../domain/events';
import type { SandboxWrapper } from './sandbox/confine';

export interface AgentProcessOptions {
  /** An absolute path (see resolveAgentCommand). */
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
  /** The whole environment (see buildAgentEnv); nothing else is inherited. */
  readonly env: Readonly<Record<string, string>>;
  readonly graceMs: number;
  readonly termMs: number;
  /** Every stderr line, in full. */
  readonly onStderrLine?: (line: string) => void;
  /** How many stderr lines to keep for {@link AgentProcess.stderrTail}. Default 40. */
  readonly tailLines?: number;
  /** Runs `sandbox.command …sandbox.prefix command …args` instead (the prefix ends with the wrapper's `--`). */
  readonly sandbox?: SandboxWrapper;
}

/** The program and argv actually spawned: the command itself, or its sandbox wrapper around it. */
export function spawnLine(opts: Pick<AgentProcessOptions, 'command' | 'args' | 'sandbox'>): [string, string[]] {
  return opts.sandbox
    ? [opts.sandbox.command, [...opts.sandbox.prefix, opts.command, ...opts.args]]
    : [opts.command, [...opts.args]];
}

export interface AgentExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  /** True when {@link AgentProcess.stop} was asked for before the process ended. */
  readonly requested: boolean;
  /** The last stderr lines, oldest first (each cut at {@link TAIL_LINE_MAX} characters; the log has them whole). */
  readonly stderrTail: readonly string[];
}

export const TAIL_LINE_MAX = 2000;
const POLL_MS = 50;

// Groups still running; killed synchronously if the host process exits without stopping them.
const liveGroups = new Set<number>();
let exitHookInstalled = false;
function trackGroup(pgid: number): void {
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once('exit', () => {
      for (const g of liveGroups) {
        signalGroup(g, 'SIGKILL');
      }
    });
  }
  liveGroups.add(pgid);
}

function signalGroup(pgid: number, sig: NodeJS.Signals | 0): boolean {
  try {
    process.kill(process.platform === 'win32' ? pgid : -pgid, sig);
    return true;
  } catch {
    return false;
  }
}

/** Whether any process of the group `pgid` is still alive. */
export function processGroupAlive(pgid: number): boolean {
  return signalGroup(pgid, 0);
}

/**
 * Reads one line from the pipe: a line means "disarmed" (the agent ended, or was stopped, normally); end of file means
 * the process holding the pipe died, so the agent's group gets SIGTERM and, 2 s later, SIGKILL.
 */
const WATCHDOG_SCRIPT =
  'if read -r _; then exit 0; fi; kill -TERM -"$1" 2>/dev/null; sleep 2; kill -KILL -"$1" 2>/dev/null; exit 0';

/** Starts the watchdog of group `pgid`; undefined where there is no POSIX shell or it cannot start. */
function startWatchdog(pgid: number): ChildProcess | undefined {
  if (process.platform === 'win32') {
    return undefined;
  }
  try {
    const dog = spawn('/bin/sh', ['-c', WATCHDOG_SCRIPT, 'fountain-agent-watchdog', String(pgid)], {
      stdio: ['pipe', 'ignore', 'ignore'],
      detached: true,
      env: { PATH: '/usr/bin:/bin' },
    });
    dog.on('error', () => undefined);
    dog.stdin?.on('error', () => undefined);
    dog.unref();
    return dog;
  } catch {
    return undefined;
  }
}

const delay = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export class AgentProcess {
  readonly pid: number;
  /** The agent's stdin, for ACP. */
  readonly input: WritableStream<Uint8Array>;
  /** The agent's stdout, for ACP. */
  readonly output: ReadableStream<Uint8Array>;
  /** Resolves once, when the process has exited. */
  readonly exited: Promise<AgentExit>;

  private readonly _onDidExit = new Emitter<AgentExit>();
  readonly onDidExit: Event<AgentExit> = this._onDidExit.event;

  private readonly tail: string[] = [];
  private hasExited = false;
  private stopRequested = false;
  private stopping: Promise<AgentExit> | undefined;
  private readonly watchdog: ChildProcess | undefined;

  private constructor(
    private readonly child: ChildProcess,
    private readonly opts: AgentProcessOptions,
  ) {
    this.pid = child.pid!;
    trackGroup(this.pid);
    this.watchdog = startWatchdog(this.pid);
    // EPIPE after the agent died must not crash the host.
    child.stdin!.on('error', () => undefined);
    this.input = Writable.toWeb(child.stdin!) as WritableStream<Uint8Array>;
    this.output = Readable.toWeb(child.stdout!) as unknown as ReadableStream<Uint8Array>;
    const keep = opts.tailLines ?? 40;
    createInterface({ input: child.stderr!, crlfDelay: Infinity }).on('line', (line) => {
      this.tail.push(line.length > TAIL_LINE_MAX ? `${line.slice(0, TAIL_LINE_MAX)}…` : line);
      if (this.tail.length > keep) {
        this.tail.shift();
      }
      opts.onStderrLine?.(line);
    });
    this.exited = new Promise<AgentExit>((resolve) => {
      // 'close' comes after stdio has drained, so the stderr tail is complete.
      child.once('close', (code, signal) => {
        this.hasExited = true;
        if (!processGroupAlive(this.pid)) {
          liveGroups.delete(this.pid);
          this.disarmWatchdog();
        }
        const exit: AgentExit = { code, signal, requested: this.stopRequested, stderrTail: [...this.tail] };
        resolve(exit);
        this._onDidExit.fire(exit);
      });
    });
  }

  /** Spawns the agent; rejects (with the OS error) when it cannot start, e.g. a missing cwd. */
  static spawn(opts: AgentProcessOptions): Promise<AgentProcess> {
    const [command, args] = spawnLine(opts);
    const child = spawn(command, args, {
      cwd: opts.cwd,
      env: { ...opts.env },
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
      shell: false,
      windowsHide: true,
    });
    return new Promise<AgentProcess>((resolve, reject) => {
      child.once('error', (err) => reject(err));
      child.once('spawn', () => {
        child.removeAllListeners('error');
        child.on('error', () => undefined);
        resolve(new AgentProcess(child, opts));
      });
    });
  }

  /** The watchdog's process id (tests). */
  get watchdogPid(): number | undefined {
    return this.watchdog?.pid;
  }

  /** The group is gone: the watchdog exits without signalling (its group id may be reused later). */
  private disarmWatchdog(): void {
    const stdin = this.watchdog?.stdin;
    if (stdin && !stdin.destroyed) {
      stdin.end('done\n');
    }
  }

  get alive(): boolean {
    return !this.hasExited;
  }

  /** The last stderr lines so far, oldest first. */
  stderrTail(): string[] {
    return [...this.tail];
  }

  /** Whether the process or anything left in its group is running. */
  groupAlive(): boolean {
    return !this.hasExited || processGroupAlive(this.pid);
  }

  private async waitGone(ms: number): Promise<boolean> {
    const deadline = Date.now() + ms;
    while (this.groupAlive() && Date.now() < deadline) {
      await delay(POLL_MS);
    }
    return !this.groupAlive();
  }

  /**
   * Ends the agent and its whole group: stdin closed, `graceMs` for a clean exit, SIGTERM, `termMs`, SIGKILL.
   * Idempotent; resolves with the exit once nothing of the group is left (or SIGKILL had 2 s).
   */
  stop(): Promise<AgentExit> {
    this.stopping ??= (async () => {
      if (!this.hasExited) {
        this.stopRequested = true;
      }
      this.child.stdin!.end();
      if (!(await this.waitGone(this.opts.graceMs))) {
        signalGroup(this.pid, 'SIGTERM');
        if (!(await this.waitGone(this.opts.termMs))) {
          signalGroup(this.pid, 'SIGKILL');
          await this.waitGone(2000);
        }
      }
      if (!processGroupAlive(this.pid)) {
        liveGroups.delete(this.pid);
        this.disarmWatchdog();
      }
      return this.exited;
    })();
    return this.stopping;
  }
}
