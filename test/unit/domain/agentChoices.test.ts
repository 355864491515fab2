import * as assert from 'node:assert/strict';
import { agentChoices } from '../../../src/domain/agentChoices';

describe('agentChoices (the policy editor picker)', () => {
  it("takes the server's name, runtime and sandbox and adds when this window last saw the agent", () => {
    const out = agentChoices(
      [{ id: 'a1', name: 'Reviewer', runtime: 'claude', sandboxProvider: 'sprite', conversationCount: 4 }],
      [{ id: 'a1', name: 'old name', runtime: 'codex', lastActive: 500 }],
    );
    assert.deepEqual(out, [
      {
        id: 'a1',
        name: 'Reviewer',
        runtime: 'claude',
        sandboxProvider: 'sprite',
        conversationCount: 4,
        lastActive: 500,
        listed: true,
      },
    ]);
  });

  it('keeps agents the list does not name, marked unlisted, with the name the window knows', () => {
    const out = agentChoices([{ id: 'a1' }], [{ id: 'b2', name: 'Seen only', lastActive: 1 }]);
    assert.deepEqual(
      out.map((c) => [c.id, c.name, c.listed]),
      [
        ['b2', 'Seen only', false],
        ['a1', undefined, true],
      ],
    );
  });

  it('a blank server name does not hide the one the window knows', () => {
    const [c] = agentChoices([{ id: 'a1', name: '  ' }], [{ id: 'a1', name: 'Known' }]);
    assert.equal(c?.name, 'Known');
  });

  it('orders the most recently active first, then by name with unnamed agents last, then by id', () => {
    const out = agentChoices(
      [{ id: 'z' }, { id: 'y', name: 'Beta' }, { id: 'x', name: 'alpha' }, { id: 'w' }],
      [
        { id: 'old', name: 'Old', lastActive: 10 },
        { id: 'new', name: 'New', lastActive: 20 },
      ],
    );
    assert.deepEqual(
      out.map((c) => c.id),
      ['new', 'old', 'x', 'y', 'w', 'z'],
    );
  });

  it('without a list (it could not be read) offers what the window saw, each agent once', () => {
    const out = agentChoices(undefined, [
      { id: 'a', lastActive: 1 },
      { id: 'a', lastActive: 3, runtime: 'gemini' },
    ]);
    assert.deepEqual(out, [{ id: 'a', runtime: 'gemini', lastActive: 3, listed: false }]);
  });
});
