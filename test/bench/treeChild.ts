/**
 * The tree row through the real provider, in a fresh process (so its code is cold, as in a new window): the
 * PendingTree of src/ui/tree/pendingTree.ts over a real Inbox with 10,000 requests in 1,000 conversations, then one render
 * as VS Code asks for it (the root's children; every conversation's tree item and children; every request's tree
 * item), timed once; a second render after a change is reported beside it. VS Code's own part (IPC of the items to the workbench, drawing) is not counted: the stand-in
 * `vscode` module (./standInVscode.ts) builds plain objects. Prints one JSON line.
 */
import { performance } from 'node:perf_hooks';
import { installStandInVscode } from './standInVscode';

installStandInVscode();
/* eslint-disable @typescript-eslint/no-require-imports -- loaded after the stand-in `vscode` is in place */
const { Inbox } = require('../../src/domain/inbox') as typeof import('../../src/domain/inbox');
const { PendingTree } = require('../../src/ui/tree/pendingTree') as typeof import('../../src/ui/tree/pendingTree');
const { filledInbox, NOW } = require('./tree') as typeof import('./tree');
/* eslint-enable @typescript-eslint/no-require-imports */

const inbox = new Inbox({ now: () => NOW });
const tree = new PendingTree(
  inbox,
  () => ({ dispose() {} }),
  () => NOW,
);
filledInbox(inbox);

const labelOf = (l: unknown) => (typeof l === 'string' ? l : ((l as { label?: string })?.label ?? ''));

/** One render; returns its time and the rows drawn. */
function render(): { ms: number; rows: number } {
  let rows = 0;
  let text = 0;
  const t0 = performance.now();
  for (const conv of tree.getChildren()) {
    text += labelOf(tree.getTreeItem(conv).label).length;
    rows++;
    for (const req of tree.getChildren(conv)) {
      const item = tree.getTreeItem(req);
      text += labelOf(item.label).length + String(item.description ?? '').length;
      rows++;
    }
  }
  const ms = performance.now() - t0;
  if (text === 0) {
    throw new Error('nothing rendered');
  }
  return { ms, rows };
}
const cold = render();
// A second render of the same tree after a change (the grouping redone), with the code now compiled: reported only.
inbox.apply({ type: 'conversation', conversation: { server: 'https://f.example', id: 'conv-0', title: 'Renamed' } });
const warm = render();
tree.dispose();
inbox.dispose();
process.stdout.write(JSON.stringify({ ms: cold.ms, rows: cold.rows, warmMs: warm.ms }) + '\n');
process.exit(0);
