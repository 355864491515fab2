/** A CursorStore in memory, for the tests and the bench (the product persists cursors in globalState). */
import type { CursorStore } from '../src/protocol/sseClient';

export class MemoryCursorStore implements CursorStore {
  readonly values = new Map<string, string>();
  get(scope: string): string | undefined {
    return this.values.get(scope);
  }
  set(scope: string, cursor: string): void {
    this.values.set(scope, cursor);
  }
}
