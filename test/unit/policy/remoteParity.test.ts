// Remote parity (issue 27): the danger mark of a remote Fountain request reads the same normalised command as the
// local denylist. Every spelling of the denylist's table that the local gate refuses (in yolo, with everything
// allowed) is marked remotely, with the same reason; every look-alike the local denylist lets through is unmarked.
import * as assert from 'node:assert/strict';
import { decide, remoteDanger } from '../../../src/policy';
import { allowedThrough, denied } from './denylistSpellings';

const ROOT = '/work/repo';
function local(command: string) {
  return decide({
    request: { kind: 'execute', command, title: command, cwd: ROOT },
    mode: 'yolo',
    config: { roots: [ROOT], allow: ['*', 'execute:*'], policy: { default: 'auto_allow' } },
    session: { grants: [{ scope: 'tool', kind: 'execute' }] },
    home: '/home/u',
  });
}

describe('remote danger mark: parity with the local denylist over the whole spelling table', () => {
  it(`every one of the ${denied.length} spellings refused locally is marked remotely, for the same reason`, () => {
    for (const [command, why] of denied) {
      const d = local(command);
      assert.equal(`${d.verdict}/${d.rule}`, 'deny/denylist', `local: ${command}`);
      const mark = remoteDanger(command);
      assert.ok(mark, `remote: ${command} is not marked`);
      assert.match(mark.reason, why, command);
      // As a title too (a request whose command field is missing).
      assert.ok(remoteDanger(undefined, command), `remote title: ${command}`);
    }
  });

  it(`none of the ${allowedThrough.length} look-alikes is refused locally or marked remotely`, () => {
    for (const command of allowedThrough) {
      assert.notEqual(local(command).rule, 'denylist', command);
      assert.equal(remoteDanger(command), undefined, command);
    }
  });
});
