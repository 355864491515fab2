/**
 * The local agent of the bench's local-request row: the server tier's scripted claude-style ACP agent
 * (test/server/agents/scripted) as a process on stdio, started by the extension as a configured local agent. It
 * stamps each `session/request_permission` line just before writing it to stdout, and each answer when it arrives on
 * stdin (argv[2]: the stamp file, one JSON line `{kind: 'ask'|'answer', at, line}` each; argv[3]: the folder the scripted agent keeps its files in, so the workspace stays clean).
 * Bundled into one file by ./extensions.ts so it starts without tsx.
 */
import { randomUUID } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { Readable, Writable } from 'node:stream';
import { launchScripted } from '../../server/agents/scripted/agent';
import { STYLES } from '../../server/agents/scripted/styles';

const [stamps, workDir] = process.argv.slice(2);
const style = STYLES.find((s) => s.id === 'claude')!;

async function main(): Promise<void> {
  const agent = await launchScripted(style, { conversationId: randomUUID(), cwd: workDir, env: {} });
  void (Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>)
    .pipeThrough(tap('answer', (line) => /"outcome"/.test(line) && !line.includes('"method"')))
    .pipeTo(agent.input)
    .catch(() => undefined);
  await agent.output
    .pipeThrough(tap('ask', (line) => line.includes('"session/request_permission"')))
    .pipeTo(Writable.toWeb(process.stdout) as WritableStream<Uint8Array>);
}

/** Passes bytes through; stamps each whole line that `wanted` picks, before passing the chunk that completes it. */
function tap(kind: string, wanted: (line: string) => boolean): TransformStream<Uint8Array, Uint8Array> {
  const decoder = new TextDecoder();
  let buf = '';
  return new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, ctl) {
      const at = performance.timeOrigin + performance.now();
      buf += decoder.decode(chunk, { stream: true });
      let nl: number;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        if (wanted(line)) {
          appendFileSync(stamps, JSON.stringify({ kind, at, line }) + '\n');
        }
      }
      ctl.enqueue(chunk);
    },
  });
}

process.stdin.on('end', () => process.exit(0));
void main();
