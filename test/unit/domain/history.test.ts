import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { HistoryLog, type HistoryEntry } from '../../../src/domain/history';
import { CURRENT_FILE, FileHistoryBackend, PREVIOUS_FILE } from '../../../src/platform/historyStore';
import { MemoryHistoryBackend } from '../../support/memoryHistoryBackend';

const entry = (n: number, over: Partial<HistoryEntry> = {}): HistoryEntry => ({
  at: n,
  server: 'http://127.0.0.1:4000',
  conversationId: `c${n}`,
  agentId: 'claude',
  kind: 'execute',
  label: `touch f${n}`,
  optionId: 'allow',
  optionKind: 'allow_once',
  outcome: 'answered',
  ...over,
});

describe('approval history log', () => {
  it('keeps the reason of a Reject with Reason…, in memory and through storage', async () => {
    const backend = new MemoryHistoryBackend();
    const log = new HistoryLog(backend);
    await log.load();
    const why = 'Use the staging database, not production.';
    await log.record(entry(1, { optionId: 'reject', optionKind: 'reject_once', reason: why }));
    assert.equal(log.entries()[0].reason, why);
    const again = new HistoryLog(backend);
    await again.load();
    assert.equal(again.entries()[0].reason, why);
  });

  it('lists entries newest first', async () => {
    const log = new HistoryLog(new MemoryHistoryBackend());
    await log.load();
    for (const n of [1, 2, 3]) {
      await log.record(entry(n));
    }
    assert.deepEqual(
      log.entries().map((e) => e.at),
      [3, 2, 1],
    );
  });

  it('is bounded: rotates a full segment and drops the oldest one, in memory and in storage', async () => {
    const backend = new MemoryHistoryBackend();
    const log = new HistoryLog(backend, { segmentSize: 3 });
    await log.load();
    for (let n = 1; n <= 8; n++) {
      await log.record(entry(n));
    }
    // 1-3 rotated out when 7 arrived; 4-6 are the previous segment, 7-8 the current one.
    assert.deepEqual(
      log.entries().map((e) => e.at),
      [8, 7, 6, 5, 4],
    );
    assert.equal(backend.previous.length, 3);
    assert.equal(backend.current.length, 2);
    const reread = new HistoryLog(backend, { segmentSize: 3 });
    await reread.load();
    assert.deepEqual(reread.entries(), log.entries());
  });

  it('never holds more than two segments, however many are recorded', async () => {
    const log = new HistoryLog(new MemoryHistoryBackend(), { segmentSize: 10 });
    for (let n = 1; n <= 1000; n++) {
      await log.record(entry(n));
    }
    assert.ok(log.size <= 20 && log.size > 10, `size ${log.size}`);
    assert.equal(log.entries()[0].at, 1000);
  });

  it('skips malformed stored lines and trims oversized segments on load', async () => {
    const backend = new MemoryHistoryBackend();
    backend.previous = ['{not json', JSON.stringify({ at: 'x' }), JSON.stringify(entry(1))];
    backend.current = [JSON.stringify(entry(2)), '', JSON.stringify(entry(3)), JSON.stringify(entry(4))];
    const log = new HistoryLog(backend, { segmentSize: 2 });
    await log.load();
    assert.deepEqual(
      log.entries().map((e) => e.at),
      [4, 3, 1],
    );
  });

  it('clear empties memory and storage and tells listeners', async () => {
    const backend = new MemoryHistoryBackend();
    const log = new HistoryLog(backend);
    await log.record(entry(1));
    let fired = 0;
    log.onDidChange(() => fired++);
    await log.clear();
    assert.equal(log.size, 0);
    assert.deepEqual(await backend.read(), { previous: [], current: [] });
    assert.equal(fired, 1);
  });

  it('a failing backend is reported and the session history stays usable', async () => {
    const errors: unknown[] = [];
    const backend = new MemoryHistoryBackend();
    backend.append = () => Promise.reject(new Error('disk full'));
    const log = new HistoryLog(backend, { onError: (e) => errors.push(e) });
    await log.record(entry(1));
    await log.record(entry(2));
    assert.equal(errors.length, 2);
    assert.equal(log.size, 2);
  });
});

describe('approval history files', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fountain-history-'));
  });
  afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('writes one JSON line per entry and rotates by renaming the current file', async () => {
    const store = path.join(dir, 'nested');
    const log = new HistoryLog(new FileHistoryBackend(store), { segmentSize: 2 });
    await log.load();
    for (let n = 1; n <= 5; n++) {
      await log.record(entry(n));
    }
    const lines = (f: string) =>
      fs
        .readFileSync(path.join(store, f), 'utf8')
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as HistoryEntry).at);
    assert.deepEqual(lines(PREVIOUS_FILE), [3, 4]);
    assert.deepEqual(lines(CURRENT_FILE), [5]);
    const again = new HistoryLog(new FileHistoryBackend(store), { segmentSize: 2 });
    await again.load();
    assert.deepEqual(
      again.entries().map((e) => e.at),
      [5, 4, 3],
    );
    await again.clear();
    assert.deepEqual(fs.readdirSync(store), []);
  });

  it('reads nothing from a folder that does not exist yet', async () => {
    const log = new HistoryLog(new FileHistoryBackend(path.join(dir, 'missing')));
    await log.load();
    assert.equal(log.size, 0);
  });
});
