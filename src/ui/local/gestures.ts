/**
 * The user gestures that Start Local Agent, a mode change that allows more, and Send Prompt wait for: a QuickPick or
 * an InputBox the command itself shows. Command arguments (a keybinding's, a `command:` link's, another extension's)
 * may preselect an item or prefill the text, never skip the question: nothing happens until the user accepts it.
 *
 * The prompt on screen is recorded (kind, title, items, the active item, the value) so the extension-host tests can
 * see it and answer the real picker with the workbench's own commands (Enter:
 * workbench.action.acceptSelectedQuickOpenItem, Escape: workbench.action.closeQuickOpen): the same gesture, no bypass.
 */
import * as vscode from 'vscode';

export type GestureKind = 'start' | 'mode' | 'prompt';

/** What a gesture prompt shows while it is open. */
export interface ShownGesture {
  /** Counts every prompt shown (tests wait for a new one). */
  readonly seq: number;
  readonly kind: GestureKind;
  readonly title: string;
  readonly items: readonly string[];
  /** The active item's label (what Enter accepts), as the workbench last reported it. */
  readonly active: string | undefined;
  /** An InputBox's text. */
  readonly value?: string;
}

export interface GestureItem<T> extends vscode.QuickPickItem {
  readonly value: T;
}

class GestureLog {
  private seq = 0;
  private _shown: ShownGesture | undefined;

  get shown(): ShownGesture | undefined {
    return this._shown;
  }

  get count(): number {
    return this.seq;
  }

  open(kind: GestureKind, title: string, items: readonly string[], active?: string, value?: string): number {
    this._shown = { seq: ++this.seq, kind, title, items, active, ...(value !== undefined ? { value } : {}) };
    return this.seq;
  }

  update(seq: number, change: { active?: string; value?: string }): void {
    if (this._shown?.seq === seq) {
      this._shown = { ...this._shown, ...change };
    }
  }

  close(seq: number): void {
    if (this._shown?.seq === seq) {
      this._shown = undefined;
    }
  }
}

/** The prompts of this bundle (dist/localui.js has one copy; the test API reads it through LocalCommands). */
export const gestures = new GestureLog();

/**
 * A QuickPick of `items` with `active` (an item's value) preselected; resolves with the accepted item's value, or
 * undefined when it is dismissed.
 */
export function pickGesture<T>(
  kind: GestureKind,
  items: readonly (GestureItem<T> | vscode.QuickPickItem)[],
  opts: {
    readonly title?: string;
    readonly placeholder: string;
    readonly active?: T;
    readonly matchOnDetail?: boolean;
  },
): Promise<T | undefined> {
  return new Promise((resolve) => {
    const qp = vscode.window.createQuickPick<GestureItem<T> | vscode.QuickPickItem>();
    qp.title = opts.title;
    qp.placeholder = opts.placeholder;
    qp.matchOnDetail = opts.matchOnDetail ?? false;
    qp.items = items;
    const preselected = items.find((i) => 'value' in i && opts.active !== undefined && i.value === opts.active);
    if (preselected) {
      qp.activeItems = [preselected];
    }
    const labels = items.filter((i) => i.kind !== vscode.QuickPickItemKind.Separator).map((i) => i.label);
    const seq = gestures.open(kind, opts.title ?? opts.placeholder, labels, preselected?.label);
    let result: T | undefined;
    qp.onDidChangeActive((a) => gestures.update(seq, { active: a[0]?.label }));
    qp.onDidAccept(() => {
      const picked = qp.selectedItems[0] ?? qp.activeItems[0];
      if (picked && 'value' in picked) {
        result = picked.value;
        qp.hide();
      }
    });
    qp.onDidHide(() => {
      gestures.close(seq);
      qp.dispose();
      resolve(result);
    });
    qp.show();
  });
}
