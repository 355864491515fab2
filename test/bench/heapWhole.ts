/**
 * Child process (node --expose-gc): heap growth for 10,000 open requests held where the extension holds them. `whole`:
 * every permission frame through the protocol tracker (src/protocol/requestAssembler.ts) into a real Inbox (with the
 * danger mark's denylist check, src/ui/danger/danger.ts) and the Pending Approvals provider (src/ui/tree/pendingTree.ts, with the
 * stand-in `vscode` of ./standInVscode.ts), then one full render of the tree (the provider keeps one element per row).
 * `baseline`: the least a client keeps, each frame's parsed JSON-RPC message in an array. Code is loaded and warmed
 * up on one request before the first measurement, so only what the objects hold is counted. Prints one JSON line.
 */
import { installStandInVscode } from './standInVscode';
import { permissionFrame } from './gen';

installStandInVscode();
/* eslint-disable @typescript-eslint/no-require-imports -- loaded after the stand-in `vscode` is in place */
const { nullLogger } = require('../../src/protocol/env') as typeof import('../../src/protocol/env');
const { RequestAssembler } =
  require('../../src/protocol/requestAssembler') as typeof import('../../src/protocol/requestAssembler');
const { Inbox } = require('../../src/domain/inbox') as typeof import('../../src/domain/inbox');
const { dangerCheck } = require('../../src/ui/danger/danger') as typeof import('../../src/ui/danger/danger');
const { PendingTree } = require('../../src/ui/tree/pendingTree') as typeof import('../../src/ui/tree/pendingTree');
/* eslint-enable @typescript-eslint/no-require-imports */

const OPEN = 10_000;
const CONVERSATIONS = 200;
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) {
  throw new Error('run with --expose-gc');
}
const what = process.argv[2] === 'baseline' ? 'baseline' : 'whole';
// Frames are built one at a time and dropped, so only what is kept is measured.
const frame = (i: number) => {
  const text = permissionFrame(i, `c${i % CONVERSATIONS}`, `${i}.${i.toString(16).padStart(16, '0')}`);
  return { id: String(i), event: 'output', data: text.slice(text.indexOf('data: ') + 6, -2) };
};

function whole(n: number, offset: number) {
  const tracker = new RequestAssembler('https://f.example', nullLogger);
  const inbox = new Inbox({ danger: dangerCheck(() => undefined) });
  const tree = new PendingTree(inbox, () => ({ dispose() {} }));
  for (let c = 0; c < CONVERSATIONS; c++) {
    inbox.apply({
      type: 'conversation',
      conversation: { server: 'https://f.example', id: `c${c}`, title: `Conversation ${c}`, agentName: 'Claude Code' },
    });
  }
  for (let i = offset + 1; i <= offset + n; i++) {
    for (const e of tracker.handleSse(frame(i)).events) {
      inbox.apply(e);
    }
  }
  let rows = 0;
  for (const conv of tree.getChildren()) {
    tree.getTreeItem(conv);
    for (const req of tree.getChildren(conv)) {
      tree.getTreeItem(req);
      rows++;
    }
  }
  return { keep: [tracker, inbox, tree] as unknown[], open: inbox.openCount, rows };
}

function baseline(n: number, offset: number) {
  const keep: unknown[] = [];
  for (let i = offset + 1; i <= offset + n; i++) {
    const f = frame(i);
    keep.push(JSON.parse((JSON.parse(f.data) as { data: string }).data));
  }
  return { keep, open: keep.length, rows: 0 };
}

const run = what === 'whole' ? whole : baseline;
run(1, 1_000_000); // loads and warms the code (the denylist bundle included)
gc();
gc();
const before = process.memoryUsage().heapUsed;
const held = run(OPEN, 0);
gc();
gc();
const after = process.memoryUsage().heapUsed;
process.stdout.write(
  JSON.stringify({ what, open: held.open, rows: held.rows, kept: held.keep.length, growthBytes: after - before }) +
    '\n',
);
process.exit(0);
