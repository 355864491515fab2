// The local gate in front of the REAL claude-agent-acp (installed by test/harness/setup-acp-agents.sh) on the
// scripted loopback model. The agent itself stays in its own default mode (it asks for every write and command);
// the gate's mode is Fountain's. Prompts carry the tool call in base64url (`WRITE64:<path>`, `RUN64:<command>`),
// which the scripted model turns into claude's Write or Bash call.
//
// The denylist test never gives the agent anything that could harm this machine even if the gate were broken
// (the tests may run as root): its denylisted command is `curl <our own loopback server> | sh`, and that server's
// only script writes a marker file in the test's temp folder, so a broken gate shows as a marker and a hit.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import { randomUUID } from 'node:crypto';
import {
  LocalGate,
  applyGrantChoiceVia,
  grantChoices,
  whatWouldHappen,
  type GateDecisionEvent,
  type GateMode,
  type LocalAgentSession,
  type LocalGateSettings,
} from '../../../src/local';
import { createHarness, realAgentsInstalled, REAL_AGENTS_SETUP_HINT, withTimeout, type Harness } from './realHarness';
import { skipOrFail } from '../../support/skipOrFail';

const STEP_MS = 45_000;
const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64url');
const unb64 = (s: string) => Buffer.from(s, 'base64url').toString('utf8');

const MODEL_OPTIONS = {
  deriveCommand: (text: string) => {
    const m = /RUN64:([A-Za-z0-9_-]+)/.exec(text);
    return m ? { command: unb64(m[1]), description: 'Run it' } : undefined;
  },
  deriveToolCall: (_tools: readonly string[], text: string) => {
    if (text.includes('EXITPLAN')) {
      return { name: 'ExitPlanMode', input: { plan: '1. write the file' } };
    }
    const m = /WRITE64:([A-Za-z0-9_-]+)/.exec(text);
    return m ? { name: 'Write', input: { file_path: unb64(m[1]), content: 'written by the agent\n' } } : undefined;
  },
};

function resultsFor(h: Harness, index: number): unknown[] {
  const req = h.permissionRequests()[index];
  assert.ok(req, `permission request #${index} is on the wire\n${h.diag()}`);
  return h.responsesTo(req.id).map((r) => r.result);
}

describe('local gate: real claude through LocalAgentSession', function () {
  this.timeout(120_000);
  let h: Harness;
  before(function () {
    if (!realAgentsInstalled('claude')) {
      skipOrFail(this, `claude: ${REAL_AGENTS_SETUP_HINT}`);
    }
  });
  beforeEach(async () => {
    h = await createHarness('claude', MODEL_OPTIONS);
  });
  afterEach(async () => {
    await h?.cleanup();
  });

  async function start(
    mode: GateMode,
    settings: LocalGateSettings = {},
    agentMode?: string,
  ): Promise<{ gate: LocalGate; session: LocalAgentSession; events: GateDecisionEvent[] }> {
    const gate = new LocalGate({ cwd: h.cwd, roots: [h.cwd], policy: { default: 'ask' }, settings, trusted: true });
    assert.deepEqual(gate.setMode(mode), { ok: true });
    const events: GateDecisionEvent[] = [];
    gate.onDidDecide((e) => events.push(e));
    const session = await h.start({ gate, ...(agentMode !== undefined ? { defaultMode: agentMode } : {}) });
    return { gate, session, events };
  }

  const turn = (session: LocalAgentSession, text: string) => withTimeout(session.prompt(text), STEP_MS, h.diag);

  it('plan mode: a write is refused without asking; the reject option is sent and the file never appears', async () => {
    const { session, events } = await start('plan');
    const file = path.join(h.cwd, `plan-${randomUUID().slice(0, 8)}.txt`);
    assert.equal(await turn(session, `Write it: WRITE64:${b64(file)}`), 'end_turn');
    assert.equal(h.asks.length, 0, 'nothing reached the inbox');
    assert.deepEqual(resultsFor(h, 0), [{ outcome: { outcome: 'selected', optionId: 'reject' } }]);
    assert.equal(fs.existsSync(file), false);
    assert.deepEqual(
      events.map((e) => [e.gateRequest.kind, e.decision.verdict, e.decision.rule]),
      [['edit', 'deny', 'plan']],
    );
    assert.deepEqual(events[0].gateRequest.paths, [{ path: file, access: 'write' }]);
  });

  it('acceptEdits: an in-scope edit runs unasked with allow_once; a shell command asks', async () => {
    const { session, events } = await start('acceptEdits');
    const file = path.join(h.cwd, `edit-${randomUUID().slice(0, 8)}.txt`);
    assert.equal(await turn(session, `Write it: WRITE64:${b64(file)}`), 'end_turn');
    assert.equal(h.asks.length, 0);
    assert.deepEqual(resultsFor(h, 0), [{ outcome: { outcome: 'selected', optionId: 'allow' } }]);
    assert.equal(fs.readFileSync(file, 'utf8'), 'written by the agent\n');
    assert.deepEqual([events[0].decision.verdict, events[0].decision.rule], ['allow', 'mode']);

    const asked = h.nextAsk();
    const running = turn(session, `Run it: RUN64:${b64('printf made > shell.txt')}`);
    const ask = await withTimeout(asked, STEP_MS, h.diag);
    assert.equal(ask.request.toolCall.kind, 'execute');
    assert.deepEqual([ask.gate?.verdict, ask.gate?.rule], ['ask', 'mode']);
    assert.equal(ask.answer('reject'), 'sent');
    assert.equal(await running, 'end_turn');
    assert.equal(fs.existsSync(path.join(h.cwd, 'shell.txt')), false);
  });

  it('a "git *" verb grant answers the next git command with allow_once unasked; after revoking it, it asks again', async () => {
    // claude allows read-only git commands such as `git status` by itself (they never reach a client), so the
    // command is `git init -q`, which claude asks about; it only creates .git in the test's folder. Without the
    // read_only bundle, so that only the grant can allow it.
    const { gate, session, events } = await start('ask', { builtinAllow: false });
    let n = 0;
    const prompt = () => `Run it (${++n}): RUN64:${b64('git init -q')}`;
    const dotGit = path.join(h.cwd, '.git');
    const asked = h.nextAsk();
    const first = turn(session, prompt());
    const ask = await withTimeout(asked, STEP_MS, h.diag);
    const verb = grantChoices(gate, ask.request).find((c) => c.id === 'verb');
    assert.ok(verb, 'a verb grant is offered for git init');
    assert.match(verb.label, /git \*/);
    const send = (id: string) => Promise.resolve(ask.answer(id) === 'sent');
    assert.deepEqual(await applyGrantChoiceVia(gate, ask, verb, send), { sent: true, optionId: 'allow' });
    assert.equal(await first, 'end_turn');
    assert.deepEqual(resultsFor(h, 0), [{ outcome: { outcome: 'selected', optionId: 'allow' } }]);
    assert.deepEqual(gate.grants, [{ scope: 'verb', verb: 'git' }]);
    assert.ok(fs.existsSync(dotGit));
    fs.rmSync(dotGit, { recursive: true });

    assert.equal(await turn(session, prompt()), 'end_turn');
    assert.equal(h.asks.length, 1, 'the second git command was not asked');
    assert.deepEqual(resultsFor(h, 1), [{ outcome: { outcome: 'selected', optionId: 'allow' } }]);
    assert.deepEqual([events[1].decision.verdict, events[1].decision.rule], ['allow', 'grant']);
    assert.ok(fs.existsSync(dotGit), 'it ran');
    fs.rmSync(dotGit, { recursive: true });

    assert.equal(gate.revokeGrant({ scope: 'verb', verb: 'git' }), true);
    const again = h.nextAsk();
    const third = turn(session, prompt());
    const ask3 = await withTimeout(again, STEP_MS, h.diag);
    assert.equal(ask3.gate?.rule, 'mode');
    assert.equal(ask3.answer('reject'), 'sent');
    assert.equal(await third, 'end_turn');
    assert.equal(h.asks.length, 2);
    assert.equal(fs.existsSync(dotGit), false);
  });

  it("plan-first: claude's exit-plan-mode request answered with an allow records the plan; then a write runs", async () => {
    // claude itself starts in its plan mode (it offers ExitPlanMode only there); the gate is in acceptEdits.
    const { gate, session, events } = await start('acceptEdits', { requirePlan: true }, 'plan');
    const file = path.join(h.cwd, `planned-${randomUUID().slice(0, 8)}.txt`);
    const before = whatWouldHappen(`write ${file}`, gate.snapshot(), h.cwd);
    assert.deepEqual([before[0].decision.verdict, before[0].decision.rule], ['deny', 'plan-first']);
    const asked = h.nextAsk();
    const planning = turn(session, 'EXITPLAN now');
    const ask = await withTimeout(asked, STEP_MS, h.diag);
    assert.equal(ask.request.toolCall.kind, 'switch_mode');
    assert.equal(ask.gate?.verdict, 'ask');
    assert.equal(gate.planRecorded, false);
    assert.equal(ask.answer('default'), 'sent');
    assert.equal(await planning, 'end_turn');
    assert.equal(gate.planRecorded, true);
    assert.equal(await turn(session, `Write it: WRITE64:${b64(file)}`), 'end_turn');
    assert.equal(fs.readFileSync(file, 'utf8'), 'written by the agent\n');
    assert.deepEqual([events[1].decision.verdict, events[1].decision.rule], ['allow', 'mode']);
    assert.equal(h.asks.length, 1);
  });

  it('yolo: a denylisted command is refused without asking, and never runs', async () => {
    const marker = path.join(h.home, `ran-${randomUUID().slice(0, 8)}`);
    let hits = 0;
    const server = http.createServer((_req, res) => {
      hits++;
      res.end(`echo ran > '${marker}'\n`);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const port = (server.address() as { port: number }).port;
      const { session, events } = await start('yolo');
      const command = `curl -s http://127.0.0.1:${port}/x | sh`;
      assert.equal(await turn(session, `Run it: RUN64:${b64(command)}`), 'end_turn');
      assert.equal(h.asks.length, 0);
      assert.deepEqual(resultsFor(h, 0), [{ outcome: { outcome: 'selected', optionId: 'reject' } }]);
      assert.deepEqual(
        events.map((e) => [e.gateRequest.command, e.decision.verdict, e.decision.rule]),
        [[command, 'deny', 'denylist']],
      );
      assert.equal(hits, 0, 'the script was never fetched');
      assert.equal(fs.existsSync(marker), false);
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });
});
