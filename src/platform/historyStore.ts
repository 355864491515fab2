/**
 * The approval history's files: `approval-history.jsonl` (current segment) and `approval-history.1.jsonl`
 * (previous segment) in the extension's global storage folder. Rotation is a rename, so a crash loses at most the
 * line being written. The gate's decisions made without you use the same backend with files of their own (src/ui/history/historyTree.ts). No vscode import: the folder is handed in, which keeps this testable in plain Node.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { HistoryBackend } from '../domain/history';

export const CURRENT_FILE = 'approval-history.jsonl';
export const PREVIOUS_FILE = 'approval-history.1.jsonl';

export class FileHistoryBackend implements HistoryBackend {
  constructor(
    private readonly dir: string,
    private readonly files: { readonly current: string; readonly previous: string } = {
      current: CURRENT_FILE,
      previous: PREVIOUS_FILE,
    },
  ) {}

  private get current(): string {
    return path.join(this.dir, this.files.current);
  }

  private get previous(): string {
    return path.join(this.dir, this.files.previous);
  }

  async read(): Promise<{ previous: string[]; current: string[] }> {
    return { previous: await readLines(this.previous), current: await readLines(this.current) };
  }

  async append(line: string): Promise<void> {
    await fs.mkdir(this.dir, { recursive: true });
    // One line per entry; a newline inside the JSON is impossible (JSON.stringify escapes it).
    await fs.appendFile(this.current, line + '\n', { encoding: 'utf8', mode: 0o600 });
  }

  async rotate(): Promise<void> {
    try {
      await fs.rename(this.current, this.previous);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') {
        throw err;
      }
      await fs.rm(this.previous, { force: true });
    }
  }

  async clear(): Promise<void> {
    await fs.rm(this.current, { force: true });
    await fs.rm(this.previous, { force: true });
  }
}

async function readLines(file: string): Promise<string[]> {
  try {
    return (await fs.readFile(file, 'utf8')).split('\n').filter((l) => l.trim() !== '');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
      return [];
    }
    throw err;
  }
}
