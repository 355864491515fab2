import * as assert from 'node:assert/strict';
import { conversationLabel, conversationNaming } from '../../../src/domain/conversationLabel';

const words = { agentAndRuntime: (a: string, r: string) => `${a} (${r})`, unknown: 'a new conversation' };
const ID = '72300100-1d28-45a8-bb0c-e86785cab885';

describe('domain/conversationLabel: a conversation is named by its title, else its agent and runtime, never its id', () => {
  it('the title when there is one', () => {
    assert.equal(
      conversationLabel({ title: 'Fix the flaky test', agentName: 'Claude Code', runtime: 'claude' }, words),
      'Fix the flaky test',
    );
  });
  it("no title (missing, empty or blank): the agent and the runtime; the agent's name before its id", () => {
    for (const title of [undefined, '', '   ']) {
      assert.equal(
        conversationLabel({ title, agentName: 'Claude Code', agentId: 'claude', runtime: 'claude' }, words),
        'Claude Code (claude)',
      );
      assert.equal(conversationLabel({ title, agentId: 'coder', runtime: 'codex' }, words), 'coder (codex)');
    }
  });
  it('only one of agent and runtime: that one alone', () => {
    assert.equal(conversationLabel({ agentId: 'coder' }, words), 'coder');
    assert.equal(conversationLabel({ runtime: 'gemini', agentName: '' }, words), 'gemini');
    assert.deepEqual(conversationNaming({ runtime: 'gemini' }), { kind: 'agentOrRuntime', name: 'gemini' });
  });
  it('nothing known yet: the words for an unknown conversation, not the id', () => {
    const c = { server: 'https://f.example', id: ID, title: '' };
    assert.equal(conversationLabel(c, words), 'a new conversation');
    assert.deepEqual(conversationNaming(c), { kind: 'unknown' });
  });
  it('no case ever yields the id, whatever else is missing', () => {
    const parts = [undefined, '', 'x'];
    for (const title of parts) {
      for (const agentName of parts) {
        for (const agentId of parts) {
          for (const runtime of parts) {
            const label = conversationLabel({ id: ID, title, agentName, agentId, runtime } as never, words);
            assert.ok(!label.includes(ID), label);
            assert.notEqual(label, '');
          }
        }
      }
    }
  });
});
