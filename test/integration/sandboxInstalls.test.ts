// Agents installed the ways users install them, started in the real extension host inside real bubblewrap
// (fountain.local.sandbox "auto"), each from a throwaway HOME under the temp folder (which the sandbox empties). The
// agent is a small ACP agent on the published SDK (@agentclientprotocol/sdk, with zod beside it): packed with
// `npm pack`, then really installed three ways:
// - an npm prefix in the home (`npm install -g --prefix ~/.npm-global`), started as `~/.npm-global/bin/…`;
// - a project's own node_modules under the temp folder (`npm install --prefix`), started from `node_modules/.bin`;
// - a bun-style layout built by hand from that install: `~/.bun/bin/…` linked into `~/.bun/install/global/
//   node_modules`, whose SDK is itself a link into a store folder (`~/.bun/install/cache/…`).
// Each must answer initialize and session/new through the sandbox (missing dependencies kill it at import). Then
// two starts that fail show one sentence naming the agent and the cause, no stack trace, and the log has the stderr.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { skipOrFail } from '../support/skipOrFail';
import { startLocalAgent } from './gestures';
import { extensionLogFile, getApi, stopLocalAgents, waitFor } from './support';

type Show = (message: string, ...rest: unknown[]) => Thenable<unknown>;

const PKG = 'fountain-fixture-acp-agent';
const BIN = 'fixture-acp';
const AGENT_JS = `#!/usr/bin/env node
import * as acp from '@agentclientprotocol/sdk';
import { Readable, Writable } from 'node:stream';
acp
  .agent({ name: 'fixture' })
  .onRequest(acp.methods.agent.initialize, () => ({ protocolVersion: acp.PROTOCOL_VERSION, agentCapabilities: {} }))
  .onRequest(acp.methods.agent.session.new, () => ({ sessionId: 'fixture-session' }))
  .connect(acp.ndJsonStream(Writable.toWeb(process.stdout), Readable.toWeb(process.stdin)));
`;

/** The versions this project itself pins (package.json), so npm finds them in its cache. */
function pinned(name: string): string {
  const pkg = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../../package.json'), 'utf8')) as {
    dependencies?: Record<string, string>;
    devDependencies?: Record<string, string>;
  };
  const v = pkg.dependencies?.[name] ?? pkg.devDependencies?.[name];
  assert.ok(v, `${name} is not in package.json`);
  return v;
}

describe('local agents in the sandbox, installed the ways users install them', function () {
  this.timeout(300_000);
  const ws = vscode.workspace.workspaceFolders![0].uri.fsPath;
  const config = vscode.workspace.getConfiguration();
  let root = '';
  let home = '';
  const commands: Record<string, string> = {};
  const pids: number[] = [];
  const shown: string[] = [];
  const window = vscode.window as unknown as Record<'showErrorMessage', Show>;
  const original = window.showErrorMessage;

  before(async function () {
    if (!fs.existsSync('/usr/bin/bwrap')) {
      skipOrFail(this, 'bubblewrap is not installed (apt-get install bubblewrap)');
    }
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'fountain-int-installs-'));
    home = path.join(root, 'home');
    fs.mkdirSync(path.join(root, 'tmp'), { recursive: true });
    fs.mkdirSync(home);
    const src = path.join(root, 'src');
    fs.mkdirSync(src);
    fs.writeFileSync(path.join(src, 'index.mjs'), AGENT_JS, { mode: 0o755 });
    fs.writeFileSync(
      path.join(src, 'package.json'),
      JSON.stringify({
        name: PKG,
        version: '1.0.0',
        type: 'module',
        bin: { [BIN]: 'index.mjs' },
        dependencies: { '@agentclientprotocol/sdk': pinned('@agentclientprotocol/sdk'), zod: pinned('zod') },
      }),
    );
    const npm = (args: string[], cwd: string) =>
      execFileSync('npm', [...args, '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'], {
        cwd,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, npm_config_update_notifier: 'false' },
      });
    const tarball = path.join(src, npm(['pack', '--silent'], src).trim().split('\n').at(-1)!);
    // 1. An npm prefix in the home.
    const prefix = path.join(home, '.npm-global');
    npm(['install', '-g', '--prefix', prefix, tarball], root);
    commands.npmPrefix = path.join(prefix, 'bin', BIN);
    // 2. A project's own node_modules under the temp folder.
    const project = path.join(root, 'tmp', 'project');
    fs.mkdirSync(project, { recursive: true });
    npm(['install', '--prefix', project, tarball], root);
    commands.projectLocal = path.join(project, 'node_modules', '.bin', BIN);
    // 3. bun-style: ~/.bun/bin/<bin> -> ../install/global/node_modules/<pkg>/index.mjs, the SDK a link into a store.
    const global = path.join(home, '.bun/install/global/node_modules');
    fs.mkdirSync(path.dirname(global), { recursive: true });
    fs.cpSync(path.join(project, 'node_modules'), global, { recursive: true, verbatimSymlinks: true });
    const store = path.join(home, '.bun/install/cache/sdk-store/node_modules');
    fs.mkdirSync(path.join(store, '@agentclientprotocol'), { recursive: true });
    fs.renameSync(path.join(global, '@agentclientprotocol/sdk'), path.join(store, '@agentclientprotocol/sdk'));
    fs.cpSync(path.join(global, 'zod'), path.join(store, 'zod'), { recursive: true });
    fs.symlinkSync(
      '../../../cache/sdk-store/node_modules/@agentclientprotocol/sdk',
      path.join(global, '@agentclientprotocol/sdk'),
    );
    fs.mkdirSync(path.join(home, '.bun/bin'), { recursive: true });
    commands.bun = path.join(home, '.bun/bin', BIN);
    fs.symlinkSync(`../install/global/node_modules/${PKG}/index.mjs`, commands.bun);
    // A broken install: the project's copy without its SDK.
    const broken = path.join(root, 'tmp', 'broken');
    fs.cpSync(project, broken, { recursive: true, verbatimSymlinks: true });
    fs.rmSync(path.join(broken, 'node_modules/@agentclientprotocol'), { recursive: true });
    commands.broken = path.join(broken, 'node_modules', '.bin', BIN);

    const api = await getApi();
    api.local.useSourceEnv({
      PATH: [path.dirname(process.execPath), '/usr/bin', '/bin'].join(path.delimiter),
      HOME: home,
      TMPDIR: path.join(root, 'tmp'),
      LANG: 'C.UTF-8',
    });
    await config.update(
      'fountain.localAgents',
      [
        ...Object.entries(commands).map(([name, command]) => ({ name: `Fixture ${name}`, command })),
        { name: 'Fixture nowhere', command: 'fountain-fixture-no-such-agent' },
      ],
      vscode.ConfigurationTarget.Global,
    );
    window.showErrorMessage = (message, ...rest) => {
      shown.push(message);
      return original.call(vscode.window, message, ...rest);
    };
  });
  after(async () => {
    window.showErrorMessage = original;
    await config.update('fountain.localAgents', undefined, vscode.ConfigurationTarget.Global);
    const api = await getApi();
    api.local.useSourceEnv(undefined);
    await stopLocalAgents(pids, undefined);
    if (root) {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  for (const layout of ['npmPrefix', 'projectLocal', 'bun']) {
    it(`${layout}: the sandboxed agent answers initialize and opens a session`, async () => {
      assert.ok(root.startsWith(os.tmpdir()), 'the installs are in the temp folder the sandbox empties');
      const api = await getApi();
      const id = await startLocalAgent({ agent: `config:Fixture ${layout}`, folder: ws });
      assert.ok(id, `Fixture ${layout} did not start: ${shown.at(-1) ?? ''}`);
      const pid = api.local.sessions().find((s) => s.id === id)!.pid!;
      pids.push(pid);
      const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      assert.match(cmdline[0], /(^|\/)bwrap$/, cmdline.join(' '));
      assert.ok(cmdline.includes('--tmpfs') && cmdline.includes(home), 'the HOME is emptied');
      await vscode.commands.executeCommand('fountain.local.stop', id);
    });
  }

  it('a start that fails names the agent and the cause in one sentence, and the log has its stderr', async () => {
    const from = shown.length;
    assert.equal(await startLocalAgent({ agent: 'config:Fixture broken', folder: ws }), undefined);
    const missing = await waitFor('the error', () => shown[from]);
    assert.equal(
      missing,
      'Fixture broken could not start: a module it needs is missing inside the sandbox (@agentclientprotocol/sdk). ' +
        'The logs have its output.',
    );
    assert.equal(await startLocalAgent({ agent: 'config:Fixture nowhere', folder: ws }), undefined);
    const nowhere = await waitFor('the second error', () => shown[from + 1]);
    assert.equal(
      nowhere,
      'Fixture nowhere could not start: the command fountain-fixture-no-such-agent was not found on its PATH ' +
        '(or is not executable).',
    );
    for (const m of [missing, nowhere]) {
      assert.ok(!/\n|\bat .*:\d+:\d+|node:internal/.test(m), `a stack trace in the toast: ${m}`);
    }
    const logFile = await waitFor('the extension log file', () => extensionLogFile(), 30_000);
    await waitFor(
      'the agent’s stderr in the log',
      () =>
        /\[Fixture broken\] .*Cannot find package '@agentclientprotocol\/sdk'/.test(fs.readFileSync(logFile, 'utf8')),
      30_000,
    );
  });
});
