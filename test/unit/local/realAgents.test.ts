// LocalAgentSession against REAL published agents (claude-agent-acp 0.23.1, Gemini CLI 0.61.0; installed by
// test/harness/setup-acp-agents.sh), started from the product's presets and found on PATH, on the scripted
// loopback model. The model asks for one shell command that writes a file named in the prompt. What was sent is
// read from the wire tap (every JSON-RPC line we wrote to the agent's stdin).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { randomUUID } from 'node:crypto';
import type {
  LocalAgentSession,
  LocalSessionExit,
  LocalSessionStatus,
  PendingAsk,
  PermissionDecision,
} from '../../../src/local';
import {
  createHarness,
  groupAlive,
  realAgentsInstalled,
  REAL_AGENTS_SETUP_HINT,
  withTimeout,
  type Harness,
} from './realHarness';
import { skipOrFail } from '../../support/skipOrFail';

const STEP_MS = 45_000;

function readEnviron(pid: number): Record<string, string> | undefined {
  try {
    return Object.fromEntries(
      fs
        .readFileSync(`/proc/${pid}/environ`, 'utf8')
        .split('\0')
        .filter(Boolean)
        .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
    );
  } catch {
    return undefined;
  }
}

/** Starts a session and sends a prompt asking for `file`; resolves with the first ask (or undefined if none). */
async function promptForFile(h: Harness, session: LocalAgentSession, file: string) {
  const asked = h.nextAsk();
  const turn = session.prompt(`Please create file ${file} containing made by fountain.`);
  turn.catch(() => undefined); // some tests end the agent mid-turn
  return { asked, turn };
}

function requestIdOf(h: Harness, ask: PendingAsk): unknown {
  const req = h
    .permissionRequests()
    .find(
      (r) => (r.params as { toolCall: { toolCallId: string } }).toolCall.toolCallId === ask.request.toolCall.toolCallId,
    );
  assert.ok(req, 'the request is on the wire');
  return req.id;
}

const EXPECTED_IDS = {
  claude: ['allow_always', 'allow', 'reject'],
  gemini: ['proceed_always', 'proceed_once', 'cancel'],
} as const;

for (const preset of ['claude', 'gemini'] as const) {
  describe(`local agents: real ${preset} through LocalAgentSession`, function () {
    this.timeout(90_000);
    let h: Harness;
    before(function () {
      if (!realAgentsInstalled(preset)) {
        skipOrFail(this, `${preset}: ${REAL_AGENTS_SETUP_HINT}`);
      }
    });
    beforeEach(async () => {
      h = await createHarness(preset);
    });
    afterEach(async () => {
      await h?.cleanup();
    });

    it('ask: the request reaches the inbox with the agent option ids; Allow runs the command and exactly that id was sent', async () => {
      const session = await h.start();
      assert.equal(session.status, 'idle');
      const statuses: LocalSessionStatus[] = [];
      session.onDidChangeStatus((st) => statuses.push(st));
      const env = readEnviron(session.pid!);
      if (env) {
        assert.equal(env.FOUNTAIN_TOKEN, undefined, 'a variable the preset does not name never reaches the agent');
        assert.equal(env.HOME, h.home);
      }
      const file = `allowed-${randomUUID().slice(0, 8)}.txt`;
      const { asked, turn } = await promptForFile(h, session, file);
      const ask = await withTimeout(asked, STEP_MS, h.diag);
      assert.deepEqual(
        ask.request.options.map((o) => o.optionId),
        EXPECTED_IDS[preset],
      );
      assert.equal(ask.request.toolCall.kind, 'execute');
      assert.ok(ask.request.toolCall.title?.includes(file));
      assert.equal(ask.policyKey, 'default');
      assert.equal(session.status, 'waiting');
      assert.equal(fs.existsSync(path.join(h.cwd, file)), false, 'nothing runs before the answer');
      const allow = ask.request.options.find((o) => o.kind === 'allow_once')!;
      assert.equal(ask.answer(allow.optionId), 'sent');
      assert.equal(await withTimeout(turn, STEP_MS, h.diag), 'end_turn');
      assert.equal(fs.readFileSync(path.join(h.cwd, file), 'utf8'), 'made by fountain\n');
      const id = requestIdOf(h, ask);
      assert.deepEqual(h.responsesTo(id), [
        { jsonrpc: '2.0', id, result: { outcome: { outcome: 'selected', optionId: allow.optionId } } },
      ]);
      assert.equal(session.status, 'idle');
      assert.deepEqual(statuses, ['running', 'waiting', 'running', 'idle']);
      assert.match(session.transcript.render(), /\[tool completed\]/);
    });

    it('Reject: the command never runs; the reject id was sent', async () => {
      const session = await h.start();
      const file = `rejected-${randomUUID().slice(0, 8)}.txt`;
      const { asked, turn } = await promptForFile(h, session, file);
      const ask = await withTimeout(asked, STEP_MS, h.diag);
      const reject = ask.request.options.find((o) => o.kind === 'reject_once')!;
      assert.equal(ask.answer(reject.optionId), 'sent');
      assert.equal(await withTimeout(turn, STEP_MS, h.diag), 'end_turn');
      assert.deepEqual(fs.readdirSync(h.cwd), []);
      assert.deepEqual(
        h.responsesTo(requestIdOf(h, ask)).map((r) => r.result),
        [{ outcome: { outcome: 'selected', optionId: reject.optionId } }],
      );
    });

    it('Stop with a request open: cancelled is sent and no process of the agent group is left', async () => {
      const session = await h.start();
      const pid = session.pid!;
      const { asked } = await promptForFile(h, session, `s-${randomUUID().slice(0, 8)}.txt`);
      const ask = await withTimeout(asked, STEP_MS, h.diag);
      await withTimeout(session.stop(), STEP_MS, h.diag);
      assert.deepEqual(await ask.closed, { reason: 'cancelled', sent: { outcome: 'cancelled' } });
      assert.deepEqual(
        h.responsesTo(requestIdOf(h, ask)).map((r) => r.result),
        [{ outcome: { outcome: 'cancelled' } }],
      );
      assert.ok(h.wire.some((w) => w.direction === 'out' && w.msg.method === 'session/cancel'));
      assert.equal(session.status, 'stopped');
      assert.equal(groupAlive(pid), false, 'the agent process group is gone');
      assert.deepEqual(fs.readdirSync(h.cwd), []);
    });

    if (preset === 'claude') {
      it('no answer within the ask timeout: the first reject option is sent, a late answer is not', async () => {
        const session = await h.start({ askTimeoutSec: 1 });
        const file = `timeout-${randomUUID().slice(0, 8)}.txt`;
        const { asked, turn } = await promptForFile(h, session, file);
        const ask = await withTimeout(asked, STEP_MS, h.diag);
        const closed = await withTimeout(ask.closed, STEP_MS, h.diag);
        assert.deepEqual(closed, { reason: 'timeout', sent: { outcome: 'selected', optionId: 'reject' } });
        assert.equal(ask.answer('allow'), 'closed');
        assert.equal(await withTimeout(turn, STEP_MS, h.diag), 'end_turn');
        assert.deepEqual(
          h.responsesTo(requestIdOf(h, ask)).map((r) => r.result),
          [{ outcome: { outcome: 'selected', optionId: 'reject' } }],
        );
        assert.deepEqual(fs.readdirSync(h.cwd), []);
      });

      it('Cancel Turn with a request open: cancelled is sent, then session/cancel; the turn ends cancelled and the session stays usable', async () => {
        const session = await h.start();
        const { asked, turn } = await promptForFile(h, session, `c-${randomUUID().slice(0, 8)}.txt`);
        const ask = await withTimeout(asked, STEP_MS, h.diag);
        await session.cancelTurn();
        assert.equal(await withTimeout(turn, STEP_MS, h.diag), 'cancelled');
        assert.deepEqual(await ask.closed, { reason: 'cancelled', sent: { outcome: 'cancelled' } });
        const id = requestIdOf(h, ask);
        const out = h.wire.filter((w) => w.direction === 'out');
        const answerAt = out.findIndex((w) => w.msg.id === id && w.msg.method === undefined);
        const cancelAt = out.findIndex((w) => w.msg.method === 'session/cancel');
        assert.ok(answerAt >= 0 && cancelAt > answerAt, 'the request is answered before session/cancel');
        assert.deepEqual(out[answerAt].msg.result, { outcome: { outcome: 'cancelled' } });
        assert.equal(session.status, 'idle');
        assert.deepEqual(fs.readdirSync(h.cwd), []);
      });

      it('agent killed from outside: its request closes as "agent exited", nothing is sent, and no process is left', async () => {
        const session = await h.start();
        const pid = session.pid!;
        const exited = new Promise<LocalSessionExit>((r) => session.onDidExit(r));
        const { asked, turn } = await promptForFile(h, session, `k-${randomUUID().slice(0, 8)}.txt`);
        const ask = await withTimeout(asked, STEP_MS, h.diag);
        const outBefore = h.wire.filter((w) => w.direction === 'out').length;
        process.kill(-pid, 'SIGKILL');
        const exit = await withTimeout(exited, STEP_MS, h.diag);
        assert.equal(exit.signal, 'SIGKILL');
        assert.equal(exit.requested, false);
        assert.match(exit.message, /was killed by SIGKILL/);
        assert.deepEqual(await ask.closed, { reason: 'agent_exited' });
        assert.equal(ask.answer('allow'), 'closed');
        await assert.rejects(turn);
        assert.equal(session.status, 'exited');
        assert.deepEqual(h.responsesTo(requestIdOf(h, ask)), [], 'no answer was written to the agent');
        assert.equal(h.wire.filter((w) => w.direction === 'out').length, outBefore, 'nothing at all was written');
        await session.stop();
        assert.equal(groupAlive(pid), false);
        assert.match(session.transcript.render(), /killed by SIGKILL/);
      });

      it('policy execute: auto_deny → nothing is asked and the reject option is sent', async () => {
        const session = await h.start({ policy: { default: 'ask', execute: 'auto_deny' } });
        const decided = new Promise((r) => session.onDidDecide(r));
        const turn = session.prompt(`Please create file d-${randomUUID().slice(0, 8)}.txt containing no.`);
        assert.equal(await withTimeout(turn, STEP_MS, h.diag), 'end_turn');
        assert.equal(h.asks.length, 0, 'the inbox was not asked');
        const [req] = h.permissionRequests();
        assert.ok(req, h.diag());
        assert.deepEqual(
          h.responsesTo(req.id).map((r) => r.result),
          [{ outcome: { outcome: 'selected', optionId: 'reject' } }],
        );
        const decision = (await decided) as PermissionDecision;
        assert.deepEqual([decision.verdict, decision.policyKey, decision.matchedBy], ['auto_deny', 'execute', 'kind']);
        assert.deepEqual(decision.close, { reason: 'policy', sent: { outcome: 'selected', optionId: 'reject' } });
        assert.deepEqual(fs.readdirSync(h.cwd), []);
      });

      it('Restart: a new agent process and ACP session; the old group is gone', async () => {
        const first = await h.start();
        const oldPid = first.pid!;
        const second = await withTimeout(first.restart(), STEP_MS, h.diag);
        assert.equal(first.status, 'stopped');
        assert.equal(groupAlive(oldPid), false);
        assert.notEqual(second.pid, oldPid);
        assert.notEqual(second.sessionId, first.sessionId);
        assert.equal(second.status, 'idle');
        await second.stop();
      });

      it("defaultMode is sent only when it is the agent's plan mode: acceptEdits and bypassPermissions stay the gate's", async () => {
        const setModes = () =>
          h.wire.filter((w) => w.direction === 'out' && w.msg.method === 'session/set_mode').map((w) => w.msg.params);
        const session = await h.start({ defaultMode: 'acceptEdits' });
        assert.deepEqual(session.availableModes, ['default', 'acceptEdits', 'plan', 'dontAsk']);
        assert.deepEqual(setModes(), [], 'acceptEdits (the agent approves edits itself) was sent');
        assert.deepEqual(session.agentMode, { id: 'default', name: 'Default', kind: 'asks', asks: true });
        assert.ok(h.stderr.some((l) => l.includes('defaultMode "acceptEdits" is not sent')));
        const bypass = await h.start({ defaultMode: 'bypassPermissions' });
        assert.deepEqual(setModes(), [], 'a never-ask mode was sent');
        assert.equal(bypass.agentMode?.id, 'default');
        // The agent's own plan mode acts on nothing and asks to leave it (ExitPlanMode): it is sent, and kept.
        const plan = await h.start({ defaultMode: 'plan', gateMode: () => 'ask' });
        assert.deepEqual(
          setModes().map((p) => (p as { modeId?: string }).modeId),
          ['plan'],
        );
        assert.equal(plan.agentMode?.id, 'plan');
        await plan.syncMode('yolo');
        assert.equal(setModes().length, 1, 'a gate mode change does not take the agent out of its plan mode');
      });

      it('policy execute: auto_allow → nothing is asked and allow_always is sent; the command runs', async () => {
        const session = await h.start({ policy: { default: 'ask', execute: 'auto_allow' } });
        const file = `a-${randomUUID().slice(0, 8)}.txt`;
        const turn = session.prompt(`Please create file ${file} containing yes.`);
        assert.equal(await withTimeout(turn, STEP_MS, h.diag), 'end_turn');
        assert.equal(h.asks.length, 0);
        const [req] = h.permissionRequests();
        assert.deepEqual(
          h.responsesTo(req.id).map((r) => r.result),
          [{ outcome: { outcome: 'selected', optionId: 'allow_always' } }],
        );
        assert.equal(fs.readFileSync(path.join(h.cwd, file), 'utf8'), 'yes\n');
      });
    }
  });
}
