/**
 * Reads the extension-host hook's facts (./hostHook.ts) and the relay's stream times (./wire.ts): activation of the
 * extension and of the baseline extension in the same extension host, and the bytes of the extension's files
 * required by a given moment.
 */
import * as fs from 'node:fs';
import type { WireLog } from './wire';

interface Fact {
  pid: number;
  fact: 'load' | 'activateCalled' | 'activateReturned' | 'activateSettled' | 'windowState';
  focused?: boolean;
  ext: 'fountain' | 'minimal';
  file?: string;
  bytes?: number;
  t0?: number;
  t1?: number;
  t?: number;
}

export interface ExtActivation {
  /** require() of the main file: its loading began → ended */
  readonly load: number;
  /** `activate` called → returned (its synchronous part) */
  readonly activateSync: number;
  /** `activate` called → the promise it returned settled */
  readonly activate: number;
  /** main file's loading began → the first byte of its stream on the wire */
  readonly toStream: number;
  /** when the promise settled (epoch ms) */
  readonly settledAt: number;
}

export interface Activation {
  readonly fountain: ExtActivation;
  readonly minimal: ExtActivation;
  /** The extension host that loaded the extension first (the first window). */
  readonly pid: number;
}

export function facts(file: string): Fact[] {
  if (!fs.existsSync(file)) {
    return [];
  }
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Fact);
}

/** Both extensions' activation in the first extension host, once all is known; undefined until then. */
export function activationOf(file: string, wire: WireLog): Activation | undefined {
  const all = facts(file);
  const pid = all.find((f) => f.ext === 'fountain' && f.fact === 'load')?.pid;
  if (pid === undefined) {
    return undefined;
  }
  const of = (ext: 'fountain' | 'minimal', main: string, stream: (line: string) => boolean) => {
    const mine = all.filter((f) => f.pid === pid && f.ext === ext);
    const load = mine.find((f) => f.fact === 'load' && f.file === main);
    const start = load?.t0;
    const called = mine.find((f) => f.fact === 'activateCalled')?.t;
    const returned = mine.find((f) => f.fact === 'activateReturned')?.t;
    const settled = mine.find((f) => f.fact === 'activateSettled')?.t;
    const first = wire.streamFirstByte.find((s) => stream(s.line))?.at;
    if (start === undefined || called === undefined || returned === undefined || settled === undefined) {
      return undefined;
    }
    if (first === undefined) {
      return undefined;
    }
    return {
      load: load!.t1! - start,
      activateSync: returned - called,
      activate: settled - called,
      toStream: first - start,
      settledAt: settled,
    };
  };
  const fountain = of(
    'fountain',
    'dist/extension.js',
    (l) => l.includes('/api/events/stream') && !l.includes('bench='),
  );
  const minimal = of('minimal', 'extension.js', (l) => l.includes('bench=minimal'));
  return fountain && minimal ? { fountain, minimal, pid } : undefined;
}

/** The extension's files the extension host `pid` had required by `before` (by when their loading ended). */
export function loadedBy(file: string, pid: number, before: number): { files: string[]; bytes: number } {
  const loads = facts(file).filter(
    (f) => f.pid === pid && f.ext === 'fountain' && f.fact === 'load' && (f.t1 ?? Infinity) <= before,
  );
  return { files: loads.map((f) => f.file!), bytes: loads.reduce((a, f) => a + (f.bytes ?? 0), 0) };
}
