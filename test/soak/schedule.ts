/**
 * The soak's load and fault schedule, all drawn from one seed (the same seed and length give the same schedule):
 * conversations (300 per 10 minutes), prompts at about 5/s with bursts of 50, and the faults with their times.
 */

/** The scripted local agent's fountain.localAgents name (test/soak/scriptedAgent.mjs; started by hostLocal.ts). */
export const SOAK_AGENT = 'Soak agent';

/** mulberry32: a small seeded PRNG (uniform in [0, 1)). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type FaultKind =
  'streamCut' | 'restart' | 'answer5xx' | 'answer429' | 'latency' | 'closeLeader' | 'reopenWindow' | 'switchWindow';

export interface Fault {
  readonly at: number;
  readonly kind: FaultKind;
}

export interface Schedule {
  readonly durationMs: number;
  readonly conversations: number;
  /** When each conversation is created (ms from the start); every 10th holds one detached request. */
  readonly conversationAt: number[];
  /** When a prompt is sent (ms from the start); a burst is 50 at one time. */
  readonly promptAt: number[];
  readonly faults: Fault[];
}

/** In-turn plans (what the scripted user does) with their weights; see test/soak/host.ts. */
const IN_TURN: [string, number][] = [
  ['allow', 40],
  ['reject', 25],
  ['dbl', 10],
  ['late', 15],
  ['expire', 5],
  ['skip', 5],
];
const DETACHED: [string, number][] = [
  ['allow', 50],
  ['reject', 20],
  ['late', 15],
  ['expire', 15],
];

export function pick(r: () => number, table: [string, number][]): string {
  const total = table.reduce((n, [, w]) => n + w, 0);
  let x = r() * total;
  for (const [name, w] of table) {
    x -= w;
    if (x < 0) {
      return name;
    }
  }
  return table[table.length - 1][0];
}

export const inTurnPlan = (r: () => number): string => pick(r, IN_TURN);
export const detachedPlan = (r: () => number): string => pick(r, DETACHED);

export function makeSchedule(seed: number, minutes: number): Schedule {
  const r = prng(seed);
  const durationMs = Math.round(minutes * 60_000);
  const conversations = Math.max(12, Math.round((300 * minutes) / 10));
  // A fifth of them at the start (so that prompts have turns to go to), the rest spread over the run.
  const early = Math.ceil(conversations / 5);
  const conversationAt = Array.from({ length: conversations }, (_, i) =>
    i < early ? i * 50 : Math.round(((i - early) / (conversations - early)) * durationMs * 0.9),
  );
  const promptAt: number[] = [];
  for (let t = 1000; t < durationMs; t += 200) {
    promptAt.push(t);
  }
  const bursts = Math.max(1, Math.round(minutes / 2.5));
  for (let b = 0; b < bursts; b++) {
    const at = Math.round(durationMs * (0.15 + (0.7 * (b + r())) / bursts));
    for (let i = 0; i < 50; i++) {
      promptAt.push(at);
    }
  }
  promptAt.sort((a, b) => a - b);
  const faults: Fault[] = [];
  for (let t = 30_000 * Math.min(1, minutes / 2) * (0.5 + r()); t < durationMs; t += 30_000 + r() * 60_000) {
    faults.push({ at: Math.round(t), kind: 'streamCut' });
  }
  faults.push({ at: Math.round(durationMs * 0.3), kind: 'restart' });
  faults.push({ at: Math.round(durationMs * 0.65), kind: 'restart' });
  for (let t = 10_000 + r() * 10_000, i = 0; t < durationMs - 5000; t += 40_000 + r() * 40_000, i++) {
    faults.push({ at: Math.round(t), kind: i % 2 ? 'answer429' : 'answer5xx' });
  }
  for (let t = durationMs * 0.2 * (0.8 + 0.4 * r()); t < durationMs - 5000; t += 90_000 + r() * 60_000) {
    faults.push({ at: Math.round(t), kind: 'latency' });
  }
  const closes = minutes >= 5 ? [0.25, 0.75] : [0.4];
  for (const f of closes) {
    faults.push({ at: Math.round(durationMs * f), kind: 'closeLeader' });
    faults.push({ at: Math.round(durationMs * f + Math.min(20_000, durationMs * 0.1)), kind: 'reopenWindow' });
  }
  for (let t = 45_000 + r() * 30_000; t < durationMs; t += 60_000 + r() * 60_000) {
    faults.push({ at: Math.round(t), kind: 'switchWindow' });
  }
  faults.sort((a, b) => a.at - b.at);
  return { durationMs, conversations, conversationAt, promptAt, faults };
}
