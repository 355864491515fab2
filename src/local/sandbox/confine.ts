/**
 * How one agent start is confined, from the `fountain.local.sandbox` setting and what the machine has: the sandbox
 * plan and the wrapper its command runs under, or why there is none. `required` refuses to start without one; `off`
 * and a missing sandbox under `auto` go through the caller's `beforeUnsandboxed` (the UI's modal or warning).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { allowPathProblem, type AllowPath } from '../../policy/scope';
import { bwrapArgs } from './bwrap';
import { BWRAP_INSTALL, detectSandbox, type SandboxTool, type SandboxUnavailable } from './detect';
import { AGENT_STATE } from './paths';
import { planSandbox, type PathFacts, type SandboxPlan } from './plan';
import { seatbeltProfile } from './seatbelt';

export type SandboxSetting = 'auto' | 'required' | 'off';

/** The setting's value; anything else is `auto`. */
export function sandboxSetting(raw: unknown): SandboxSetting {
  return raw === 'required' || raw === 'off' ? raw : 'auto';
}

/** What the command runs under: `command prefix… agentCommand agentArgs…`. */
export interface SandboxWrapper {
  readonly command: string;
  readonly prefix: readonly string[];
}

export type Confinement =
  | { readonly sandboxed: true; readonly tool: SandboxTool; readonly plan: SandboxPlan; readonly wrap: SandboxWrapper }
  | {
      readonly sandboxed: false;
      /** `off`: the setting; `not_requested`: the caller asked for no sandbox (tests, benches). */
      readonly reason: 'off' | 'not_requested' | SandboxUnavailable;
      readonly install?: string;
      readonly detail?: string;
    };

export type Unsandboxed = Extract<Confinement, { sandboxed: false }>;

export interface SandboxRequest {
  readonly setting: SandboxSetting;
  /** The workspace folders (the session's own is added). */
  readonly roots: readonly string[];
  /** `fountain.local.allowPaths` as set (entries the gate would refuse are left out here too). */
  readonly allowPaths?: unknown;
  /** Absolute paths never visible (VS Code's storage). */
  readonly hidden?: readonly string[];
  /** Before an agent starts unsandboxed (`off`, or none available under `auto`); false: it does not start. */
  readonly beforeUnsandboxed?: (c: Unsandboxed) => Promise<boolean> | boolean;
}

const UNAVAILABLE: Readonly<Record<Unsandboxed['reason'], string>> = {
  not_installed: "bubblewrap (bwrap) is not on the agent's PATH",
  not_working: 'bubblewrap cannot create its namespaces on this machine',
  unsupported_platform: 'this platform has no sandbox',
  off: 'the setting is off',
  not_requested: 'none was asked for',
};

/** `required` and no sandbox: nothing was started. */
export class SandboxRequiredError extends Error {
  constructor(readonly confinement: Unsandboxed) {
    super(
      `fountain.local.sandbox is "required" and no sandbox is available (${UNAVAILABLE[confinement.reason]})` +
        (confinement.install ? `. Install it with: ${confinement.install}` : '') +
        (confinement.detail ? `\n${confinement.detail}` : ''),
    );
    this.name = 'SandboxRequiredError';
  }
}

/** The user declined to start an agent without a sandbox. */
export class UnsandboxedDeclinedError extends Error {
  constructor() {
    super('not started: the agent would run without a sandbox');
    this.name = 'UnsandboxedDeclinedError';
  }
}

/** The real file system, for {@link planSandbox}. */
export const fsFacts: PathFacts = {
  real(p) {
    try {
      return fs.realpathSync.native(p);
    } catch {
      return undefined;
    }
  },
  kind(p) {
    try {
      const s = fs.statSync(p);
      return s.isDirectory() ? 'dir' : s.isFile() ? 'file' : 'other';
    } catch {
      return undefined;
    }
  },
  link(p) {
    try {
      return fs.readlinkSync(p);
    } catch {
      return undefined;
    }
  },
  list(p) {
    try {
      return fs.readdirSync(p);
    } catch {
      return undefined;
    }
  },
  firstLine(p) {
    let fd: number | undefined;
    try {
      fd = fs.openSync(p, 'r');
      const buf = Buffer.alloc(256);
      const n = fs.readSync(fd, buf, 0, buf.length, 0);
      return buf.subarray(0, n).toString('utf8').split('\n')[0];
    } catch {
      return undefined;
    } finally {
      if (fd !== undefined) {
        fs.closeSync(fd);
      }
    }
  },
};

export interface ConfineTarget {
  /** The preset id (or `custom`). */
  readonly runtime: string;
  /** The resolved command. */
  readonly command: string;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
}

/** The key of {@link AGENT_STATE}: the preset id when it has one, else the command's basename. */
export function agentKey(runtime: string, command: string): string {
  return Object.hasOwn(AGENT_STATE, runtime) ? runtime : path.basename(command);
}

/**
 * The agent's state folders and files exist before the sandbox mounts them (the home around them is read-only
 * inside, and a sign-in must be kept on the real disk): folders created, a missing state file (`~/.claude.json`)
 * created as `{}`.
 */
function createState(key: string, home: string, env: Readonly<Record<string, string>>): void {
  const state = AGENT_STATE[key];
  if (!state) {
    return;
  }
  const override = state.envOverride ? env[state.envOverride] : undefined;
  const useOverride = override !== undefined && path.isAbsolute(override);
  try {
    for (const d of useOverride ? [override] : state.dirs.map((d) => path.join(home, d))) {
      fs.mkdirSync(d, { recursive: true, mode: 0o700 });
    }
    for (const f of useOverride ? [] : state.files.map((f) => path.join(home, f))) {
      if (!fs.existsSync(f)) {
        fs.writeFileSync(f, '{}\n', { mode: 0o600, flag: 'wx' });
      }
    }
  } catch {
    // Not creatable (a read-only home): the plan skips what is missing.
  }
}

/** The plan and wrapper for one start (or why there is none; throws for `required` and a declined start). */
export async function confine(req: SandboxRequest | undefined, t: ConfineTarget): Promise<Confinement> {
  if (!req) {
    return { sandboxed: false, reason: 'not_requested' };
  }
  const unsandboxed = async (c: Unsandboxed): Promise<Confinement> => {
    if (req.beforeUnsandboxed && !(await req.beforeUnsandboxed(c))) {
      throw new UnsandboxedDeclinedError();
    }
    return c;
  };
  if (req.setting === 'off') {
    return unsandboxed({ sandboxed: false, reason: 'off' });
  }
  // bubblewrap is looked up on the agent's own PATH, as its command is.
  const found = await detectSandbox(process.platform, t.env.PATH);
  if (found.tool === undefined) {
    const c: Unsandboxed = {
      sandboxed: false,
      reason: found.reason,
      ...(process.platform === 'linux' ? { install: BWRAP_INSTALL } : {}),
      ...(found.detail !== undefined ? { detail: found.detail } : {}),
    };
    if (req.setting === 'required') {
      throw new SandboxRequiredError(c);
    }
    return unsandboxed(c);
  }
  const home = t.env.HOME && path.isAbsolute(t.env.HOME) ? t.env.HOME : os.homedir();
  const key = agentKey(t.runtime, t.command);
  createState(key, home, t.env);
  const allowPaths = (Array.isArray(req.allowPaths) ? (req.allowPaths as unknown[]) : []).filter(
    (e): e is AllowPath => allowPathProblem(e) === undefined,
  );
  const otherHomes = [...new Set([os.userInfo().homedir, process.env.HOME ?? ''])].filter((h) => h && h !== home);
  const plan = planSandbox(
    {
      home,
      otherHomes,
      roots: [...new Set([...req.roots, t.cwd])],
      cwd: t.cwd,
      agent: key,
      command: t.command,
      env: t.env,
      allowPaths,
      hidden: req.hidden ?? [],
    },
    fsFacts,
  );
  const wrap: SandboxWrapper =
    found.tool === 'bwrap'
      ? { command: found.command, prefix: bwrapArgs(plan) }
      : { command: found.command, prefix: ['-p', seatbeltProfile(plan)] };
  return { sandboxed: true, tool: found.tool, plan, wrap };
}
