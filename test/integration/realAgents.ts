/**
 * The set-up the real-agent suites share: the scripted loopback model that turns `RUN64:<base64url command>` into
 * the agent's shell call and `WRITE64:<base64url path>` into its file-writing tool, and the environment the agents
 * are started from (a throwaway HOME under the test's temp root, the presets' commands on PATH, every agent pointed
 * at the model). Everything lives in that temp root; nothing reaches the network but the loopback model.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { TestApi } from '../../src/extension';
import type { InboxItem } from '../../src/domain/inbox';
import { presetBin, presetModelEnv, startFakeModel, type FakeModel } from '../support/realAgents';
import { sendLocalPrompt } from './gestures';
import { waitFor } from './support';

export const b64 = (s: string): string => Buffer.from(s, 'utf8').toString('base64url');
export const unb64 = (s: string): string => Buffer.from(s, 'base64url').toString('utf8');
/** One shell word. */
export const sh = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;
/** What the agents write for `WRITE64:`. */
export const WRITTEN = 'written by the agent\n';

/** The file-writing tool call of each agent, for `WRITE64:<path>` in the prompt. */
export function writeCall(
  tools: readonly string[],
  file: string,
): { name: string; input: Record<string, unknown> } | undefined {
  if (tools.includes('Write')) {
    return { name: 'Write', input: { file_path: file, content: WRITTEN } };
  }
  if (tools.includes('write_file')) {
    return { name: 'write_file', input: { file_path: file, content: WRITTEN } };
  }
  if (tools.includes('write')) {
    return { name: 'write', input: { filePath: file, content: WRITTEN } };
  }
  if (tools.includes('apply_patch')) {
    return {
      name: 'apply_patch',
      input: { raw: `*** Begin Patch\n*** Add File: ${file}\n+${WRITTEN}*** End Patch\n` },
    };
  }
  return undefined;
}

/** The scripted model for `RUN64:` and `WRITE64:` prompts; `finalText` is what it says after a tool ran. */
export function startScriptedModel(finalText?: string): Promise<FakeModel> {
  return startFakeModel({
    ...(finalText !== undefined ? { finalText } : {}),
    deriveCommand: (text) => {
      const m = /RUN64:([A-Za-z0-9_-]+)/.exec(text);
      return m ? { command: unb64(m[1]), description: 'Run it' } : undefined;
    },
    deriveToolCall: (tools, text) => {
      const m = /WRITE64:([A-Za-z0-9_-]+)/.exec(text);
      return m ? writeCall(tools, unb64(m[1])) : undefined;
    },
  });
}

/**
 * The environment every preset is started from (give it to `api.local.useSourceEnv`): `root/home` as HOME (its XDG
 * folders inside it), `root/tmp` as TMPDIR, `root/bin` with the presets' commands first on PATH, and the variables
 * and config files that point each agent at `baseUrl`.
 */
export function presetSourceEnv(root: string, baseUrl: string): Record<string, string> {
  const home = path.join(root, 'home');
  fs.mkdirSync(path.join(root, 'tmp'), { recursive: true });
  return {
    PATH: [presetBin(root), path.dirname(process.execPath), '/usr/bin', '/bin'].join(path.delimiter),
    HOME: home,
    TMPDIR: path.join(root, 'tmp'),
    LANG: 'C.UTF-8',
    XDG_CONFIG_HOME: path.join(home, '.config'),
    XDG_DATA_HOME: path.join(home, '.local', 'share'),
    XDG_CACHE_HOME: path.join(home, '.cache'),
    XDG_STATE_HOME: path.join(home, '.local', 'state'),
    ...presetModelEnv(home, baseUrl),
  };
}

/** The session's open requests in the inbox. */
export const openItems = (api: TestApi, id: string): InboxItem[] =>
  api.items().filter((i) => i.key.server === `local:${id}` && i.pending);

/** The session's tree group. */
export const sessionGroup = (api: TestApi, id: string) =>
  api.tree().find((g) => g.key === JSON.stringify([`local:${id}`, id]));

/** Waits until the session's turn has ended. */
export const turnEnded = (api: TestApi, id: string, ms = 90_000): Promise<unknown> =>
  waitFor('the turn to end', () => api.local.sessions().find((s) => s.id === id)?.status === 'idle', ms);

/**
 * Sends `prompt` and answers every request its turn brings with the option of `kind` (the user's answer, given by
 * the test: opencode asks a second time for a path outside the workspace), until the turn ends. Returns the first.
 */
export async function promptAndAnswer(
  api: TestApi,
  id: string,
  prompt: string,
  kind: 'allow_once' | 'reject_once',
): Promise<InboxItem> {
  const seen = new Set(openItems(api, id).map((i) => i.id));
  const status = () => api.local.sessions().find((s) => s.id === id)?.status;
  await sendLocalPrompt(id, prompt);
  const answer = async (item: InboxItem) => {
    seen.add(item.id);
    const option =
      item.request.options.find((o) => o.kind === kind) ??
      item.request.options.find((o) => o.kind.startsWith(kind.split('_')[0]));
    if (!option) {
      throw new Error(`no ${kind} option: ${JSON.stringify(item.request.options)}`);
    }
    const answered = await api.answer(item.id, option.optionId);
    if (answered?.kind !== 'answered') {
      throw new Error(`not answered: ${JSON.stringify(answered)}`);
    }
  };
  const first = await waitFor(
    'the request in the inbox',
    () => openItems(api, id).find((i) => !seen.has(i.id)),
    90_000,
  );
  await answer(first);
  await waitFor(
    'the turn to end',
    async () => {
      const next = openItems(api, id).find((i) => !seen.has(i.id));
      if (next) {
        await answer(next);
        return false;
      }
      return status() === 'idle';
    },
    90_000,
  );
  return first;
}
