/** Shared helpers for the extension-host tests: reach the running extension through its test API. */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { TestApi } from '../../src/extension';

export const EXTENSION_ID = 'fountain-approvals.fountain-approvals';

export async function getApi(): Promise<TestApi> {
  const ext = vscode.extensions.getExtension<TestApi | undefined>(EXTENSION_ID);
  assert.ok(ext, `extension ${EXTENSION_ID} is not loaded`);
  const api = await ext.activate();
  assert.ok(api, 'activate() returned no test API in test mode');
  return api;
}

/** The local server the harness started, if any (url, apiKey, controlUrl, ...). */
export function harnessServer(): { url: string; apiKey: string; [k: string]: unknown } | undefined {
  const raw = process.env.FOUNTAIN_TEST_SERVER;
  return raw ? (JSON.parse(raw) as { url: string; apiKey: string }) : undefined;
}

/** Polls until `check` returns a truthy value or the timeout passes. */
export async function waitFor<T>(
  what: string,
  check: () => T | undefined | Promise<T | undefined>,
  timeoutMs = 20_000,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v) {
      return v;
    }
    if (Date.now() > end) {
      throw new Error(`timed out waiting for ${what}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}
