// Which sandbox the machine has, as the product finds it: bubblewrap looked up on the agent's own PATH and probed for
// real (src/local/sandbox/detect.ts), and what `confine` makes of it for each fountain.local.sandbox value. No test
// hook: "not available" is a PATH without bwrap on it.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { confine, detectSandbox, probeFailure, SandboxRequiredError } from '../../../src/local/sandbox';
import { skipOrFail } from '../../support/skipOrFail';

const BWRAP = '/usr/bin/bwrap';

describe('local agents: sandbox detection on the agent’s PATH', function () {
  this.timeout(20_000);
  let root = '';
  let empty = '';
  before(function () {
    if (process.platform !== 'linux') {
      skipOrFail(this, 'bubblewrap detection needs Linux (this is ' + process.platform + ')');
    }
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'fountain-unit-detect-'));
    empty = path.join(root, 'bin');
    fs.mkdirSync(empty);
  });
  after(() => root && fs.rmSync(root, { recursive: true, force: true }));

  const target = () => ({ runtime: 'claude', command: '/bin/true', cwd: root, env: { PATH: empty, HOME: root } });

  it('a PATH without bwrap: not installed; `required` refuses with the reason and the install command', async () => {
    assert.deepEqual(await detectSandbox('linux', empty), { tool: undefined, reason: 'not_installed' });
    await assert.rejects(
      confine({ setting: 'required', roots: [root] }, target()),
      (e: unknown) =>
        e instanceof SandboxRequiredError &&
        e.message ===
          'fountain.local.sandbox is "required" and no sandbox is available ' +
            "(bubblewrap (bwrap) is not on the agent's PATH). Install it with: sudo apt-get install bubblewrap",
    );
  });

  it('`auto` without bwrap: unsandboxed with the install command, after the caller was told', async () => {
    const told: unknown[] = [];
    const c = await confine(
      { setting: 'auto', roots: [root], beforeUnsandboxed: (u) => (told.push(u), true) },
      target(),
    );
    assert.deepEqual(c, { sandboxed: false, reason: 'not_installed', install: 'sudo apt-get install bubblewrap' });
    assert.deepEqual(told, [c]);
  });

  it('a PATH with bwrap on it: the probe runs it and the start is confined by it', async function () {
    if (!fs.existsSync(BWRAP)) {
      skipOrFail(this, 'bubblewrap is not installed (apt-get install bubblewrap)');
    }
    const pathEnv = `${empty}:${path.dirname(BWRAP)}`;
    assert.deepEqual(await detectSandbox('linux', pathEnv), { tool: 'bwrap', command: BWRAP });
    const c = await confine(
      { setting: 'required', roots: [root] },
      { ...target(), env: { PATH: pathEnv, HOME: root } },
    );
    assert.equal(c.sandboxed && c.wrap.command, BWRAP);
  });

  it('prefers /usr/bin/bwrap over another bwrap on the PATH (the one AppArmor allows on Ubuntu 24.04 and later)', async function () {
    if (!fs.existsSync(BWRAP)) {
      skipOrFail(this, 'bubblewrap is not installed (apt-get install bubblewrap)');
    }
    const other = path.join(root, 'other');
    fs.mkdirSync(other);
    fs.copyFileSync(BWRAP, path.join(other, 'bwrap'));
    fs.chmodSync(path.join(other, 'bwrap'), 0o755);
    assert.deepEqual(await detectSandbox('linux', `${other}:/usr/bin`), { tool: 'bwrap', command: BWRAP });
  });
});

describe('local agents: a bubblewrap that is installed but blocked is told from one that is missing', () => {
  it('reads bubblewrap’s own words for the user-namespace restriction, and the AppArmor switch', () => {
    // What bubblewrap 0.8 and 0.9 print under Ubuntu 24.04's AppArmor restriction and with userns disabled.
    assert.equal(probeFailure('bwrap: setting up uid map: Permission denied', false), 'blocked');
    assert.equal(
      probeFailure(
        "bwrap: No permissions to creating new namespace, likely because the kernel does not allow non-privileged user namespaces. On e.g. debian this can be enabled with 'sysctl kernel.unprivileged_userns_clone=1'.",
        false,
      ),
      'blocked',
    );
    assert.equal(probeFailure('bwrap: Creating new namespace failed: Operation not permitted', false), 'blocked');
    assert.equal(probeFailure('bwrap: loopback: Failed RTM_NEWADDR: Operation not permitted', true), 'blocked');
    assert.equal(
      probeFailure("bwrap: Can't mount proc on /newroot/proc: Operation not permitted", false),
      'not_working',
    );
  });
});
