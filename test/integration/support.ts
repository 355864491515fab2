/** Shared helpers for the extension-host tests: reach the running extension through its test API. */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { InboxItem } from '../../src/domain/inbox';
import type { TestApi } from '../../src/extension';
import { TestServer, type ServerInfo } from '../support/serverClient';

export const EXTENSION_ID = 'fountain-approvals.fountain-approvals';

export async function getApi(): Promise<TestApi> {
  const ext = vscode.extensions.getExtension<TestApi | undefined>(EXTENSION_ID);
  assert.ok(ext, `extension ${EXTENSION_ID} is not loaded`);
  const api = await ext.activate();
  assert.ok(api, 'activate() returned no test API in test mode');
  return api;
}

/** The local server the harness started, if any (url, apiKey, controlUrl, ...). */
export function harnessServer(): ServerInfo | undefined {
  const raw = process.env.FOUNTAIN_TEST_SERVER;
  return raw ? (JSON.parse(raw) as ServerInfo) : undefined;
}

export { waitFor } from '../support/wait';

/** The extension's own log file (its LogOutputChannel), newest session first. */
export function extensionLogFile(): string | undefined {
  const runDir = process.env.FOUNTAIN_TEST_RUN_DIR;
  if (!runDir) {
    return undefined;
  }
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) {
        walk(p);
      } else if (e.name === 'Fountain Approvals.log') {
        found.push(p);
      }
    }
  };
  walk(path.join(runDir, 'user-data', 'logs'));
  return found.sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs)[0];
}

/** Items of one conversation that are still waiting. */
export function openIn(items: InboxItem[], conversationId: string): InboxItem[] {
  return items.filter((i) => i.key.conversationId === conversationId && i.pending);
}

/** The harness's local server as a client, or undefined (then the suite skips) when the harness started none. */
export function harnessTestServer(): TestServer | undefined {
  const info = harnessServer();
  return info && process.env.FOUNTAIN_TEST_PRESEEDED ? new TestServer(info) : undefined;
}

/** Whether any process of the group `pgid` is alive (local agents run in their own group). */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A JSON-RPC line of a local agent's wire, as far as the local-agent tests read it. */
export interface RpcMessage {
  readonly id?: unknown;
  readonly method?: string;
  readonly params?: { toolCall?: { toolCallId?: string }; options?: { optionId: string; kind: string }[] };
  readonly result?: { outcome?: { outcome: string; optionId?: string } };
}

/**
 * Ends what a local-agent suite started: the test environment override, every listed session (Stop Agent), any
 * agent group in `pids` still alive (SIGKILL to the group), and the scripted model.
 */
export async function stopLocalAgents(
  pids: readonly number[],
  model: { close(): Promise<void> } | undefined,
): Promise<void> {
  const api = await getApi();
  api.local.useSourceEnv(undefined);
  await Promise.all(api.local.sessions().map((s) => vscode.commands.executeCommand('fountain.local.stop', s.id)));
  for (const pid of pids) {
    if (groupAlive(pid)) {
      process.kill(-pid, 'SIGKILL');
    }
  }
  await model?.close();
}

/** The tree row (conversation + its request rows) of one conversation, found by a request of it. */
export function conversationRow(api: TestApi, requestLabelStart: string) {
  return api.tree().find((c) => c.children.some((r) => r.label.startsWith(requestLabelStart)));
}
