/**
 * The reach of a persistent option in the running extension, against the local server's scripted claude: in the
 * details document, from Claude Code's known behaviour in a Fountain sandbox, and from the option's own
 * `_meta.permission` when it carries one (its words inert: a bidi override shows as an escape).
 */
import * as assert from 'node:assert/strict';
import type { TestApi } from '../../src/extension';
import { getApi, harnessTestServer, openIn, waitFor } from './support';
import type { TestServer } from '../support/serverClient';
import { skipOrFail } from '../support/skipOrFail';

describe('the reach of "always" options', function () {
  let server: TestServer;
  let api: TestApi;

  before(async function () {
    const s = harnessTestServer();
    if (!s) {
      skipOrFail(this, 'the local test server is not running (run through npm run test:integration)');
    }
    server = s;
    api = await getApi();
  });

  it('details: claude\'s "Always Allow" says what it keeps in the sandbox; an option\'s own _meta wins, inert', async () => {
    const plain = await server.startConversation('claude', 'run: touch reach-plain.txt', { title: 'Reach plain' });
    const item = await waitFor('the claude request', () => openIn(api.items(), plain)[0]);
    await waitFor('the conversation runtime', () =>
      api.items().find((i) => i.id === item.id && i.conversation.runtime),
    );
    const lines = api.detailsText(item.id).split('\n');
    const at = lines.findIndex((l) => /^1\. Always Allow/.test(l));
    assert.ok(at >= 0, lines.join('\n'));
    assert.equal(
      lines[at + 1],
      "   Reach: a rule in the sandbox's .claude/settings.local.json, gone with it; not for writes outside the cwd",
    );
    assert.equal(lines.filter((l) => l.includes('Reach:')).length, 1, 'only the persistent option has a reach');

    const spec = {
      toolCall: { title: 'git push', kind: 'execute', rawInput: { command: 'git push' } },
      options: [
        {
          optionId: 'keep',
          name: 'Always Allow',
          kind: 'allow_always',
          _meta: {
            permission: {
              changes: [{ description: 'Add Bash(git push:*) to .claude/settings.json\u202e' }],
              lifetime: { scope: 'persistent' },
            },
          },
        },
        { optionId: 'allow', name: 'Allow', kind: 'allow_once' },
        { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
      ],
    };
    const meta = await server.startConversation('claude', `ask: ${JSON.stringify(spec)}`, { title: 'Reach meta' });
    const metaItem = await waitFor('the request with _meta', () => openIn(api.items(), meta)[0]);
    const text = api.detailsText(metaItem.id);
    assert.ok(
      text.includes(
        '   Reach: the agent says: Add Bash(git push:*) to .claude/settings.json⟨U+202E⟩; saved in the sandbox',
      ),
      text,
    );
    for (const id of [plain, meta]) {
      await server.control('POST', `/conversations/${id}/interrupt`);
    }
  });
});
