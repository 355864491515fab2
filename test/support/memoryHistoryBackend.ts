import type { HistoryBackend } from '../../src/domain/history';

/**
 * A HistoryBackend in memory, for the history log's own tests: they read and set the segments directly and make a
 * write fail (the product writes files, src/platform/historyStore.ts, tested against a temp folder).
 */
export class MemoryHistoryBackend implements HistoryBackend {
  previous: string[] = [];
  current: string[] = [];
  read(): Promise<{ previous: string[]; current: string[] }> {
    return Promise.resolve({ previous: [...this.previous], current: [...this.current] });
  }
  append(line: string): Promise<void> {
    this.current.push(line);
    return Promise.resolve();
  }
  rotate(): Promise<void> {
    this.previous = this.current;
    this.current = [];
    return Promise.resolve();
  }
  clear(): Promise<void> {
    this.previous = [];
    this.current = [];
    return Promise.resolve();
  }
}
