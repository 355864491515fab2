/**
 * Answers the real gesture prompt of a local command (src/ui/local/gestures.ts) the way the user does: it runs the
 * command, waits until its prompt (Start's confirmation, the mode pick, Send Prompt's input box) is on screen with the
 * expected item active, then presses Enter (workbench.action.acceptSelectedQuickOpenItem) or Escape
 * (workbench.action.closeQuickOpen) through the workbench's own commands.
 */
import * as vscode from 'vscode';
import type { ShownGesture } from '../../src/ui/local/gestures';
import { getApi, waitFor } from './support';

export interface GestureAnswer<T> {
  readonly result: T;
  /** The prompt as it was when answered. */
  readonly shown: ShownGesture;
}

/**
 * Runs `run` and answers its `kind` prompt with `key`. `active` (a label test) must hold for the active item before
 * Enter is pressed; `whileShown` runs while the prompt is open, before the answer.
 */
export async function answerGesture<T>(
  kind: ShownGesture['kind'],
  run: () => Thenable<T>,
  key: 'enter' | 'escape',
  active?: (label: string) => boolean,
  whileShown?: (shown: ShownGesture) => unknown,
): Promise<GestureAnswer<T>> {
  const api = await getApi();
  const before = api.local.gestureCount();
  let settled = false;
  const running = Promise.resolve(run()).finally(() => (settled = true));
  const shown = await waitFor(`the ${kind} prompt on screen`, () => {
    if (settled && api.local.gestureCount() === before) {
      throw new Error(`the command finished without showing its ${kind} prompt`);
    }
    const g = api.local.gesture();
    return g && g.seq > before && g.kind === kind && (!active || (g.active !== undefined && active(g.active)))
      ? g
      : undefined;
  });
  await whileShown?.(shown);
  const command = key === 'enter' ? 'workbench.action.acceptSelectedQuickOpenItem' : 'workbench.action.closeQuickOpen';
  // Pressed again while the prompt is still open: the workbench may still be drawing it when first pressed.
  await waitFor(`the ${kind} prompt answered with ${key}`, async () => {
    if (api.local.gesture()?.seq !== shown.seq) {
      return true;
    }
    await vscode.commands.executeCommand(command);
    return false;
  });
  return { result: await running, shown };
}

/** Start Local Agent with `args`, confirmed with Enter on the confirmation naming the agent. */
export async function startLocalAgent(args: { agent: string; folder: string }): Promise<string | undefined> {
  const started = await answerGesture(
    'start',
    () => vscode.commands.executeCommand<string | undefined>('fountain.local.start', args),
    'enter',
    (label) => label.startsWith('Start '),
  );
  return started.result;
}

/** Send Prompt with `text` prefilled in its input box, sent with Enter. */
export async function sendLocalPrompt(sessionId: string, text: string): Promise<void> {
  await answerGesture(
    'prompt',
    () => vscode.commands.executeCommand('fountain.local.sendPrompt', sessionId, text),
    'enter',
  );
}
