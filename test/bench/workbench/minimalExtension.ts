/**
 * The baseline extension of the workbench rows: the least a client can do. On activation it opens the account stream
 * (FOUNTAIN_BASE_URL, FOUNTAIN_API_KEY), parses it with eventsource-parser, and for each `session/request_permission`
 * shows `Baseline: <title>` with Allow and Reject; a click POSTs to `/bench-baseline/answer/<id>` (the local server
 * answers 404: only the bytes on the wire are measured). No inbox, no policy, no tree, no windows hub. Bundled with
 * eventsource-parser into one file and installed beside the extension (./extensions.ts); activated by its command,
 * which the timing hook (./hostHook.ts) runs once the extension's activation is over.
 */
import { createParser } from 'eventsource-parser';
import * as vscode from 'vscode';

export function activate(context: vscode.ExtensionContext): void {
  context.subscriptions.push(vscode.commands.registerCommand('benchMinimal.start', () => undefined));
  const base = process.env.FOUNTAIN_BASE_URL;
  const key = process.env.FOUNTAIN_API_KEY;
  if (!base || !key) {
    return;
  }
  const ctl = new AbortController();
  context.subscriptions.push({ dispose: () => ctl.abort() });
  const headers = { authorization: `Bearer ${key}` };
  const show = (id: unknown, title: string) => {
    void vscode.window.showInformationMessage(`Baseline: ${title}`, 'Allow', 'Reject').then((choice) => {
      if (choice) {
        void fetch(`${base}/bench-baseline/answer/${encodeURIComponent(String(id))}`, {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          body: JSON.stringify({ choice }),
        }).catch(() => undefined);
      }
    });
  };
  const parser = createParser({
    onEvent: (m) => {
      if (!m.data.includes('session/request_permission')) {
        return;
      }
      try {
        const frame = JSON.parse(m.data) as { data?: unknown };
        const rpc = JSON.parse(String(frame.data)) as { id?: unknown; method?: string; params?: unknown };
        if (rpc.method === 'session/request_permission') {
          const p = rpc.params as { toolCall?: { title?: string } } | undefined;
          show(rpc.id, p?.toolCall?.title ?? '');
        }
      } catch {
        // not a frame of ours
      }
    },
  });
  void (async () => {
    const res = await fetch(`${base}/api/events/stream?streams=acp&bench=minimal`, { headers, signal: ctl.signal });
    const decoder = new TextDecoder();
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      parser.feed(decoder.decode(chunk, { stream: true }));
    }
  })().catch(() => undefined);
}

export function deactivate(): void {}
