/**
 * How one agent start is confined, from the `fountain.local.sandbox` setting and what the machine has: the sandbox
 * plan and the wrapper its command runs under, or why there is none. `required` refuses to start without one; `off`
 * and a missing sandbox under `auto` go through the caller's `beforeUnsandboxed` (the UI's modal or warning).
 */
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { allowPathProblem, type AllowPath } from '../../policy/scope';
import type { SandboxNetwork } from '../network/forwarderLine';
import { bwrapArgs } from './bwrap';
import { BWRAP_INSTALL, BWRAP_UNBLOCK, detectSandbox, type SandboxTool, type SandboxUnavailable } from './detect';
import { AGENT_STATE } from './paths';
import { patternFolder, planSandbox, type PathFacts, type SandboxPlan } from './plan';
import { seatbeltProfile } from './seatbelt';

export type SandboxSetting = 'auto' | 'required' | 'off';

/** The setting's value; anything else is `auto`. */
export function sandboxSetting(raw: unknown): SandboxSetting {
  return raw === 'required' || raw === 'off' ? raw : 'auto';
}

/**
 * `fountain.local.network`: `ask` (the default) gives a sandboxed agent a network of its own whose only way out is
 * the host proxy; `open` shares the host's network as an unsandboxed agent has it.
 */
export type NetworkSetting = 'ask' | 'open';

/** The setting's value; anything else is `ask`. */
export function networkSetting(raw: unknown): NetworkSetting {
  return raw === 'open' ? 'open' : 'ask';
}

/** What the command runs under: `command prefix… agentCommand agentArgs…`. */
export interface SandboxWrapper {
  readonly command: string;
  readonly prefix: readonly string[];
}

export type Confinement =
  | {
      readonly sandboxed: true;
      readonly tool: SandboxTool;
      readonly plan: SandboxPlan;
      readonly wrap: SandboxWrapper;
      /**
       * `proxy`: its network goes only through the host proxy; `none`: it has no network at all (`ask` without a
       * proxy); `open`: the host's network.
       */
      readonly network: 'proxy' | 'none' | 'open';
    }
  | {
      readonly sandboxed: false;
      /** `off`: the setting; `not_requested`: the caller asked for no sandbox (tests, benches). */
      readonly reason: 'off' | 'not_requested' | SandboxUnavailable;
      /** Not installed: the command that installs it. */
      readonly install?: string;
      /** Installed but blocked: what lifts the restriction. */
      readonly fix?: string;
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
  /** `fountain.local.network`; default `ask`. */
  readonly network?: NetworkSetting;
  /** Before an agent starts unsandboxed (`off`, or none available under `auto`); false: it does not start. */
  readonly beforeUnsandboxed?: (c: Unsandboxed) => Promise<boolean> | boolean;
}

const UNAVAILABLE: Readonly<Record<Unsandboxed['reason'], string>> = {
  not_installed: "bubblewrap (bwrap) is not on the agent's PATH",
  blocked:
    'bubblewrap is installed but this machine refuses it user namespaces (the AppArmor or kernel user-namespace restriction)',
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
        (confinement.fix ? `. Fix: ${confinement.fix}` : '') +
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

/** How deep under a workspace folder repositories are looked for (VS Code's git extension opens nested ones too). */
const REPO_SCAN_DEPTH = 3;
const REPO_SCAN_ENTRIES = 20_000;
const SKIP_SCAN = new Set(['.git', 'node_modules']);

/** The folders under `root` (itself included) that hold a `.git` entry, to `REPO_SCAN_DEPTH` levels. */
function findRepos(root: string): string[] {
  const found: string[] = [];
  let seen = 0;
  const walk = (dir: string, level: number) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    seen += entries.length;
    if (entries.some((e) => e.name === '.git')) {
      found.push(dir);
    }
    if (level >= REPO_SCAN_DEPTH || seen > REPO_SCAN_ENTRIES) {
      return;
    }
    for (const e of entries) {
      if (e.isDirectory() && !SKIP_SCAN.has(e.name)) {
        walk(path.join(dir, e.name), level + 1);
      }
    }
  };
  walk(root, 0);
  return found;
}

/** git's own answer for one repository: its git folder, common folder and hooks folder (core.hooksPath applied). */
function gitFolders(repo: string, env: Readonly<Record<string, string>>): Promise<string[]> {
  const clean = Object.fromEntries(Object.entries(env).filter(([k]) => !k.startsWith('GIT_')));
  return new Promise((resolve) => {
    execFile(
      'git',
      ['rev-parse', '--path-format=absolute', '--git-dir', '--git-common-dir', '--git-path', 'hooks'],
      { cwd: repo, env: clean, timeout: 5000 },
      (err, out) =>
        resolve(
          err
            ? []
            : String(out)
                .split('\n')
                .filter((l) => path.isAbsolute(l)),
        ),
    );
  });
}

/** Every repository's `.git` and git folders under the workspace folders and writable allowPaths folders. */
async function gitPaths(folders: readonly string[], env: Readonly<Record<string, string>>): Promise<string[]> {
  const repos = [...new Set(folders.flatMap(findRepos))];
  const answers = await Promise.all(repos.map((r) => gitFolders(r, env)));
  return [...new Set([...repos.map((r) => path.join(r, '.git')), ...answers.flat()])];
}

/**
 * The empty files bubblewrap creates as mount points for protected paths that did not exist ({@link
 * SandboxPlan.blocked}), counted over the sandboxes that mount them (a second agent in the same folder finds the
 * first one's file and mounts it too): the last to end removes it, so no empty `.git` is left to break the folder.
 */
const blockers = new Map<string, number>();
const plansBlockers = new WeakMap<SandboxPlan, string[]>();

function holdBlockers(plan: SandboxPlan): void {
  const held = [
    ...new Set([
      ...plan.blocked,
      ...plan.layers.filter((l) => l.type === 'mount' && l.why === 'protected' && blockers.has(l.at)).map((l) => l.at),
    ]),
  ];
  held.forEach((p) => blockers.set(p, (blockers.get(p) ?? 0) + 1));
  plansBlockers.set(plan, held);
}

/** Once the agent has ended: the blocking files no other sandbox holds go, when still empty (a filled one is the user's). */
export function removeBlockers(plan: SandboxPlan): void {
  for (const p of plansBlockers.get(plan) ?? []) {
    const n = (blockers.get(p) ?? 1) - 1;
    if (n > 0) {
      blockers.set(p, n);
      continue;
    }
    blockers.delete(p);
    try {
      const s = fs.lstatSync(p);
      if (s.isFile() && s.size === 0) {
        fs.unlinkSync(p);
      } else if (s.isDirectory()) {
        fs.rmdirSync(p); // only when still empty: rmdir refuses a folder with anything in it
      }
    } catch {
      // Gone already.
    }
  }
  plansBlockers.delete(plan);
}

export interface ConfineTarget {
  /** The preset id (or `custom`). */
  readonly runtime: string;
  /** The resolved command. */
  readonly command: string;
  /** Its arguments (an interpreter's script is mounted with the program). */
  readonly args?: readonly string[];
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  /** Under network `ask`: the host proxy the sandbox reaches (without one, `ask` leaves it no network at all). */
  readonly proxy?: SandboxNetwork;
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
  const first = useOverride ? override : path.join(home, state.dirs[0]);
  try {
    for (const d of useOverride ? [override] : state.dirs.map((d) => path.join(home, d))) {
      fs.mkdirSync(d, { recursive: true, mode: 0o700 });
    }
    // Settings and hooks are read-only inside: made now, so the sandbox has something to mount (an agent reads `{}`
    // as no settings).
    for (const rel of state.readOnly ?? []) {
      const p = path.join(first, rel);
      if (rel.endsWith('/')) {
        fs.mkdirSync(p, { recursive: true, mode: 0o700 });
      } else if (!fs.existsSync(p) && /\.jsonc?$/.test(rel)) {
        fs.writeFileSync(p, '{}\n', { mode: 0o600, flag: 'wx' });
      } else if (!fs.existsSync(p)) {
        fs.writeFileSync(p, '', { mode: 0o600, flag: 'wx' });
      }
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

/** `sandbox-exec -p <profile>`, and under a proxy the forwarder (by its real paths: macOS has no mounts). */
function seatbeltWrapper(
  command: string,
  plan: SandboxPlan,
  network: SandboxNetwork | 'open' | undefined,
): SandboxWrapper {
  const profile = ['-p', seatbeltProfile(plan, network)];
  if (network === undefined || network === 'open') {
    return { command, prefix: profile };
  }
  const { node, electron, script } = network.forwarder;
  const runAsNode = electron ? ['/usr/bin/env', 'ELECTRON_RUN_AS_NODE=1'] : [];
  return { command, prefix: [...profile, ...runAsNode, node, script, network.socketPath, String(network.port)] };
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
      ...(found.reason === 'not_installed' && process.platform === 'linux' ? { install: BWRAP_INSTALL } : {}),
      ...(found.reason === 'blocked' ? { fix: BWRAP_UNBLOCK } : {}),
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
  const roots = [...new Set([...req.roots, t.cwd])];
  const writableAllow = allowPaths.filter((e) => e.access !== 'r').map((e) => patternFolder(e.pattern));
  const git = await gitPaths([...roots, ...writableAllow.filter((f): f is string => f !== undefined)], t.env);
  const plan = planSandbox(
    {
      home,
      otherHomes,
      roots,
      cwd: t.cwd,
      agent: key,
      command: t.command,
      ...(t.args ? { args: t.args } : {}),
      env: t.env,
      allowPaths,
      hidden: req.hidden ?? [],
      git,
    },
    fsFacts,
  );
  holdBlockers(plan);
  const open = req.network === 'open';
  const proxy = open ? undefined : t.proxy;
  const wrap: SandboxWrapper =
    found.tool === 'bwrap'
      ? { command: found.command, prefix: bwrapArgs(plan, open ? 'open' : (proxy ?? 'none')) }
      : seatbeltWrapper(found.command, plan, open ? 'open' : proxy);
  return { sandboxed: true, tool: found.tool, plan, wrap, network: open ? 'open' : proxy ? 'proxy' : 'none' };
}
