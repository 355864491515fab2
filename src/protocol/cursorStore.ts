/** The stream cursor's storage: the interface the VS Code side implements (test/memoryCursorStore.ts has an in-memory one). */

/** Where the last processed event id is kept between sessions (the VS Code side backs it with globalState). */
export interface CursorStore {
  get(scope: string): string | undefined | PromiseLike<string | undefined>;
  set(scope: string, cursor: string): void | PromiseLike<void>;
}
