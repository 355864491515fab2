/**
 * The hub's wire: newline-delimited JSON over a local stream socket. One frame is one line of UTF-8 JSON. A line
 * longer than `maxFrameBytes` closes that connection (the peer is broken or hostile, and buffering it would not end);
 * a line that is not JSON, or not one of the frames below, is skipped and logged, and the connection stays up.
 */
import * as z from 'zod/mini';

/** JSON value the hub carries without looking inside (facts, snapshots, requests, replies, cursors). */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Any value JSON.parse returned is JSON by construction; a field that must be present still has to be. */
const json = z.custom<Json>((v) => v !== undefined);

/** Follower → leader. */
const hello = z.object({ t: z.literal('hello'), windowId: z.string(), focused: z.boolean(), focusedAt: z.number() });
const focus = z.object({ t: z.literal('focus'), focused: z.boolean(), focusedAt: z.number() });
const req = z.object({ t: z.literal('req'), id: z.number(), body: json });
/** Leader → follower. */
const welcome = z.object({
  t: z.literal('welcome'),
  leaderId: z.string(),
  generation: z.number(),
  snapshot: json,
  cursor: json,
});
const fact = z.object({ t: z.literal('fact'), body: json, cursor: z.optional(json) });
const res = z.object({
  t: z.literal('res'),
  id: z.number(),
  ok: z.boolean(),
  body: z.optional(json),
  error: z.optional(z.string()),
});

export const frameSchema = z.discriminatedUnion('t', [hello, focus, req, welcome, fact, res]);
export type Frame = z.infer<typeof frameSchema>;

/** Default cap on one frame: a snapshot of a full inbox of 1 MB requests must still fit. */
export const DEFAULT_MAX_FRAME_BYTES = 16 * 1024 * 1024;

export function encodeFrame(frame: Frame): string {
  return JSON.stringify(frame) + '\n';
}

export interface FrameSink {
  frame(frame: Frame): void;
  /** A line that is not a frame; skipped. */
  malformed(reason: string): void;
  /** A line over the cap; the caller closes the connection. */
  oversize(bytes: number): void;
}

/**
 * Splits a byte stream into frames. Lines are split on the byte 0x0A (never inside a UTF-8 sequence), so a frame
 * may arrive in any number of chunks.
 */
export class FrameDecoder {
  private _parts: Buffer[] = [];
  private _pending = 0;
  private _dead = false;

  constructor(
    private readonly _max: number,
    private readonly _sink: FrameSink,
  ) {}

  push(chunk: Buffer): void {
    let start = 0;
    while (!this._dead) {
      const nl = chunk.indexOf(0x0a, start);
      const end = nl < 0 ? chunk.length : nl;
      if (this._pending + end - start > this._max) {
        this._dead = true;
        this._parts = [];
        this._sink.oversize(this._pending + end - start);
        return;
      }
      if (nl < 0) {
        if (end > start) {
          this._parts.push(chunk.subarray(start));
          this._pending += end - start;
        }
        return;
      }
      this._parts.push(chunk.subarray(start, nl));
      const line = Buffer.concat(this._parts).toString('utf8');
      this._parts = [];
      this._pending = 0;
      start = nl + 1;
      this._line(line);
    }
  }

  private _line(line: string): void {
    if (!line.trim()) {
      return;
    }
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      this._sink.malformed(`not JSON (${line.length} chars)`);
      return;
    }
    const parsed = frameSchema.safeParse(value);
    if (!parsed.success) {
      this._sink.malformed(`not a hub frame: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
      return;
    }
    this._sink.frame(parsed.data);
  }
}
