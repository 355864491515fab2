// Path-scope grants (issue 27) on a real file system: a path-scope ask offers the folder of the resolved real path
// for the session and as a fountain.local.allowPaths entry; the grant covers that folder segment-wise and nothing
// past it, through links and `..`; protected files, the denylist, secrets and the sandbox's view still decide.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { LocalGate, applyGrantChoiceVia, grantChoices, type LocalPermissionRequest } from '../../../src/local';
import { PermissionBroker, type PendingAsk } from '../../../src/local/permissions';
import { folderGrantable } from '../../../src/local/pathChoices';
import { decide, type Grant } from '../../../src/policy';
import { file, shell } from '../../support/gateRequests';

describe('local gate: path-scope grants on a real file system', () => {
  let tmp: string;
  let ws: string;
  let data: string;
  let home: string;
  before(() => {
    tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gate-grants-')));
    ws = path.join(tmp, 'ws');
    data = path.join(tmp, 'a', 'b');
    home = path.join(tmp, 'home');
    for (const d of [ws, data, path.join(tmp, 'a', 'bc'), path.join(data, 'sub'), path.join(home, '.ssh')]) {
      fs.mkdirSync(d, { recursive: true });
    }
    fs.writeFileSync(path.join(data, 'x.txt'), 'x');
    fs.writeFileSync(path.join(data, 'sub', 'y.txt'), 'y');
    fs.writeFileSync(path.join(tmp, 'a', 'bc', 'z.txt'), 'z');
    fs.writeFileSync(path.join(home, 'notes.txt'), 'n');
    // A link in the workspace into the granted folder, and one in the granted folder out of it.
    fs.symlinkSync(data, path.join(ws, 'to-data'));
    fs.symlinkSync(path.join(tmp, 'a', 'bc'), path.join(data, 'out'));
  });
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  const gateOf = () => new LocalGate({ cwd: ws, roots: [ws], policy: { default: 'ask' }, trusted: true, home });

  it('a read outside the scope offers its real folder for the session and as an allowPaths entry', () => {
    const gate = gateOf();
    const choices = grantChoices(gate, file('read', path.join(data, 'x.txt')));
    const folder = choices.find((c) => c.id === 'folder');
    const always = choices.find((c) => c.id === 'alwaysFolder');
    assert.deepEqual(folder?.grant, { scope: 'path', dir: data, access: 'r' });
    assert.ok(folder?.label.includes(data), folder?.label);
    assert.deepEqual(always?.allowPath, { pattern: `${data}/...`, access: 'r' });
    // Reached through a link from the workspace: the folder is the link's target, the real path's folder.
    const via = grantChoices(gate, shell(`cat ${path.join(ws, 'to-data', 'x.txt')}`)).find((c) => c.id === 'folder');
    assert.deepEqual(via?.grant, { scope: 'path', dir: data, access: 'r' });
    // A write asks for write access: offered where a grant makes it run unasked (acceptEdits; ask still asks edits).
    assert.deepEqual(
      grantChoices(gate, file('edit', path.join(data, 'new.txt'))).map((c) => c.id),
      [],
    );
    gate.setMode('acceptEdits');
    const w = grantChoices(gate, file('edit', path.join(data, 'new.txt')));
    assert.deepEqual(w.find((c) => c.id === 'folder')?.grant, { scope: 'path', dir: data, access: 'w' });
    assert.deepEqual(w.find((c) => c.id === 'alwaysFolder')?.allowPath, { pattern: `${data}/...`, access: 'w' });
  });

  it('the session grant covers the folder and below, through a link into it, and nothing past it', async () => {
    const gate = gateOf();
    const asks: PendingAsk[] = [];
    const broker = new PermissionBroker({ agentName: 'A', policy: { default: 'ask' }, ask: (a) => asks.push(a), gate });
    const pending = broker.decide(file('read', path.join(data, 'x.txt')));
    const folder = grantChoices(gate, asks[0].request).find((c) => c.id === 'folder')!;
    const sent = await applyGrantChoiceVia(gate, asks[0], folder, (id) =>
      Promise.resolve(asks[0].answer(id) === 'sent'),
    );
    assert.deepEqual(sent, { sent: true, optionId: 'allow' });
    assert.deepEqual(await pending, { outcome: 'selected', optionId: 'allow' });
    const verdict = (r: LocalPermissionRequest) => gate.decide(r).decision;
    assert.equal(verdict(file('read', path.join(data, 'sub', 'y.txt'))).verdict, 'allow');
    assert.equal(verdict(shell(`cat ${data}/sub/y.txt`)).verdict, 'allow');
    // A link from outside (the workspace) into the granted folder: its real path is inside.
    assert.equal(verdict(shell(`cat ${path.join(ws, 'to-data', 'x.txt')}`)).verdict, 'allow');
    // `..` out of the folder, a sibling with the same prefix, and a link in the folder that leads out: asked.
    for (const p of [
      path.join(data, '..', 'bc', 'z.txt'),
      path.join(tmp, 'a', 'bc', 'z.txt'),
      path.join(data, 'out', 'z.txt'),
    ]) {
      const d = verdict(file('read', p));
      assert.deepEqual([d.verdict, d.rule], ['ask', 'path-scope'], p);
      assert.ok(d.reason.includes(path.join(tmp, 'a', 'bc')), d.reason);
    }
    // A read grant is not a write grant.
    assert.equal(verdict(file('edit', path.join(data, 'x.txt'))).rule, 'path-scope');
    // Protected files and the denylist still win, in every mode.
    const w: Grant = { scope: 'path', dir: data, access: 'rw' };
    gate.addGrant(w);
    gate.setMode('yolo');
    assert.equal(verdict(file('edit', path.join(data, '.git', 'config'))).rule, 'protected');
    gate.setMode('acceptEdits');
    assert.equal(verdict(file('edit', path.join(data, 'x.txt'))).verdict, 'allow');
    assert.equal(verdict(file('edit', path.join(data, '.bashrc'))).rule, 'protected');
    assert.equal(verdict(shell(`rm -rf ~`)).rule, 'denylist');
    gate.revokeGrant(w);
    gate.setMode('acceptEdits');
    assert.equal(verdict(file('edit', path.join(data, 'x.txt'))).rule, 'path-scope', 'revoked');
  });

  it('the gate itself reads a path grant segment-wise: /a/b does not cover /a/bc, and `..` is applied', () => {
    const input = (p: string, grants: Grant[]) => ({
      request: { kind: 'read', paths: [{ path: p, access: 'read' as const }] },
      mode: 'ask' as const,
      config: { roots: ['/w'] },
      session: { grants },
    });
    const g: Grant[] = [{ scope: 'path', dir: '/a/b', access: 'r' }];
    assert.equal(decide(input('/a/b/x', g)).verdict, 'allow');
    assert.equal(decide(input('/a/b', g)).verdict, 'allow');
    assert.equal(decide(input('/a/bc/x', g)).verdict, 'ask');
    assert.equal(decide(input('/a/b/../bc/x', g)).verdict, 'ask');
    assert.equal(decide(input('/a/x', g)).verdict, 'ask');
    // A malformed grant (relative, not normal, `/`) is no grant.
    for (const dir of ['a/b', '/a/b/', '/a/./b', '/']) {
      assert.equal(decide(input('/a/b/x', [{ scope: 'path', dir, access: 'r' }])).verdict, 'ask', dir);
    }
  });

  it('never offered for a home, a folder above it, a folder holding secrets, `/` or a top-level folder', () => {
    const gate = gateOf();
    const ids = (r: LocalPermissionRequest) => grantChoices(gate, r).map((c) => c.id);
    assert.deepEqual(ids(file('read', path.join(home, 'notes.txt'))), []);
    assert.deepEqual(ids(file('read', path.join(home, '.ssh', 'id_rsa'))), []);
    assert.deepEqual(ids(file('read', '/etc/hostname')), []);
    assert.equal(folderGrantable(tmp, home), false, 'above the home');
    assert.equal(folderGrantable(data, home), true);
    assert.equal(folderGrantable('/run/user/1000/x', home), false, 'a hidden system path');
  });

  it('in a sandbox that does not show the folder, no session grant (it would fail inside); the always says so', () => {
    const gate = gateOf();
    const hiddenHere = { layers: [{ type: 'empty' as const, at: tmp }], hiddenPatterns: [], home };
    const choices = grantChoices(gate, file('read', path.join(data, 'x.txt')), hiddenHere);
    assert.deepEqual(
      choices.map((c) => [c.id, c.untilRestart]),
      [['alwaysFolder', true]],
    );
    const visible = {
      layers: [{ type: 'mount' as const, src: '/', at: '/', access: 'ro' as const, why: 'system' as const }],
      hiddenPatterns: [],
      home,
    };
    assert.deepEqual(
      grantChoices(gate, file('read', path.join(data, 'x.txt')), visible).map((c) => c.id),
      ['folder', 'alwaysFolder'],
    );
    // A write where the sandbox is read-only: only the always, noted.
    gate.setMode('acceptEdits');
    assert.deepEqual(
      grantChoices(gate, file('edit', path.join(data, 'x.txt')), visible).map((c) => [c.id, c.untilRestart]),
      [['alwaysFolder', true]],
    );
  });
});
