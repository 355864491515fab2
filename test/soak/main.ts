/**
 * `npm run soak [-- --minutes N --seed S]`: a day of faults in N minutes (default 10). Two windows of one code-server
 * with the extension, the local Fountain server behind a recording proxy, and the schedule of test/soak/schedule.ts
 * (load and faults from the seed). At the end the server's requests are reconciled with what the extension showed
 * and sent (test/soak/reconcile.ts); the table is printed, then one line
 * `soak: <held> requests held, <shown> shown, <lost> lost, <dup> duplicate POSTs`. Exit 1 on any loss, duplicate,
 * answer with an option that was not offered, or stream that never came back.
 * `--mocha` adds a mocha-style `1 passing` / `1 failing` line (the count test/harness/run-all.mjs reads).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT, makeRunDir } from '../support/codeServer';
import { SoakLoad } from './load';
import { startProxy, type SoakProxy } from './proxy';
import { drainPending, openAfterDrain } from './drain';
import { reconcile, table, type Recovery } from './reconcile';
import { readAgentLogs, reconcileLocal, type LocalShown } from './reconcileLocal';
import { SOAK_AGENT, makeSchedule, prng, type Fault } from './schedule';
import { SoakWindows } from './windows';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Report {
  host: string;
  heap: number;
  seen: {
    requestId: string;
    server: string;
    firstSeenAt: number;
    closedAs?: string;
    closedAt?: number;
    toolCallId?: string;
  }[];
  attempts: { requestId: string; toolCallId?: string; optionId: string; at: number; result?: string }[];
  local?: { at: number; what: string }[];
  /** Answers still being given; whether the window's user stopped because the harness will close it. */
  busy?: number;
  closing?: boolean;
}

export async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      minutes: { type: 'string', default: '10' },
      seed: { type: 'string', default: '20261201' },
      /** Each window's scripted local agent asks this often per second; 0: no local agents. */
      'local-rate': { type: 'string', default: '2.5' },
      /** The drain's stated time: past it, whatever is still open is named and the count ends. */
      'drain-seconds': { type: 'string', default: '90' },
      /** Each window's local agent is a command that does not exist: every Start Local Agent fails (issue 30). */
      'local-fail-start': { type: 'boolean', default: false },
      mocha: { type: 'boolean', default: false },
    },
    strict: true,
  });
  const minutes = Number(values.minutes);
  const seed = Number(values.seed);
  const schedule = makeSchedule(seed, minutes);
  const r = prng(seed ^ 0x5eed);
  const runDir = makeRunDir('fountain-soak-');
  const localRate = Number(values['local-rate']);
  const agentsDir = path.join(runDir, 'agents');
  fs.mkdirSync(agentsDir, { recursive: true });
  const log = (m: string) => {
    const line = `[soak ${new Date().toISOString().slice(11, 19)}] ${m}`;
    console.log(line);
    fs.appendFileSync(path.join(runDir, 'soak.log'), line + '\n');
  };
  log(
    `${minutes} min, seed ${seed}: ${schedule.conversations} conversations, ${schedule.promptAt.length} prompts, ${schedule.faults.length} faults; logs in ${runDir}`,
  );
  let t0 = Number.POSITIVE_INFINITY;
  let done = false;
  const load = new SoakLoad(runDir, r);
  const windows = new SoakWindows(runDir, () => t0);
  const shown = new Map<string, { firstSeenAt: number; hosts: Set<string> }>();
  const results: Report['attempts'] = [];
  const localShown = new Map<string, LocalShown>();
  /** Each window's (extension host pid's) last report. */
  const reportedAt = new Map<string, number>();
  /** Windows about to be closed, and whether each has reported since with its user stopped and no answer in flight. */
  const closing = new Map<string, boolean>();
  let restarts = 0;
  let stopLocal = false;
  let proxy: SoakProxy | undefined;
  let code: number;
  let sampler: NodeJS.Timeout | undefined;
  try {
    await load.start();
    proxy = await startProxy(
      () => load.server.port,
      (p, body) => {
        if (p !== '/_soak/report') {
          return {};
        }
        const rep = body as Report;
        const w = windows.report(rep.host, rep.heap);
        reportedAt.set(rep.host, Date.now());
        if (closing.has(rep.host) && rep.closing && rep.busy === 0) {
          closing.set(rep.host, true);
        }
        for (const s of rep.seen ?? []) {
          if (s.server.startsWith('local:')) {
            const tc = s.toolCallId ?? '?';
            const l = localShown.get(tc) ?? { host: rep.host, firstSeenAt: s.firstSeenAt };
            l.closedAs ??= s.closedAs;
            l.closedAt ??= s.closedAt;
            localShown.set(tc, l);
            continue;
          }
          const e = shown.get(s.requestId) ?? { firstSeenAt: s.firstSeenAt, hosts: new Set<string>() };
          e.hosts.add(rep.host);
          shown.set(s.requestId, e);
        }
        results.push(...(rep.attempts ?? []));
        for (const ev of rep.local ?? []) {
          restarts += ev.what.startsWith('restarted') ? 1 : 0;
          log(`window ${w.window ?? '?'}: local agent ${ev.what}`);
        }
        return { active: w.active, done, stopLocal, ...(closing.has(rep.host) ? { closing: true } : {}) };
      },
    );
    const env = {
      FOUNTAIN_API_KEY: load.server.apiKey,
      FOUNTAIN_BASE_URL: proxy.url,
      FOUNTAIN_SOAK_URL: proxy.url,
      FOUNTAIN_TEST_RUN_DIR: runDir,
      ...(localRate > 0 ? { FOUNTAIN_SOAK_LOCAL: '1' } : {}),
    };
    const localAgent = {
      name: SOAK_AGENT,
      command: values['local-fail-start'] ? path.join(runDir, 'no-such-agent') : process.execPath,
      args: [
        path.join(ROOT, 'test/soak/scriptedAgent.mjs'),
        ...['--log-dir', agentsDir, '--rate', String(localRate), '--seed', String(seed)],
        ...['--life-min', '20', '--life-max', '50'],
      ],
      policy: { default: 'ask' },
    };
    // The agent runs in the product's bubblewrap sandbox (private /tmp): its log folder is a writable allowPaths entry.
    const localSettings = {
      'fountain.localAgents': [localAgent],
      'fountain.local.allowPaths': [{ pattern: `${agentsDir}/...`, access: 'rw' }],
    };
    await windows.start(env, proxy.url, localRate > 0 ? localSettings : {});
    log('opening window 1');
    await windows.open();
    log('opening window 2');
    await windows.open();
    sampler = setInterval(() => load.sample(), 250);
    t0 = Date.now();
    log('load and faults start');
    const recoveries: { kind: string; at: number }[] = [];
    let conv = 0;
    let prompt = 0;
    const faults: Fault[] = [...schedule.faults];
    const reopening: Promise<unknown>[] = [];
    while (Date.now() - t0 < schedule.durationMs) {
      const t = Date.now() - t0;
      while (conv < schedule.conversations && schedule.conversationAt[conv] <= t) {
        load.createConversation(conv++);
      }
      while (prompt < schedule.promptAt.length && schedule.promptAt[prompt] <= t) {
        load.prompt();
        prompt++;
      }
      while (faults.length && faults[0].at <= t) {
        const f = faults.shift()!;
        const at = Date.now();
        const s = load.server;
        switch (f.kind) {
          case 'streamCut':
            log(`fault: ${s.abortStreams()} stream(s) cut mid-frame`);
            recoveries.push({ kind: 'stream cut', at });
            break;
          case 'restart':
            log('fault: server restart (hard, 2 s down, state kept)');
            load.sample();
            recoveries.push({ kind: 'server restart', at });
            void s.restart({ mode: 'hard', downMs: 2000 }).then(() => load.sample());
            break;
          case 'answer5xx':
            log('fault: the next 4 answers get 503');
            s.failNext({ route: 'answer', status: 503, count: 4 });
            break;
          case 'answer429':
            log('fault: the next 4 answers get 429 (Retry-After: 1)');
            s.failNext({ route: 'answer', status: 429, retryAfter: 1, count: 4 });
            break;
          case 'latency':
            log('fault: 2 s response delay for 15 s');
            s.setLatency(2000);
            setTimeout(() => s.setLatency(0), 15_000);
            break;
          case 'closeLeader': {
            const open = proxy.streams().filter((e) => e.endedAt === undefined);
            const leader = open.length ? windows.ownerOf(open[open.length - 1].remotePort) : undefined;
            const target = leader ?? windows.alive()[0];
            log(`fault: closing window ${target.window} (${leader ? 'it holds the stream' : 'holder not found'})`);
            recoveries.push({ kind: 'window closed', at });
            // Its user stops answering, and what it did reaches the count first: a report sent after it stopped,
            // with no answer in flight (at most 10 s). Without this, an answer given just before the close was
            // counted as an answer nobody chose (its report never came).
            closing.set(target.pid, false);
            const until = Date.now() + 10_000;
            while (!closing.get(target.pid) && Date.now() < until) {
              await sleep(100);
            }
            await windows.close(target);
            break;
          }
          case 'reopenWindow':
            log('reopening a window');
            reopening.push(
              windows.open().then(
                (h) => log(`window ${h.window} is back`),
                (e: unknown) => log(`reopening failed: ${String(e)}`),
              ),
            );
            break;
          case 'switchWindow':
            windows.switchActive();
            break;
        }
      }
      await sleep(50);
    }
    log(`load ends: ${conv} conversations, ${prompt} prompts; local agents stopped (Stop Local Agent); draining`);
    stopLocal = true;
    // No new turn starts: the prompts still queued behind running turns are load that was never delivered.
    log(`${load.server.dropQueuedPrompts()} prompts still queued behind running turns dropped`);
    // A window reopened late in the run takes its time to load: its scripted user reports before the count.
    await Promise.all(reopening);
    load.server.setLatency(0);
    load.server.clearFailures();
    const drainStart = Date.now();
    const drainEndsAt = drainStart + Number(values['drain-seconds']) * 1000;
    let pending: string[];
    for (;;) {
      // Sampled on every pass: a request held during the drain is counted like any other.
      load.sample();
      pending = drainPending({
        held: load.held,
        shown,
        wire: proxy.entries,
        local: readAgentLogs(agentsDir).requests,
        localShown,
        endsAt: drainEndsAt,
      });
      if ((pending.length === 0 && Date.now() - drainStart > 5000) || Date.now() > drainEndsAt) {
        break;
      }
      await sleep(500);
    }
    // The count ends here: the server's requests are not sampled again, so nothing held after this moment counts.
    clearInterval(sampler);
    sampler = undefined;
    const countEnd = Date.now();
    log(
      pending.length
        ? `the drain's ${values['drain-seconds']} s passed with ${pending.length} still open:\n  ${pending.join('\n  ')}`
        : `drained in ${((countEnd - drainStart) / 1000).toFixed(1)} s: every held request shown and answered or closed`,
    );
    const later = openAfterDrain(load.held, shown, drainEndsAt);
    if (later.length) {
      log(`${later.length} shown and open, not waited for:\n  ${later.join('\n  ')}`);
    }
    // Every open window reports once more after the count ended (what its inbox showed until then), then stops.
    const reportsEnd = Date.now() + 15_000;
    while (windows.alive().some((h) => (reportedAt.get(h.pid) ?? 0) < countEnd + 700) && Date.now() < reportsEnd) {
      await sleep(100);
    }
    done = true;
    await sleep(1000);
    const streams = proxy.streams();
    const rec: Recovery[] = recoveries.map((f) => {
      const next = streams.find((s) => (s.headersAt ?? 0) > f.at);
      return { ...f, ...(next?.headersAt !== undefined ? { recoveredAt: next.headersAt } : {}) };
    });
    const heap = [...windows.hosts.values()].map((h) => ({
      host: `${h.window}${h.closed ? ' (closed during the run)' : ''}`,
      ...(h.heapAtMinute !== undefined ? { atMinute: h.heapAtMinute } : {}),
      ...(h.closed ? {} : h.heap !== undefined ? { atEnd: h.heap } : {}),
    }));
    const result = reconcile({
      held: load.held,
      shown,
      wire: proxy.entries,
      elsewhere: load.elsewhere,
      recoveries: rec,
      heap,
    });
    // Nothing may be held after the count ended (no prompt was queued, no turn runs): if one was, it is named.
    const afterCount = [...load.server.store.requests.values()]
      .map((q) => q.request_id)
      .filter((id) => !load.held.has(id));
    result.rows.push(['held by the server after the count ended (outside it)', String(afterCount.length)]);
    result.problems.push(...afterCount.map((id) => `held after the count ended, so not counted: ${id}`));
    const logs = readAgentLogs(agentsDir);
    const clicked = new Map<string, { optionId: string; at: number; result?: string }[]>();
    for (const a of results) {
      const tc = a.toolCallId;
      if (tc) {
        clicked.set(tc, [...(clicked.get(tc) ?? []), { optionId: a.optionId, at: a.at, result: a.result }]);
      }
    }
    const local = reconcileLocal({ ...logs, restarts, shown: localShown, clicked });
    if (localRate > 0 && local.sent === 0) {
      local.problems.push('local: the agents sent no request');
    }
    result.rows.push(...local.rows);
    result.problems.push(...local.problems);
    fs.writeFileSync(
      path.join(runDir, 'soak-result.json'),
      JSON.stringify(
        {
          held: [...load.held.values()],
          wire: proxy.entries,
          results,
          rec,
          elsewhere: [...load.elsewhere],
          shown: [...shown.keys()],
          localShown: Object.fromEntries(localShown),
        },
        null,
        1,
      ),
    );
    console.log('\n' + table(result.rows));
    for (const p of result.problems.slice(0, 30)) {
      console.log(`  ${p}`);
    }
    const lost = result.lost + local.lost;
    const dup = result.duplicates + local.duplicates;
    const failed = lost > 0 || dup > 0 || result.problems.length > 0 || result.held === 0;
    code = failed ? 1 : 0;
    if (values.mocha) {
      console.log(failed ? '\n  0 passing\n  1 failing\n' : '\n  1 passing\n');
    }
    console.log(
      `soak local: ${local.sent} requests sent by local agents, ${local.shown} shown, ${local.lost} lost, ${local.duplicates} duplicate responses`,
    );
    // Remote and local together (the table splits them): held = held by the server + sent by the local agents.
    console.log(
      `soak: ${result.held + local.sent} requests held, ${result.shown + local.shown} shown, ${lost} lost, ${dup} duplicate POSTs`,
    );
  } catch (e) {
    console.error('soak harness failed:', e);
    if (values.mocha) {
      console.log('\n  0 passing\n  1 failing\n');
    }
    console.log('soak: 0 requests held, 0 shown, 0 lost, 0 duplicate POSTs');
    code = 1;
  } finally {
    done = true;
    if (sampler) {
      clearInterval(sampler);
    }
    await windows.stop().catch(() => undefined);
    await proxy?.close().catch(() => undefined);
    await load.stop().catch(() => undefined);
  }
  if (code === 0 && !process.env.FOUNTAIN_KEEP_RUN_DIR) {
    fs.rmSync(runDir, { recursive: true, force: true });
  }
  process.exit(code);
}
