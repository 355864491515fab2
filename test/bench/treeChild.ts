/**
 * The tree rows through the real provider, in a fresh process (so its code is cold, as in a new window): the
 * PendingTree of src/ui/tree/pendingTree.ts over a real Inbox with 10,000 requests in 1,000 conversations.
 * - cold: one render as VS Code asks for it (the root's children; every conversation's tree item and children;
 *   every request's tree item), timed once;
 * - after one change: a new request arrives in one conversation; timed are the inbox's `apply` (with the
 *   provider's and its model's listeners), the provider's debounced refresh (its own run, not the 50 ms it waits)
 *   and what VS Code asks after the change event: for the whole tree (`undefined`) a full render as above, for an
 *   element its tree item and, for a conversation, its children and their tree items again.
 * VS Code's own part (IPC of the items to the workbench, drawing) is not counted: the stand-in `vscode` module
 * (./standInVscode.ts) builds plain objects. Prints one JSON line.
 */
import { performance } from 'node:perf_hooks';
import { installStandInVscode } from './standInVscode';

installStandInVscode();
/* eslint-disable @typescript-eslint/no-require-imports -- loaded after the stand-in `vscode` is in place */
const { Inbox } = require('../../src/domain/inbox') as typeof import('../../src/domain/inbox');
const { PendingTree } = require('../../src/ui/tree/pendingTree') as typeof import('../../src/ui/tree/pendingTree');
const { filledInbox, NOW } = require('./tree') as typeof import('./tree');
/* eslint-enable @typescript-eslint/no-require-imports */
type Element = import('../../src/ui/tree/pendingTree').TreeElement;

const inbox = new Inbox({ now: () => NOW });
const tree = new PendingTree(
  inbox,
  () => ({ dispose() {} }),
  () => NOW,
);
filledInbox(inbox);

const labelOf = (l: unknown) => (typeof l === 'string' ? l : ((l as { label?: string })?.label ?? ''));

/** What VS Code asks for one element and below it; returns the rows drawn. */
function draw(element: Element | undefined, sink: { text: number }): number {
  let rows = 0;
  if (element) {
    const item = tree.getTreeItem(element);
    sink.text += labelOf(item.label).length + String(item.description ?? '').length;
    rows++;
    if (element.kind !== 'conversation') {
      return rows;
    }
  }
  for (const child of tree.getChildren(element)) {
    rows += draw(child, sink);
  }
  return rows;
}

/** One render of the given elements (undefined: the whole tree); returns its time and the rows drawn. */
function render(elements: readonly (Element | undefined)[]): { ms: number; rows: number } {
  const sink = { text: 0 };
  const t0 = performance.now();
  const rows = elements.reduce((n, e) => n + draw(e, sink), 0);
  const ms = performance.now() - t0;
  if (sink.text === 0) {
    throw new Error('nothing rendered');
  }
  return { ms, rows };
}

/** The provider's timers, each run timed (the debounced refresh). */
let timerMs = 0;
const realSetTimeout = globalThis.setTimeout;
globalThis.setTimeout = ((fn: () => void, ms?: number) =>
  realSetTimeout(() => {
    const t0 = performance.now();
    fn();
    timerMs += performance.now() - t0;
  }, ms)) as typeof setTimeout;

async function main(): Promise<void> {
  await new Promise((r) => realSetTimeout(r, 100)); // the refresh scheduled by the filling, before VS Code asks
  const cold = render([undefined]);
  const fired = new Promise<Element | Element[] | undefined>((resolve) => tree.onDidChangeTreeData(resolve));
  timerMs = 0;
  const t0 = performance.now();
  inbox.apply({
    type: 'requestOpened',
    source: 'live',
    request: {
      key: { server: 'https://f.example', conversationId: 'conv-500', requestId: 'one-more' },
      name: 'Bash',
      title: 'touch one-more.txt',
      kind: 'execute',
      textContent: [],
      diffs: [],
      locations: [],
      options: [{ optionId: 'allow', name: 'Allow', kind: 'allow_once' }],
      detached: false,
      askedAt: NOW,
    },
  });
  const applyMs = performance.now() - t0;
  const change = await fired;
  const after = render(change === undefined ? [undefined] : Array.isArray(change) ? change : [change]);
  const whole = change === undefined;
  tree.dispose();
  inbox.dispose();
  process.stdout.write(
    JSON.stringify({
      ms: cold.ms,
      rows: cold.rows,
      changeMs: applyMs + timerMs + after.ms,
      changeRows: after.rows,
      whole,
    }) + '\n',
  );
  process.exit(0);
}
void main();
