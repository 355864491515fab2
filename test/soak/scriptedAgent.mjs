#!/usr/bin/env node
// The soak's local agent: a scripted ACP agent (the product's own SDK, @agentclientprotocol/sdk, agent side) that the
// extension starts as a `fountain.localAgents` entry (any ACP command) through Start Local Agent. Once prompted, its
// turn never ends: it sends `session/request_permission` at `--rate` per second (several open at once), each an
// `execute` of `touch l<n>-<plan>.txt` in the folder (a write, which the local gate asks the user about), and after a
// random life of `--life-min`..`--life-max` seconds it crashes (exit 17) with its requests still open.
//
// Everything it sends and receives on the wire is logged as JSON lines to `<log-dir>/agent-<id>.jsonl`, read by
// test/soak/reconcile.ts: `request` (JSON-RPC id, tool call id, options, plan) when a request goes out, `response`
// for every JSON-RPC response that comes in (so a second answer to one request is counted, not swallowed by the SDK),
// `exit` (crash, or its input closed) just before it goes.
import * as acp from '@agentclientprotocol/sdk';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    'log-dir': { type: 'string' },
    rate: { type: 'string', default: '2.5' },
    seed: { type: 'string', default: '1' },
    'life-min': { type: 'string', default: '25' },
    'life-max': { type: 'string', default: '70' },
  },
  strict: true,
});
const logDir = values['log-dir'];
if (!logDir) {
  process.stderr.write('scriptedAgent: --log-dir is required\n');
  process.exit(2);
}
// In the sandbox its pid is that of a fresh pid namespace (the same for every start): each start names itself.
const me = randomBytes(4).readUInt32BE(0);
const logFile = path.join(logDir, `agent-${me.toString(16)}.jsonl`);
const log = (entry) => fs.appendFileSync(logFile, JSON.stringify({ t: Date.now(), agent: me, ...entry }) + '\n');

/** mulberry32, seeded from the seed and this start (each restart has its own draw). */
let a = (Number(values.seed) ^ me) >>> 0;
const r = () => {
  a = (a + 0x6d2b79f5) >>> 0;
  let t = a;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const PLANS = [
  ['allow', 45],
  ['reject', 30],
  ['dbl', 10],
  ['skip', 15],
];
const plan = () => {
  let x = r() * 100;
  for (const [p, w] of PLANS) {
    if ((x -= w) < 0) {
      return p;
    }
  }
  return 'allow';
};
const rate = Number(values.rate);
const lifeMs = 1000 * (Number(values['life-min']) + r() * (Number(values['life-max']) - Number(values['life-min'])));
const OPTIONS = [
  { optionId: 'soak-allow', name: 'Allow', kind: 'allow_once' },
  { optionId: 'soak-reject', name: 'Reject', kind: 'reject_once' },
];

/** Splits a byte stream into JSON-RPC lines and hands each parsed message to `see` (the bytes pass unchanged). */
function tap(see) {
  let buf = '';
  const dec = new TextDecoder();
  return new TransformStream({
    transform(chunk, ctl) {
      buf += dec.decode(chunk, { stream: true });
      let i;
      while ((i = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, i).trim();
        buf = buf.slice(i + 1);
        if (line) {
          try {
            see(JSON.parse(line));
          } catch {
            log({ kind: 'garbage', line: line.slice(0, 200) });
          }
        }
      }
      ctl.enqueue(chunk);
    },
  });
}

const input = Readable.toWeb(process.stdin).pipeThrough(
  tap((m) => {
    if (m && m.id !== undefined && m.method === undefined) {
      log({ kind: 'response', rpcId: m.id, ...(m.result !== undefined ? { result: m.result } : { error: m.error }) });
    }
  }),
);
const toStdout = Writable.toWeb(process.stdout);
const outTap = tap((m) => {
  if (m && m.method === 'session/request_permission') {
    const tc = m.params.toolCall;
    log({
      kind: 'request',
      rpcId: m.id,
      toolCallId: tc.toolCallId,
      plan: /\bl\d+-([a-z]+)/.exec(tc.title)?.[1],
      options: m.params.options.map((o) => o.optionId),
    });
  }
});
void outTap.readable.pipeTo(toStdout).catch(() => undefined);

let sessionId;
let n = 0;
const app = acp
  .agent({ name: 'fountain-soak-agent' })
  .onRequest(acp.methods.agent.initialize, () => ({
    protocolVersion: acp.PROTOCOL_VERSION,
    agentCapabilities: {},
    authMethods: [],
  }))
  .onRequest(acp.methods.agent.session.new, () => {
    sessionId = `soak-${me.toString(16)}`;
    return { sessionId };
  })
  .onNotification(acp.methods.agent.session.cancel, () => undefined)
  .onRequest(acp.methods.agent.session.prompt, async (ctx) => {
    log({ kind: 'prompt' });
    // The turn: requests at `rate` per second until the process goes.
    for (;;) {
      await new Promise((res) => setTimeout(res, -Math.log(1 - r()) * (1000 / rate)));
      const k = ++n;
      const title = `touch l${k}-${plan()}.txt`;
      const toolCallId = `soak-${me.toString(16)}-${k}`;
      void ctx.client
        .request(acp.methods.client.session.requestPermission, {
          sessionId,
          toolCall: { toolCallId, title, kind: 'execute', status: 'pending', rawInput: { command: title } },
          options: OPTIONS,
        })
        .catch(() => undefined);
    }
  });
const connection = app.connect(acp.ndJsonStream(outTap.writable, input));
void connection.closed.then(() => {
  log({ kind: 'exit', reason: 'input closed' });
  process.exit(0);
});
setTimeout(() => {
  log({ kind: 'exit', reason: 'crash', lifeMs: Math.round(lifeMs) });
  process.exit(17);
}, lifeMs);
for (const sig of ['SIGTERM', 'SIGINT', 'SIGHUP']) {
  process.on(sig, () => {
    log({ kind: 'exit', reason: sig });
    process.exit(0);
  });
}
log({ kind: 'start', lifeMs: Math.round(lifeMs), rate });
