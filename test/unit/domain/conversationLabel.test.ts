import * as assert from 'node:assert/strict';
import { conversationLabel, conversationNaming } from '../../../src/domain/conversationLabel';

const words = {
  agentAndRuntime: (a: string, r: string) => `${a} (${r})`,
  untitledWithRuntime: (r: string) => `Untitled conversation (${r})`,
  untitled: 'Untitled conversation',
};
const ID = '72300100-1d28-45a8-bb0c-e86785cab885';
const AGENT_ID = '0b9a6f0e-5d1c-4c7e-9d51-3f2a1c0e7b44';

describe('domain/conversationLabel: a conversation is named by its title, else its agent, never an id', () => {
  it('the title when there is one', () => {
    assert.equal(
      conversationLabel({ title: 'Fix the flaky test', agentName: 'Claude Code', runtime: 'claude' }, words),
      'Fix the flaky test',
    );
  });
  it("no title (missing, empty or blank): the agent's display name, with the runtime when known", () => {
    for (const title of [undefined, '', '   ']) {
      assert.equal(
        conversationLabel({ title, agentName: 'Claude Code', runtime: 'claude' }, words),
        'Claude Code (claude)',
      );
      assert.equal(conversationLabel({ title, agentName: 'Claude Code' }, words), 'Claude Code');
    }
    assert.deepEqual(conversationNaming({ agentName: 'Coder', runtime: 'codex' }), {
      kind: 'agent',
      agent: 'Coder',
      runtime: 'codex',
    });
  });
  it('no title and no name (Fountain sent only agent_id): "Untitled conversation" with the runtime, not the id', () => {
    const c = { id: ID, agentId: AGENT_ID, runtime: 'gemini', agentName: '' };
    assert.equal(conversationLabel(c, words), 'Untitled conversation (gemini)');
    assert.deepEqual(conversationNaming(c), { kind: 'untitled', runtime: 'gemini' });
  });
  it('nothing known yet: "Untitled conversation"', () => {
    const c = { server: 'https://f.example', id: ID, agentId: AGENT_ID, title: '' };
    assert.equal(conversationLabel(c, words), 'Untitled conversation');
    assert.deepEqual(conversationNaming(c), { kind: 'untitled' });
  });
  it('no case ever yields the conversation id or the agent id, whatever else is missing', () => {
    const parts = [undefined, '', ' ', 'x'];
    for (const title of parts) {
      for (const agentName of parts) {
        for (const runtime of parts) {
          const c = { id: ID, agentId: AGENT_ID, title, agentName, runtime };
          const label = conversationLabel(c, words);
          assert.ok(!label.includes(ID) && !label.includes(AGENT_ID), label);
          assert.notEqual(label.trim(), '');
        }
      }
    }
  });
});
