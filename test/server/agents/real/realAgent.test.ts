// Drives REAL published ACP agents (claude-agent-acp 0.23.1, gemini-cli 0.61.0) through createRealAgent, with this
// test as the ACP client (SDK 2.4.0 app API). The fake model asks for one shell command that writes a file named
// in the prompt; the agent must ask session/request_permission first, and only an allow_once answer may let the
// file appear. Skipped (pending) when test/harness/setup-acp-agents.sh has not run.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { randomUUID } from 'node:crypto';
import * as acp from '@agentclientprotocol/sdk';
import {
  parseFileDirective,
  commandFor,
  createRealAgent,
  realAgentsInstalled,
  REAL_AGENTS_SETUP_HINT,
  type RealAgentPreset,
  type RealAgentProcess,
} from './index';
import type { AgentDefinition } from '../types';
import { skipOrFail } from '../../../support/skipOrFail';

type AnswerKind = 'allow_once' | 'reject_once';

interface RunResult {
  readonly cwd: string;
  readonly sessionId: string;
  readonly permissionRequests: acp.RequestPermissionRequest[];
  readonly answers: acp.RequestPermissionResponse[];
  /** tool_call / tool_call_update notifications, with whether they arrived before the first permission request. */
  readonly toolUpdates: { update: acp.SessionUpdate; beforeFirstRequest: boolean }[];
  readonly stopReasons: acp.StopReason[];
  readonly agent: RealAgentProcess;
  /** The agent process's environment as the kernel saw it right after spawn (Linux /proc). */
  readonly environ: Record<string, string> | undefined;
  /** After dispose(): no process of the agent's group is left, and the private HOME is gone. */
  readonly afterDispose: { groupAlive: boolean; homeExists: boolean | undefined; exit: unknown };
}

function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

const PROMPT_TIMEOUT_MS = 45_000;

function readEnviron(pid: number): Record<string, string> | undefined {
  try {
    const raw = fs.readFileSync(`/proc/${pid}/environ`, 'utf8');
    return Object.fromEntries(
      raw
        .split('\0')
        .filter(Boolean)
        .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
    );
  } catch {
    return undefined; // not Linux
  }
}

function withTimeout<T>(p: Promise<T>, ms: number, what: () => string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms: ${what()}`)), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

/**
 * One conversation: spawn, initialize, session/new, then the prompts in order. Permission request i is answered with
 * the first offered option of kind answers[i] (the last entry repeats).
 */
async function runOnce(
  preset: RealAgentPreset,
  answerKinds: AnswerKind | AnswerKind[],
  prompts: string | string[],
  cwd: string,
): Promise<RunResult> {
  const kinds = Array.isArray(answerKinds) ? answerKinds : [answerKinds];
  const launcher = createRealAgent(preset);
  const agent = await launcher({
    conversationId: randomUUID(),
    cwd,
    env: { FOUNTAIN_TOKEN: 'must-not-leak', ANTHROPIC_API_KEY: 'sk-real-must-not-leak', FOUNTAIN_CONVERSATION: 'c1' },
  });
  const environ = readEnviron(agent.pid);
  const permissionRequests: acp.RequestPermissionRequest[] = [];
  const answers: acp.RequestPermissionResponse[] = [];
  const toolUpdates: RunResult['toolUpdates'] = [];
  const app = acp
    .client({ name: 'fountain-real-agent-test' })
    .onRequest(acp.methods.client.session.requestPermission, ({ params }) => {
      permissionRequests.push(params);
      const answer = kinds[Math.min(permissionRequests.length - 1, kinds.length - 1)];
      const option = params.options.find((o) => o.kind === answer);
      // Only ever an offered id; if the kind is missing we cancel, and the assertions below fail.
      const response: acp.RequestPermissionResponse = option
        ? { outcome: { outcome: 'selected', optionId: option.optionId } }
        : { outcome: { outcome: 'cancelled' } };
      answers.push(response);
      return response;
    })
    .onNotification(acp.methods.client.session.update, ({ params }) => {
      const u = params.update;
      if (u.sessionUpdate === 'tool_call' || u.sessionUpdate === 'tool_call_update') {
        toolUpdates.push({ update: u, beforeFirstRequest: permissionRequests.length === 0 });
      }
    });
  const connection = app.connect(acp.ndJsonStream(agent.input, agent.output));
  const diag = () => `${preset}; model requests ${JSON.stringify(agent.modelRequests)}; stderr: ${agent.stderrTail()}`;
  try {
    const init = await withTimeout(
      connection.agent.request(acp.methods.agent.initialize, {
        protocolVersion: acp.PROTOCOL_VERSION,
        clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
        clientInfo: { name: 'fountain-real-agent-test', version: '0.0.0' },
      }),
      PROMPT_TIMEOUT_MS,
      diag,
    );
    assert.equal(init.protocolVersion, acp.PROTOCOL_VERSION);
    const session = await withTimeout(
      connection.agent.request(acp.methods.agent.session.new, { cwd, mcpServers: [] }),
      PROMPT_TIMEOUT_MS,
      diag,
    );
    const stopReasons: acp.StopReason[] = [];
    for (const text of Array.isArray(prompts) ? prompts : [prompts]) {
      const result = await withTimeout(
        connection.agent.request(acp.methods.agent.session.prompt, {
          sessionId: session.sessionId,
          prompt: [{ type: 'text', text }],
        }),
        PROMPT_TIMEOUT_MS,
        diag,
      );
      stopReasons.push(result.stopReason);
    }
    connection.close();
    await agent.dispose();
    await agent.dispose(); // idempotent
    const home = environ?.HOME;
    return {
      cwd,
      sessionId: session.sessionId,
      permissionRequests,
      answers,
      toolUpdates,
      stopReasons,
      agent,
      environ,
      afterDispose: {
        groupAlive: groupAlive(agent.pid),
        homeExists: home === undefined ? undefined : fs.existsSync(home),
        exit: await agent.exited,
      },
    };
  } finally {
    connection.close();
    await agent.dispose();
  }
}

function assertShellPermissionShape(run: RunResult, preset: RealAgentPreset, fileName: string, command: string) {
  assert.equal(run.permissionRequests.length, 1, 'exactly one permission request for one shell command');
  const req = run.permissionRequests[0];
  assert.equal(req.sessionId, run.sessionId);

  // Options: three, unique ids, non-empty names; one each of allow_always, allow_once, reject_once; no reject_always.
  // Observed ids: claude allow_always/"Always Allow", allow/"Allow", reject/"Reject";
  //               gemini proceed_always/"Allow for this session", proceed_once/"Allow", cancel/"Reject".
  const kinds = req.options.map((o) => o.kind).sort();
  assert.deepEqual(kinds, ['allow_always', 'allow_once', 'reject_once']);
  assert.equal(new Set(req.options.map((o) => o.optionId)).size, req.options.length, 'option ids are unique');
  for (const o of req.options) {
    assert.ok(typeof o.optionId === 'string' && o.optionId.length > 0);
    assert.ok(typeof o.name === 'string' && o.name.length > 0);
  }

  // toolCall: an id, kind execute, the command as title, a text content block describing it.
  const tc = req.toolCall;
  assert.ok(typeof tc.toolCallId === 'string' && tc.toolCallId.length > 0);
  assert.equal(tc.kind, 'execute');
  assert.ok(tc.title?.includes(fileName), `title names the command: ${tc.title}`);
  assert.ok(
    tc.content?.some((c) => c.type === 'content' && c.content.type === 'text' && c.content.text.includes(fileName)),
    `content describes the command: ${JSON.stringify(tc.content)}`,
  );
  const toolUpdatesBefore = run.toolUpdates.filter(
    (t) => t.beforeFirstRequest && 'toolCallId' in t.update && t.update.toolCallId === tc.toolCallId,
  );
  if (preset === 'claude') {
    // claude: title is the exact command, rawInput is the Bash input; a pending tool_call was announced first.
    assert.equal(tc.title, command);
    assert.deepEqual(tc.rawInput, { command, description: `Create ${fileName}` });
    assert.ok(
      toolUpdatesBefore.some((t) => t.update.sessionUpdate === 'tool_call'),
      'claude announces the tool_call before asking',
    );
  } else {
    // gemini: no rawInput, status pending, toolCallId "<tool>__<callId>", and the request is the first sighting.
    assert.equal(tc.title, command);
    assert.equal(tc.rawInput, undefined);
    assert.equal(tc.status, 'pending');
    assert.match(tc.toolCallId, /^run_shell_command__/);
    assert.equal(toolUpdatesBefore.length, 0, 'gemini sends no tool_call before the request');
  }
}

const PRESETS: RealAgentPreset[] = ['claude', 'gemini'];

describe('fake model prompt directive', () => {
  it('derives file name and content from prompt text, also inside JSON-escaped request bodies', () => {
    const prompt = 'Please create file out-1.txt containing hello there. Then stop.';
    assert.deepEqual(parseFileDirective(prompt), { fileName: 'out-1.txt', content: 'hello there' });
    assert.deepEqual(parseFileDirective(JSON.stringify([{ role: 'user', content: prompt }])), {
      fileName: 'out-1.txt',
      content: 'hello there',
    });
    assert.deepEqual(parseFileDirective('create file a.txt containing x\nmore'), { fileName: 'a.txt', content: 'x' });
    assert.equal(commandFor({ fileName: 'a.txt', content: 'x y' }), "printf '%s\\n' 'x y' > a.txt");
  });

  it('never yields shell metacharacters or option-like names', () => {
    assert.equal(parseFileDirective('create file $(rm -rf ~) containing x'), undefined);
    assert.equal(parseFileDirective('create file -rf containing x'), undefined);
    assert.equal(parseFileDirective('create file .. containing x'), undefined);
    assert.deepEqual(parseFileDirective('create file a;b containing x'), undefined);
    const d = parseFileDirective("create file ok.txt containing it's $(evil)");
    assert.deepEqual(d, { fileName: 'ok.txt', content: 'it' });
    assert.equal(parseFileDirective('no directive here'), undefined);
  });
});

describe('real ACP agents behind createRealAgent (fake model on 127.0.0.1)', function () {
  this.timeout(60_000);
  const dirs: string[] = [];
  const tempCwd = () => {
    const d = fs.mkdtempSync(path.join(os.tmpdir(), 'fountain-real-cwd-'));
    dirs.push(d);
    return d;
  };
  after(() => {
    for (const d of dirs) {
      fs.rmSync(d, { recursive: true, force: true });
    }
  });

  it('exposes launcher metadata', () => {
    const a = createRealAgent('claude');
    const asDefinition: AgentDefinition = a; // type-level: usable wherever the server takes agent definitions
    assert.equal(asDefinition.launch, a.launch);
    assert.deepEqual(a.policy, { default: 'ask' });
    assert.deepEqual(createRealAgent('gemini', { policy: { default: 'auto_deny' } }).policy, { default: 'auto_deny' });
    assert.equal(a.id, 'real-claude');
    assert.equal(a.runtime, 'claude');
    assert.equal(typeof a.name, 'string');
    assert.equal(typeof a.launch, 'function');
    assert.equal(createRealAgent('gemini').id, 'real-gemini');
  });

  it('reports a missing install instead of spawning, with the setup hint', async () => {
    const nowhere = path.join(os.tmpdir(), `fountain-no-agents-${randomUUID()}`);
    assert.equal(realAgentsInstalled('claude', nowhere), false);
    const launch = createRealAgent('claude', { runtimeDir: nowhere });
    await assert.rejects(launch({ conversationId: randomUUID(), cwd: tempCwd(), env: {} }), (e: Error) =>
      e.message.includes('setup-acp-agents.sh'),
    );
  });

  for (const preset of PRESETS) {
    describe(preset, () => {
      before(function () {
        if (!realAgentsInstalled(preset)) {
          skipOrFail(this, `${preset}: ${REAL_AGENTS_SETUP_HINT}`);
        }
      });

      it('asks session/request_permission for the shell command; allow_once runs it in cwd', async () => {
        const fileName = `approved-${preset}-${randomUUID().slice(0, 8)}.txt`;
        const content = `approved by fountain ${preset}`;
        const command = commandFor({ fileName, content });
        const cwd = tempCwd();
        const run = await runOnce(preset, 'allow_once', `Please create file ${fileName} containing ${content}.`, cwd);

        assertShellPermissionShape(run, preset, fileName, command);
        const allow = run.permissionRequests[0].options.find((o) => o.kind === 'allow_once')!;
        assert.deepEqual(run.answers, [{ outcome: { outcome: 'selected', optionId: allow.optionId } }]);
        assert.equal(fs.readFileSync(path.join(cwd, fileName), 'utf8'), `${content}\n`);
        assert.deepEqual(run.stopReasons, ['end_turn']);
        const id = run.permissionRequests[0].toolCall.toolCallId;
        assert.ok(
          run.toolUpdates.some(
            (t) =>
              t.update.sessionUpdate === 'tool_call_update' &&
              t.update.toolCallId === id &&
              t.update.status === 'completed',
          ),
          'the tool call is reported completed',
        );
        // The environment was built from scratch: caller's FOUNTAIN_TOKEN and real keys never reach the agent,
        // other caller variables do, HOME is a private temp dir, and the model URL is the loopback fake.
        if (run.environ) {
          assert.equal(run.environ.FOUNTAIN_TOKEN, undefined);
          assert.equal(run.environ.FOUNTAIN_CONVERSATION, 'c1');
          assert.notEqual(run.environ.HOME, os.homedir());
          assert.ok(!Object.values(run.environ).includes('sk-real-must-not-leak'));
          const baseUrl = run.environ.ANTHROPIC_BASE_URL ?? run.environ.GOOGLE_GEMINI_BASE_URL;
          assert.match(baseUrl ?? '', /^http:\/\/127\.0\.0\.1:\d+$/);
          for (const key of Object.keys(process.env)) {
            if (
              !['PATH', 'LANG', 'HOME', 'TMPDIR', 'TERM', 'NO_COLOR', 'CI'].includes(key) &&
              /KEY|TOKEN|SECRET/i.test(key)
            ) {
              assert.equal(run.environ[key], undefined, `${key} leaked from the test process`);
            }
          }
        }
        // dispose() left nothing behind: the agent's whole process group is gone and its temp HOME removed.
        assert.equal(run.afterDispose.groupAlive, false);
        assert.equal(run.afterDispose.homeExists, run.environ ? false : undefined);
        // The model got a second turn carrying the tool result.
        assert.ok(run.agent.modelRequests.some((r) => r.kind === 'main' && r.lastMessage !== undefined));
      });

      it('reject_once: the command never runs and no file appears', async () => {
        const fileName = `rejected-${preset}-${randomUUID().slice(0, 8)}.txt`;
        const content = 'should not exist';
        const command = commandFor({ fileName, content });
        const cwd = tempCwd();
        const run = await runOnce(preset, 'reject_once', `Please create file ${fileName} containing ${content}.`, cwd);

        assertShellPermissionShape(run, preset, fileName, command);
        const reject = run.permissionRequests[0].options.find((o) => o.kind === 'reject_once')!;
        assert.deepEqual(run.answers, [{ outcome: { outcome: 'selected', optionId: reject.optionId } }]);
        assert.equal(fs.existsSync(path.join(cwd, fileName)), false);
        assert.deepEqual(fs.readdirSync(cwd), [], 'cwd stays empty');
        assert.equal(run.afterDispose.groupAlive, false);
        assert.deepEqual(run.stopReasons, ['end_turn']);
        // Both agents report the refusal to the model (claude: is_error tool_result; gemini: "canceled by the user").
        const second = run.agent.modelRequests.find((r) => r.kind === 'main' && r.lastMessage !== undefined);
        assert.ok(second?.lastMessage && /refused|cancel/i.test(second.lastMessage), JSON.stringify(second));
      });

      // One preset is enough for the multi-prompt case (keeps the file well under 30 s on 2 cores); gemini behaves
      // the same in the shared captures (shell-allow_once-2prompts).
      if (preset === 'claude') {
        it('asks again for each prompt of one session; answers apply per request (allow_once, then reject_once)', async () => {
          const tag = randomUUID().slice(0, 8);
          const first = `first-${tag}.txt`;
          const second = `second-${tag}.txt`;
          const cwd = tempCwd();
          const run = await runOnce(
            preset,
            ['allow_once', 'reject_once'],
            [`create file ${first} containing one`, `create file ${second} containing two`],
            cwd,
          );
          assert.equal(run.permissionRequests.length, 2, 'allow_once is not remembered: the second prompt asks again');
          assert.ok(run.permissionRequests[0].toolCall.title?.includes(first));
          assert.ok(run.permissionRequests[1].toolCall.title?.includes(second));
          assert.notEqual(run.permissionRequests[0].toolCall.toolCallId, run.permissionRequests[1].toolCall.toolCallId);
          assert.deepEqual(run.stopReasons, ['end_turn', 'end_turn']);
          assert.deepEqual(fs.readdirSync(cwd), [first]);
          assert.equal(fs.readFileSync(path.join(cwd, first), 'utf8'), 'one\n');
        });
      }
    });
  }
});
