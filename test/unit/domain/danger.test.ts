// The danger mark in the inbox: the real denylist check (src/policy/remoteDanger.ts) on each request's command, else
// its title, computed once per version of the request's details.
import * as assert from 'node:assert/strict';
import { dangerOf, type DangerCheck } from '../../../src/domain/danger';
import { Inbox } from '../../../src/domain/inbox';
import { remoteDanger } from '../../../src/policy';
import { dangerCheck, needsConfirmation } from '../../../src/ui/danger/danger';
import { FakeClock, key, opened, request } from './builders';

function setup(check: DangerCheck | null = remoteDanger) {
  const calls: [string | undefined, string | undefined][] = [];
  const counted: DangerCheck | undefined = check ? (c, t) => (calls.push([c, t]), check(c, t)) : undefined;
  const inbox = new Inbox({ now: new FakeClock().now, danger: counted });
  return { inbox, calls };
}

describe('the danger mark of inbox items', () => {
  it("marks a request whose rawInput.command is denylisted, with the denylist's reason, as high severity", () => {
    const { inbox } = setup();
    inbox.apply(opened({ kind: 'other', title: 'Run a shell command', rawInput: { command: 'rm -rf ~' } }));
    const item = inbox.get(key())!;
    assert.equal(item.danger?.reason, 'recursively removes your home directory');
    assert.equal(item.severity, 'high', 'dangerous whatever its kind says');
    assert.equal(item.isRisky, true, 'so a riskyOnly notification setting still shows it');
  });

  it('falls back to the title (no rawInput, as Gemini CLI sends it), and reads an argv array shell-quoted', () => {
    const { inbox } = setup();
    inbox.apply(opened({ title: 'rm -rf /', rawInput: undefined }));
    assert.match(inbox.get(key())!.danger?.reason ?? '', /root directory/);
    inbox.apply(opened({ key: key('r2'), title: 'Terminal', rawInput: { command: ['bash', '-lc', 'rm -rf $HOME'] } }));
    assert.match(inbox.get(key('r2'))!.danger?.reason ?? '', /home directory/);
  });

  it('marks nothing harmless: rm -rf build, git status, an edit; their severity stays that of their kind', () => {
    const { inbox } = setup();
    inbox.apply(opened({ title: 'rm -rf build', rawInput: { command: 'rm -rf build' } }));
    inbox.apply(opened({ key: key('r2'), kind: 'read', title: 'git status', rawInput: { command: 'git status' } }));
    inbox.apply(opened({ key: key('r3'), kind: 'edit', title: 'Edit src/rm.ts', rawInput: { file_path: '/x' } }));
    for (const id of ['r1', 'r2', 'r3']) {
      assert.equal(inbox.get(key(id))!.danger, undefined, id);
      assert.equal('danger' in inbox.get(key(id))!, false, `${id} has no danger field at all`);
    }
    assert.equal(inbox.get(key('r2'))!.severity, 'low');
  });

  it('is computed once per version of the details: state changes do not re-run it, a merge that adds the command does', () => {
    const { inbox, calls } = setup();
    // The first sighting (the block) has only a generic title; the raw line brings the command.
    inbox.apply(opened({ title: undefined, name: 'Terminal', rawInput: undefined }));
    assert.equal(inbox.get(key())!.danger, undefined);
    assert.equal(calls.length, 1);
    inbox.apply({ type: 'conversation', conversation: { server: key().server, id: 'c1', title: 'A conversation' } });
    const ticket = inbox.beginAnswer(key(), 'reject');
    assert.ok(ticket.ok);
    inbox.completeAnswer(ticket.ticket, { kind: 'network', message: 'down' });
    assert.equal(calls.length, 1, 'a conversation update and an answer attempt reuse the mark');
    inbox.apply(opened({ title: undefined, name: 'Terminal', rawInput: { command: 'sudo rm -rf /*' } }));
    assert.equal(calls.length, 2);
    assert.deepEqual(calls[1], ['sudo rm -rf /*', undefined]);
    assert.match(inbox.get(key())!.danger?.reason ?? '', /root directory/);
  });

  it('without a check (an inbox built without one) nothing is marked', () => {
    const { inbox } = setup(null);
    inbox.apply(opened({ rawInput: { command: 'rm -rf ~' } }));
    assert.equal(inbox.get(key())!.danger, undefined);
    assert.equal(dangerOf(request({ rawInput: { command: 'rm -rf ~' } }), undefined), undefined);
  });

  it('local requests are marked the same way (the gate denies them first; a mark is cheap)', () => {
    const { inbox } = setup();
    inbox.apply(opened({ key: key('r1', 's1', 'local:s1'), rawInput: { command: 'mkfs.ext4 /dev/sda1' } }));
    assert.match(inbox.get(key('r1', 's1', 'local:s1'))!.danger?.reason ?? '', /formats/);
  });
});

describe('which answers of a dangerous request ask first, and a check that cannot run', () => {
  it('every option but a reject asks: allow_once, allow_always and a kind we do not know', () => {
    const option = (kind: string) => ({ optionId: kind, name: kind, kind });
    assert.equal(needsConfirmation(option('allow_once')), true);
    assert.equal(needsConfirmation(option('allow_always')), true);
    assert.equal(needsConfirmation(option('proceed_somehow')), true);
    assert.equal(needsConfirmation(option('reject_once')), false);
    assert.equal(needsConfirmation(option('reject_always')), false);
  });

  it('when dist/danger.js cannot be loaded (here: no bundle beside the source), every request is marked, never none', () => {
    const errors: unknown[] = [];
    const inbox = new Inbox({ danger: dangerCheck((e) => errors.push(e)) });
    inbox.apply(opened({ rawInput: { command: 'ls' } }));
    assert.equal(inbox.get(key())!.danger?.reason, 'could not be checked against the denylist');
    assert.equal(errors.length, 1);
  });
});
