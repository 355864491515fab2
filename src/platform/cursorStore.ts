import type * as vscode from 'vscode';
import type { CursorStore } from '../protocol/sseClient';

const PREFIX = 'fountain.cursor:';

/**
 * Keeps each server's (and user's) stream cursor in globalState, so a restart of VS Code resumes with
 * `Last-Event-ID` and misses nothing. Scopes hold no secret (the protocol layer hashes the key).
 */
export class GlobalStateCursorStore implements CursorStore {
  constructor(private readonly state: vscode.Memento) {}

  get(scope: string): string | undefined {
    return this.state.get<string>(PREFIX + scope);
  }

  set(scope: string, cursor: string): Thenable<void> {
    return this.state.update(PREFIX + scope, cursor);
  }
}
