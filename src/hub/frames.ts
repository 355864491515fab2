/**
 * The hub's wire: newline-delimited JSON over a local stream socket. One frame is one line of UTF-8 JSON. A line
 * longer than `maxFrameBytes` closes that connection (the peer is broken or hostile, and buffering it would not end);
 * a line that is not JSON, or not one of the frames below, is skipped and logged, and the connection stays up.
 */
/** JSON value the hub carries without looking inside (facts, snapshots, requests, replies, cursors). */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export type Frame =
  /** Follower → leader. */
  | { t: 'hello'; windowId: string; focused: boolean; focusedAt: number }
  | { t: 'focus'; focused: boolean; focusedAt: number }
  | { t: 'req'; id: number; body: Json }
  /** Leader → follower. */
  | { t: 'welcome'; leaderId: string; generation: number; snapshot: Json; cursor: Json }
  | { t: 'fact'; body: Json; cursor?: Json }
  | { t: 'res'; id: number; ok: boolean; body?: Json; error?: string };

const isNum = (v: unknown): v is number => typeof v === 'number';
const isStr = (v: unknown): v is string => typeof v === 'string';
const isBool = (v: unknown): v is boolean => typeof v === 'boolean';

/**
 * The frame a parsed line holds (only its known fields), or why it is none. Checked by hand rather than with zod:
 * dist/hub.js is loaded at activation, and a second copy of zod there cost more load time than this whole file.
 */
export function parseFrame(v: unknown): Frame | string {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) {
    return 'not an object';
  }
  const f = v as Record<string, Json | undefined>;
  switch (f.t) {
    case 'hello':
      return isStr(f.windowId) && isBool(f.focused) && isNum(f.focusedAt)
        ? { t: 'hello', windowId: f.windowId, focused: f.focused, focusedAt: f.focusedAt }
        : 'hello needs windowId, focused and focusedAt';
    case 'focus':
      return isBool(f.focused) && isNum(f.focusedAt)
        ? { t: 'focus', focused: f.focused, focusedAt: f.focusedAt }
        : 'focus needs focused and focusedAt';
    case 'req':
      return isNum(f.id) && f.body !== undefined ? { t: 'req', id: f.id, body: f.body } : 'req needs id and body';
    case 'welcome':
      return isStr(f.leaderId) && isNum(f.generation) && f.snapshot !== undefined && f.cursor !== undefined
        ? { t: 'welcome', leaderId: f.leaderId, generation: f.generation, snapshot: f.snapshot, cursor: f.cursor }
        : 'welcome needs leaderId, generation, snapshot and cursor';
    case 'fact':
      if (f.body === undefined) {
        return 'fact needs a body';
      }
      return f.cursor === undefined ? { t: 'fact', body: f.body } : { t: 'fact', body: f.body, cursor: f.cursor };
    case 'res': {
      if (!isNum(f.id) || !isBool(f.ok) || (f.error !== undefined && !isStr(f.error))) {
        return 'res needs id and ok (and a string error)';
      }
      const res: Frame = { t: 'res', id: f.id, ok: f.ok };
      if (f.body !== undefined) {
        res.body = f.body;
      }
      if (f.error !== undefined) {
        res.error = f.error;
      }
      return res;
    }
    default:
      return `unknown type ${JSON.stringify(f.t ?? null).slice(0, 40)}`;
  }
}

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
    const frame = parseFrame(value);
    if (typeof frame === 'string') {
      this._sink.malformed(`not a hub frame: ${frame}`);
      return;
    }
    this._sink.frame(frame);
  }
}
