import * as assert from 'node:assert/strict';
import { Transcript } from '../../../src/local';
import { normalizePermissionRequest } from '../../../src/local/requestShape';

const text = (t: string) => ({ type: 'text', text: t });

describe('local agents: transcript', () => {
  it('joins message chunks, shows tool calls with their latest status and content, and the plan', () => {
    const t = new Transcript();
    t.addUserPrompt('make a file\nplease');
    t.apply({ sessionUpdate: 'agent_message_chunk', content: text('Sure, ') });
    t.apply({ sessionUpdate: 'agent_message_chunk', content: text('on it.') });
    t.apply({ sessionUpdate: 'tool_call', toolCallId: 't1', title: 'Terminal', kind: 'execute', status: 'pending' });
    t.apply({ sessionUpdate: 'plan', entries: [{ content: 'write it', status: 'pending', priority: 'high' }] });
    t.apply({ sessionUpdate: 'tool_call_update', toolCallId: 't1', title: 'touch a.txt' });
    t.apply({
      sessionUpdate: 'tool_call_update',
      toolCallId: 't1',
      status: 'completed',
      content: [{ type: 'content', content: text('done') }],
    });
    t.apply({ sessionUpdate: 'plan', entries: [{ content: 'write it', status: 'completed', priority: 'high' }] });
    t.apply({ sessionUpdate: 'agent_message_chunk', content: text('All set.') });
    t.apply({ sessionUpdate: 'available_commands_update', availableCommands: [] });
    assert.equal(
      t.render(),
      [
        '> You\n    make a file\n    please',
        'Sure, on it.',
        '[tool completed] touch a.txt (execute)\n    done',
        'Plan:\n  [completed] write it',
        'All set.',
      ].join('\n\n') + '\n',
    );
    assert.equal(t.toolCall('t1')?.status, 'completed');
  });

  it('escapes control, bidi and invisible characters in everything the agent sent', () => {
    const t = new Transcript();
    t.apply({ sessionUpdate: 'agent_message_chunk', content: text('a\u001b[31mred\u202Egnp.exe') });
    t.apply({ sessionUpdate: 'tool_call', toolCallId: 'x', title: 'rm -rf ~\n#\u200B', status: 'pending' });
    const out = t.render();
    for (const ch of ['\u001b', '\u202E', '\u200B']) {
      assert.ok(!out.includes(ch), out);
    }
    assert.ok(out.includes('a\\x1b[31mred⟨U+202E⟩gnp.exe'));
    assert.ok(out.includes('rm -rf ~⏎#⟨U+200B⟩'), 'a tool title stays on one line');
  });

  it('renders a 1 MB message whole', () => {
    const t = new Transcript();
    const big = 'x'.repeat(1024 * 1024);
    t.apply({ sessionUpdate: 'agent_message_chunk', content: text(big) });
    assert.equal(t.render(), `${big}\n`);
  });

  it('ignores junk updates', () => {
    const t = new Transcript();
    for (const u of [null, 3, 'x', [], { sessionUpdate: 'nope' }, { sessionUpdate: 'tool_call' }]) {
      t.apply(u);
    }
    assert.equal(t.render(), '');
  });
});

describe('local agents: permission request shape', () => {
  it('merges the request over the announced tool call and keeps only answerable options', () => {
    const t = new Transcript();
    t.apply({ sessionUpdate: 'tool_call', toolCallId: 'c1', title: 'touch z', kind: 'execute', status: 'pending' });
    const req = normalizePermissionRequest(
      {
        sessionId: 's',
        toolCall: { toolCallId: 'c1', rawInput: { command: 'touch z' } },
        options: [
          { optionId: 'ok', name: 'OK', kind: 'allow_once' },
          { optionId: 'odd', kind: 'approved' },
          { name: 'no id' },
          { optionId: 'ok', name: 'duplicate', kind: 'reject_once' },
        ],
        _meta: { fountain: { timeout: 60 } },
      },
      (id) => t.toolCall(id),
    );
    assert.deepEqual(req, {
      sessionId: 's',
      toolCall: {
        toolCallId: 'c1',
        title: 'touch z',
        kind: 'execute',
        status: 'pending',
        rawInput: { command: 'touch z' },
      },
      options: [
        { optionId: 'ok', name: 'OK', kind: 'allow_once' },
        { optionId: 'odd', name: 'odd', kind: 'approved' },
      ],
      meta: { fountain: { timeout: 60 } },
    });
  });

  it('titles an untitled call by rawInput.command (codex-acp 1.x), and refuses a request with no tool call id', () => {
    const req = normalizePermissionRequest(
      { sessionId: 's', toolCall: { toolCallId: 'c', kind: 'execute', rawInput: { command: 'ls' } }, options: [] },
      () => undefined,
    );
    assert.equal(req?.toolCall.title, 'ls');
    assert.equal(
      normalizePermissionRequest({ sessionId: 's', toolCall: {}, options: [] }, () => undefined),
      undefined,
    );
    assert.equal(
      normalizePermissionRequest({ sessionId: 's', toolCall: { toolCallId: 'c' } }, () => undefined),
      undefined,
    );
  });
});
