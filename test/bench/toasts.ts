/**
 * The toast-latency rows: a request's FeedEvent entering the inbox → the Notifier's `vscode.window.show*Message`
 * call, for the design now and the design before issue 13 (baseline), each in its own process (./toastChild.ts), both
 * at once on the same seeded schedule of requests 1–3 s apart.
 */
import { execFile } from 'node:child_process';
import * as path from 'node:path';

export const TOAST_REQUESTS = 30;

export interface ToastStats {
  p50: number;
  p99: number;
  /** Shared "N approvals waiting" notices shown. */
  shared: number;
}

function run(design: 'old' | 'new'): Promise<ToastStats> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', path.join(__dirname, 'toastChild.ts'), design, String(TOAST_REQUESTS)],
      { encoding: 'utf8' },
      (err, stdout) => {
        if (err) {
          reject(new Error(`the ${design} toast bench failed`, { cause: err }));
          return;
        }
        const r = JSON.parse(stdout.trim().split('\n').at(-1)!) as { latencies: number[]; shared: number };
        const xs = r.latencies.sort((a, b) => a - b);
        const at = (p: number) => xs[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)];
        resolve({ p50: at(50), p99: at(99), shared: r.shared });
      },
    );
  });
}

export async function toastLatencyBench(): Promise<{ old: ToastStats; now: ToastStats }> {
  const [old, now] = await Promise.all([run('old'), run('new')]);
  return { old, now };
}
