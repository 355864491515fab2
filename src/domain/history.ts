/**
 * The local approval history: one entry per answer the user gave from this extension. It is a record for the user
 * (and the input of policy recommendations), never a permission authority: nothing is ever answered from it.
 *
 * Storage is two rotating segments of JSON lines (current and previous), so the history is bounded at
 * 2 × `segmentSize` entries and a write is one appended line. The backend is injected: the platform layer writes
 * files in the extension's global storage (src/platform/historyStore.ts).
 */
import * as z from 'zod/mini';
import { Emitter, type Event } from './events';

/** What became of an answer: the server took it, someone (or something) else resolved it first, or it failed. */
export type HistoryOutcome = 'answered' | 'resolvedElsewhere' | 'failed';

export interface HistoryEntry {
  /** Epoch ms. */
  readonly at: number;
  readonly server: string;
  readonly conversationId: string;
  /** The conversation's title when known (untrusted; kept only with the labels, `fountain.history.keepLabels`). */
  readonly conversationTitle?: string;
  readonly agentId?: string;
  readonly agentName?: string;
  readonly runtime?: string;
  /** The ACP tool kind (untrusted text). */
  readonly kind?: string;
  /** The tool label (untrusted; may hold secrets, so only kept when `fountain.history.keepLabels` is on). */
  readonly label?: string;
  readonly optionId: string;
  /** The chosen option's ACP kind (allow_once, reject_always, …). */
  readonly optionKind?: string;
  readonly outcome: HistoryOutcome;
  /** The answer result's kind when it failed (network, auth, …). */
  readonly detail?: string;
  /** Reject with Reason…: the reason the user typed (sent as the next prompt only if the reject was taken). */
  readonly reason?: string;
}

const optStr = z.optional(z.string());
/** One stored line. Lines that do not parse (a crash mid-write, a hand edit) are skipped. */
export const HistoryEntrySchema = z.object({
  at: z.number(),
  server: z.string(),
  conversationId: z.string(),
  conversationTitle: optStr,
  agentId: optStr,
  agentName: optStr,
  runtime: optStr,
  kind: optStr,
  label: optStr,
  optionId: z.string(),
  optionKind: optStr,
  outcome: z.union([z.literal('answered'), z.literal('resolvedElsewhere'), z.literal('failed')]),
  detail: optStr,
  reason: optStr,
});

/** Where the two segments live. Every method may reject (I/O); the log reports and carries on. */
export interface HistoryBackend {
  /** Lines of the previous and current segments, oldest first within each. Missing segments are empty. */
  read(): Promise<{ previous: string[]; current: string[] }>;
  append(line: string): Promise<void>;
  /** Makes the current segment the previous one (dropping the old previous) and starts an empty current one. */
  rotate(): Promise<void>;
  clear(): Promise<void>;
}

export interface HistoryLogOptions {
  /** Entries per segment; the log keeps at most twice this. Default 500. */
  readonly segmentSize?: number;
  /** Called when the backend fails; the in-memory history stays correct for this session. */
  readonly onError?: (err: unknown) => void;
}

/** The schema a log's lines are checked with (a record that does not parse is not written; a line, not read). */
export interface LineSchema<T> {
  safeParse(v: unknown): { success: true; data: unknown } | { success: false };
  readonly _entry?: T;
}

/**
 * A bounded log of JSON lines in two rotating segments (see the file comment): the approval history, and the gate's
 * decisions made without you (./decidedLog.ts), kept the same way.
 */
export class SegmentLog<T> {
  private readonly _onDidChange = new Emitter<void>();
  readonly onDidChange: Event<void> = this._onDidChange.event;
  readonly segmentSize: number;
  private previous: T[] = [];
  private current: T[] = [];
  /** Writes run one after another, in call order. */
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly backend: HistoryBackend,
    private readonly schema: LineSchema<T>,
    private readonly opts: HistoryLogOptions = {},
  ) {
    this.segmentSize = Math.max(1, Math.floor(opts.segmentSize ?? 500));
  }

  /** Reads the stored segments (call once, before recording). */
  load(): Promise<void> {
    return this.enqueue(async () => {
      const { previous, current } = await this.backend.read();
      this.previous = parseLines(previous, this.schema).slice(-this.segmentSize);
      this.current = parseLines(current, this.schema).slice(-this.segmentSize);
      this._onDidChange.fire();
    });
  }

  /** Appends one entry, rotating first when the current segment is full. */
  record(entry: T): Promise<void> {
    const parsed = this.schema.safeParse(entry);
    if (!parsed.success) {
      return Promise.resolve();
    }
    const clean = parsed.data as T;
    return this.enqueue(async () => {
      if (this.current.length >= this.segmentSize) {
        this.previous = this.current;
        this.current = [];
        await this.backend.rotate();
      }
      this.current.push(clean);
      this._onDidChange.fire();
      await this.backend.append(JSON.stringify(clean));
    });
  }

  clear(): Promise<void> {
    return this.enqueue(async () => {
      this.previous = [];
      this.current = [];
      this._onDidChange.fire();
      await this.backend.clear();
    });
  }

  /** Every entry, newest first. */
  entries(): T[] {
    return [...this.previous, ...this.current].reverse();
  }

  get size(): number {
    return this.previous.length + this.current.length;
  }

  dispose(): void {
    this._onDidChange.dispose();
  }

  private enqueue(step: () => Promise<void>): Promise<void> {
    const run = this.queue.then(step).catch((err: unknown) => this.opts.onError?.(err));
    this.queue = run;
    return run;
  }
}

/** The approval history: the user's answers (500 per segment by default). */
export class HistoryLog extends SegmentLog<HistoryEntry> {
  constructor(backend: HistoryBackend, opts: HistoryLogOptions = {}) {
    super(backend, HistoryEntrySchema, opts);
  }
}

function parseLines<T>(lines: readonly string[], schema: LineSchema<T>): T[] {
  const out: T[] = [];
  for (const line of lines) {
    if (!line.trim()) {
      continue;
    }
    try {
      const r = schema.safeParse(JSON.parse(line));
      if (r.success) {
        out.push(r.data as T);
      }
    } catch {
      // a torn or hand-edited line: skip it
    }
  }
  return out;
}
