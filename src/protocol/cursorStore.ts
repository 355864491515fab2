/** The stream cursor's storage: the interface the VS Code side implements, and an in-memory one. */

/** Where the last processed event id is kept between sessions (the VS Code side backs it with globalState). */
export interface CursorStore {
  get(scope: string): string | undefined | PromiseLike<string | undefined>;
  set(scope: string, cursor: string): void | PromiseLike<void>;
}

/** A CursorStore in memory (tests, and a fallback). */
export class MemoryCursorStore implements CursorStore {
  readonly values = new Map<string, string>();
  get(scope: string): string | undefined {
    return this.values.get(scope);
  }
  set(scope: string, cursor: string): void {
    this.values.set(scope, cursor);
  }
}
