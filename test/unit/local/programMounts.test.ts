// What of an agent's program the sandbox mounts back (src/local/sandbox/programMounts.ts), over the install layouts
// agents come in, on a fake file system, read from the plan's `program` mounts (pure: no bwrap runs here;
// test/integration/sandboxInstalls.test.ts starts real installs in real bubblewrap).
import * as assert from 'node:assert/strict';
import { planSandbox, type SandboxInput, type SandboxPlan } from '../../../src/local/sandbox';
import {
  MAX_LINKED_TREES,
  outermostNodeModules,
  scriptArgument,
  shebangProgram,
} from '../../../src/local/sandbox/programMounts';
import { fakeFs, type Entry } from './fakeFs';

const HOME = '/home/u';
const WS = '/home/u/ws';
const NODE_SCRIPT: Entry = { text: '#!/usr/bin/env node\nimport "./lib.js";\n' };
const ACP = '@zed-industries/claude-agent-acp';

const COMMON: Record<string, Entry> = {
  '/usr/bin/node': 'file',
  '/usr/bin/env': 'file',
  '/bin/sh': 'file',
  [`${WS}/a.ts`]: 'file',
  '/home/u/.ssh/id_rsa': 'file',
  '/home/u/notes/todo.md': 'file',
};

function plan(command: string, entries: Record<string, Entry>, over: Partial<SandboxInput> = {}): SandboxPlan {
  return planSandbox(
    {
      home: HOME,
      roots: [WS],
      cwd: WS,
      agent: 'claude',
      command,
      env: { HOME, PATH: '/usr/bin:/bin' },
      allowPaths: [],
      ...over,
    },
    fakeFs({ ...COMMON, ...entries }),
  );
}

/** Where the plan mounts program folders (read-only), sorted. */
function programAt(p: SandboxPlan): string[] {
  return p.layers
    .filter((l) => l.type === 'mount' && l.why === 'program')
    .map((l) => (l.type === 'mount' ? `${l.at}:${l.access}` : ''))
    .sort();
}

/** The plan mounts exactly `expected` (`path:access`, in any order) for the program. */
function assertProgram(p: SandboxPlan, expected: string[]): void {
  assert.deepEqual(programAt(p), [...expected].sort());
}

/** A package with a dependency of its own and a hoisted one, under the node_modules folder `nm`. */
function pkgTree(nm: string): Record<string, Entry> {
  return {
    [`${nm}/${ACP}/package.json`]: 'file',
    [`${nm}/${ACP}/dist/index.js`]: NODE_SCRIPT,
    [`${nm}/${ACP}/node_modules/zod/package.json`]: 'file',
    [`${nm}/@agentclientprotocol/sdk/package.json`]: 'file',
  };
}

describe('local agents: sandbox program mounts over install layouts', () => {
  it('npm prefix in the home, on PATH: prefix/bin and prefix/lib (the whole global node_modules)', () => {
    const p = plan(
      '/home/u/.npm-global/bin/claude-agent-acp',
      {
        '/home/u/.npm-global/bin/claude-agent-acp': { link: `../lib/node_modules/${ACP}/dist/index.js` },
        ...pkgTree('/home/u/.npm-global/lib/node_modules'),
      },
      { env: { HOME, PATH: '/home/u/.npm-global/bin:/usr/bin' } },
    );
    assertProgram(p, ['/home/u/.npm-global/bin:ro', '/home/u/.npm-global/lib:ro']);
  });

  it('npm prefix in the home, command set by path (not on PATH): its bin and the outermost node_modules', () => {
    const p = plan('/home/u/.npm-global/bin/claude-agent-acp', {
      '/home/u/.npm-global/bin/claude-agent-acp': { link: `../lib/node_modules/${ACP}/dist/index.js` },
      ...pkgTree('/home/u/.npm-global/lib/node_modules'),
    });
    assertProgram(p, ['/home/u/.npm-global/bin:ro', '/home/u/.npm-global/lib/node_modules:ro']);
  });

  it('nvm: the node a script names, linked from ~/.local/bin into nvm, is mounted where it really is', () => {
    const nvm = '/home/u/.nvm/versions/node/v20.11.0';
    const p = plan(
      `${nvm}/bin/claude-agent-acp`,
      {
        [`${nvm}/bin/claude-agent-acp`]: { link: `../lib/node_modules/${ACP}/dist/index.js` },
        [`${nvm}/bin/node`]: 'file',
        ...pkgTree(`${nvm}/lib/node_modules`),
        '/home/u/.local/bin/node': { link: `${nvm}/bin/node` },
      },
      { env: { HOME, PATH: '/home/u/.local/bin:/usr/bin' } },
    );
    assertProgram(p, ['/home/u/.local/bin:ro', `${nvm}/bin:ro`, `${nvm}/lib/node_modules:ro`]);
  });

  it('an absolute shebang into nvm mounts that node even when nvm is not on PATH', () => {
    const nvm = '/home/u/.nvm/versions/node/v22.1.0';
    const p = plan('/tmp/t/agent.mjs', {
      '/tmp/t/agent.mjs': { text: `#!${nvm}/bin/node --no-warnings\n` },
      [`${nvm}/bin/node`]: 'file',
    });
    assertProgram(p, ['/tmp/t:ro', `${nvm}/bin:ro`]);
  });

  it("bun global: ~/.bun/bin, bun's global node_modules, a link into bun's cache, and bun for `env bun`", () => {
    const cache = '/home/u/.bun/install/cache/@agentclientprotocol/sdk@0.5.0@@@1';
    const p = plan('/home/u/.bun/bin/claude-agent-acp', {
      '/home/u/.bun/bin/claude-agent-acp': { link: `../install/global/node_modules/${ACP}/dist/index.js` },
      '/home/u/.bun/bin/bun': 'file',
      [`/home/u/.bun/install/global/node_modules/${ACP}/dist/index.js`]: { text: '#!/usr/bin/env bun\n' },
      [`/home/u/.bun/install/global/node_modules/${ACP}/package.json`]: 'file',
      '/home/u/.bun/install/global/node_modules/@agentclientprotocol/sdk': { link: cache },
      [`${cache}/package.json`]: 'file',
      '/home/u/.bun/install/cache/other@1.0.0@@@1/package.json': 'file',
    });
    assertProgram(p, [`${cache}:ro`, '/home/u/.bun/bin:ro', '/home/u/.bun/install/global/node_modules:ro']);
  });

  it('npx cache: only that run’s node_modules, nothing else of ~/.npm', () => {
    const nm = '/home/u/.npm/_npx/5f2a9c/node_modules';
    const p = plan(`${nm}/.bin/claude-agent-acp`, {
      [`${nm}/.bin/claude-agent-acp`]: { link: `../${ACP}/dist/index.js` },
      ...pkgTree(nm),
      '/home/u/.npm/_cacache/index-v5/x': 'file',
    });
    assertProgram(p, [`${nm}:ro`]);
  });

  it("pnpm with store links: each linked package's node_modules in the store, followed link by link", () => {
    const store = '/home/u/.local/share/pnpm/store/v10/links';
    const acp = `${store}/@zed-industries/claude-agent-acp/0.23.1/aa11/node_modules`;
    const zod = `${store}/zod/3.25.76/bb22/node_modules`;
    const proj = '/tmp/proj/node_modules';
    const p = plan(`${proj}/.bin/claude-agent-acp`, {
      // pnpm's .bin entries are shell scripts that run node on the package's file.
      [`${proj}/.bin/claude-agent-acp`]: { text: '#!/bin/sh\nexec node "$basedir/../x/dist/index.js" "$@"\n' },
      [`${proj}/${ACP}`]: { link: `${acp}/${ACP}` },
      [`${acp}/${ACP}/dist/index.js`]: NODE_SCRIPT,
      [`${acp}/zod`]: { link: `../../../../../zod/3.25.76/bb22/node_modules/zod` },
      [`${zod}/zod/package.json`]: 'file',
      [`${store}/unrelated/1.0.0/cc33/node_modules/unrelated/package.json`]: 'file',
    });
    assertProgram(p, [`${acp}:ro`, `${zod}:ro`, `${proj}:ro`]);
  });

  it('pnpm without store links (.pnpm inside node_modules): the outermost node_modules holds everything', () => {
    const proj = '/tmp/proj/node_modules';
    const pkg = `${proj}/.pnpm/@zed-industries+claude-agent-acp@0.23.1/node_modules/${ACP}`;
    const p = plan(`${proj}/.bin/claude-agent-acp`, {
      [`${proj}/.bin/claude-agent-acp`]: { text: '#!/bin/sh\n' },
      [`${proj}/${ACP}`]: { link: `.pnpm/@zed-industries+claude-agent-acp@0.23.1/node_modules/${ACP}` },
      [`${pkg}/dist/index.js`]: NODE_SCRIPT,
    });
    assertProgram(p, [`${proj}:ro`]);
  });

  it('volta: a shim in ~/.volta/bin gets the whole Volta home (its node and packages live under tools/)', () => {
    const p = plan(
      '/home/u/.volta/bin/claude-agent-acp',
      {
        '/home/u/.volta/bin/claude-agent-acp': { link: 'volta-shim' },
        '/home/u/.volta/bin/volta-shim': 'file',
        '/home/u/.volta/bin/node': { link: 'volta-shim' },
        [`/home/u/.volta/tools/image/packages/${ACP}/lib/node_modules/${ACP}/dist/index.js`]: NODE_SCRIPT,
        '/home/u/.volta/tools/image/node/20.11.0/bin/node': 'file',
      },
      { env: { HOME, PATH: '/home/u/.volta/bin:/usr/bin' } },
    );
    assertProgram(p, ['/home/u/.volta:ro']);
  });

  it('yarn global: ~/.yarn/bin and the global node_modules under ~/.config/yarn, not the rest of ~/.config', () => {
    const nm = '/home/u/.config/yarn/global/node_modules';
    const p = plan('/home/u/.yarn/bin/claude-agent-acp', {
      '/home/u/.yarn/bin/claude-agent-acp': { link: `../../.config/yarn/global/node_modules/${ACP}/dist/index.js` },
      ...pkgTree(nm),
      '/home/u/.config/other/secret.json': 'file',
    });
    assertProgram(p, ['/home/u/.yarn/bin:ro', `${nm}:ro`]);
  });

  it("a project's own node_modules in a home: that node_modules, not the project's other files", () => {
    const nm = '/home/u/tools/acp/node_modules';
    const p = plan(`${nm}/.bin/claude-agent-acp`, {
      [`${nm}/.bin/claude-agent-acp`]: { link: `../${ACP}/dist/index.js` },
      ...pkgTree(nm),
      '/home/u/tools/acp/src/private.ts': 'file',
    });
    assertProgram(p, [`${nm}:ro`]);
  });

  it("a project's own node_modules in /tmp (a fresh clone's test/runtime): the outermost node_modules", () => {
    const nm = '/tmp/clone/test/runtime/acp-agents/node_modules';
    const p = plan(
      `${nm}/.bin/claude-agent-acp`,
      {
        [`${nm}/.bin/claude-agent-acp`]: { link: `../${ACP}/dist/index.js` },
        ...pkgTree(nm),
        [`${nm}/${ACP}/node_modules/@anthropic-ai/claude-agent-sdk/node_modules/x/package.json`]: 'file',
        '/tmp/clone/node24/bin/node': 'file',
      },
      { env: { HOME, PATH: `${nm}/.bin:/tmp/clone/node24/bin:/usr/bin` } },
    );
    assertProgram(p, [`${nm}:ro`, '/tmp/clone/node24/bin:ro']);
  });

  it('a checkout outside the homes whose node_modules links into /tmp: only the target is mounted, not the link', () => {
    const nm = '/tmp/store/acp-agents/node_modules';
    const p = plan('/work/repo/test/runtime/acp-agents/node_modules/.bin/claude-agent-acp', {
      '/work/repo/test/runtime/acp-agents/node_modules': { link: nm },
      [`${nm}/.bin/claude-agent-acp`]: { link: `../${ACP}/dist/index.js` },
      ...pkgTree(nm),
    });
    assertProgram(p, [`${nm}:ro`]);
  });

  it('a link that leads out of the tree to a folder that is visible anyway (/opt) adds nothing', () => {
    const nm = '/tmp/proj/node_modules';
    const p = plan(`${nm}/.bin/agent`, {
      [`${nm}/.bin/agent`]: { link: '../agent/cli.js' },
      [`${nm}/agent/cli.js`]: NODE_SCRIPT,
      [`${nm}/dep`]: { link: '/opt/shared/dep' },
      '/opt/shared/dep/package.json': 'file',
    });
    assertProgram(p, [`${nm}:ro`]);
  });
});

describe('local agents: sandbox program mounts, bounds and guards', () => {
  it('never mounts a home itself for a program that sits at its top (the home stays empty)', () => {
    const p = plan(
      '/home/u/agent.js',
      { '/home/u/agent.js': NODE_SCRIPT },
      { env: { HOME, PATH: '/home/u:/usr/bin' } },
    );
    assertProgram(p, []);
  });

  it('mounts nothing read-only over the workspace when the agent runs from the workspace', () => {
    const nm = `${WS}/node_modules`;
    const p = plan(
      `${nm}/.bin/agent`,
      {
        [`${nm}/.bin/agent`]: { link: '../agent/cli.js' },
        [`${nm}/agent/cli.js`]: NODE_SCRIPT,
      },
      { env: { HOME, PATH: `${nm}/.bin:/usr/bin` } },
    );
    assertProgram(p, []);
  });

  it('a link loop in the command ends (the folder is still mounted)', () => {
    const p = plan('/tmp/t/a', { '/tmp/t/a': { link: 'b' }, '/tmp/t/b': { link: 'a' } });
    assertProgram(p, ['/tmp/t:ro']);
  });

  it(`follows at most ${MAX_LINKED_TREES} linked trees and names the first one it skipped`, () => {
    const nm = '/tmp/proj/node_modules';
    const entries: Record<string, Entry> = {
      [`${nm}/.bin/agent`]: { link: '../agent/cli.js' },
      [`${nm}/agent/cli.js`]: NODE_SCRIPT,
    };
    for (let i = 0; i <= MAX_LINKED_TREES; i++) {
      const at = `/home/u/.store/p${String(i).padStart(3, '0')}/node_modules`;
      entries[`${nm}/p${String(i).padStart(3, '0')}`] = { link: `${at}/p` };
      entries[`${at}/p/package.json`] = 'file';
    }
    const p = plan(`${nm}/.bin/agent`, entries);
    assert.equal(programAt(p).length, MAX_LINKED_TREES + 1, 'the project node_modules and the first linked trees');
    assert.deepEqual(
      p.skipped.filter((s) => s.reason === 'limit'),
      [{ path: `/home/u/.store/p${String(MAX_LINKED_TREES).padStart(3, '0')}/node_modules/p`, reason: 'limit' }],
    );
  });

  it('reads a script’s interpreter from its first line', () => {
    assert.equal(shebangProgram('#!/usr/bin/env node'), 'node');
    assert.equal(shebangProgram('#!/usr/bin/env -S NODE_OPTIONS=--x bun run'), 'bun');
    assert.equal(shebangProgram('#! /opt/node/bin/node --no-warnings'), '/opt/node/bin/node');
    assert.equal(shebangProgram('\u007fELF'), undefined);
    assert.equal(shebangProgram(undefined), undefined);
    assert.equal(outermostNodeModules('/a/node_modules/b/node_modules/c.js'), '/a/node_modules');
    assert.equal(outermostNodeModules('/a/b/c.js'), undefined);
  });
});

describe('local agents: the sandbox mounts the script an interpreter command runs', () => {
  it('node <script in the temp folder>: the script’s package tree is mounted read-only (the soak agent’s case)', () => {
    const script = '/tmp/clone/test/soak/scriptedAgent.mjs';
    const p = plan(
      '/usr/bin/node',
      { [script]: 'file', '/tmp/clone/node_modules/@agentclientprotocol/sdk/package.json': 'file' },
      { args: [script, '--seed', '1'], env: { HOME, PATH: '/usr/bin:/bin', TMPDIR: '/tmp' } },
    );
    assertProgram(p, ['/tmp/clone/node_modules:ro', '/tmp/clone/test/soak:ro']);
  });

  it('a relative script is read against the working folder; options before it are skipped; no script, no mount', () => {
    assert.equal(
      scriptArgument('/usr/bin/node', ['--enable-source-maps', 'agent.js'], '/home/u/a'),
      '/home/u/a/agent.js',
    );
    assert.equal(scriptArgument('/usr/bin/python3.12', ['/opt/a.py'], undefined), '/opt/a.py');
    assert.equal(scriptArgument('/usr/bin/claude-agent-acp', ['x.js'], '/w'), undefined, 'not an interpreter');
    assert.equal(scriptArgument('/usr/bin/node', ['--version'], '/w'), undefined);
    const inWorkspace = plan('/usr/bin/node', { [`${WS}/agent.js`]: 'file' }, { args: ['agent.js'] });
    assertProgram(inWorkspace, []);
  });
});
