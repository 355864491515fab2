import * as assert from 'node:assert/strict';
import { checkNarrows, explainVerdict, mergePolicies, verdictOf } from '../../../src/policy';

describe('policy merge (agent × launch)', () => {
  describe('mergePolicies', () => {
    it('takes the stricter value per key over the union of keys, and the stricter default', () => {
      const agent = { default: 'auto_allow', Bash: 'ask', edit: 'auto_deny' };
      const launch = { Bash: 'auto_deny', execute: 'ask' };
      assert.deepEqual(mergePolicies(agent, launch), {
        Bash: 'auto_deny',
        edit: 'auto_deny',
        execute: 'ask',
        default: 'auto_allow',
      });
    });

    it("reads a key one side lacks through that side's default, so a launch that lowers only default cannot loosen a key", () => {
      // The agent covers `read` by its default (ask); the launch names read=auto_allow.
      assert.deepEqual(mergePolicies({ default: 'ask' }, { read: 'auto_allow', default: 'auto_deny' }), {
        read: 'ask',
        default: 'auto_deny',
      });
      // A key only the agent names, against a launch whose default is stricter.
      assert.deepEqual(mergePolicies({ Bash: 'auto_allow' }, { default: 'ask' }), { Bash: 'ask', default: 'ask' });
      // Neither side has a default: the missing side gives auto_allow.
      assert.deepEqual(mergePolicies({ Bash: 'ask' }, {}), { Bash: 'ask', default: 'auto_allow' });
    });

    it('keeps the shorter readable ask_timeout, either alone, none when neither is readable', () => {
      assert.equal(mergePolicies({ ask_timeout: 3600 }, { ask_timeout: '600' }).ask_timeout, 600);
      assert.equal(mergePolicies({ ask_timeout: 3600 }, {}).ask_timeout, 3600);
      assert.equal(mergePolicies({}, { ask_timeout: '7200' }).ask_timeout, 7200);
      assert.equal(mergePolicies({ ask_timeout: 'soon' }, { ask_timeout: 900 }).ask_timeout, 900);
      assert.equal(Object.hasOwn(mergePolicies({ ask_timeout: 0 }, { ask_timeout: 31_536_001 }), 'ask_timeout'), false);
    });

    it('writes only verdicts: junk reads as auto_deny, and ask_timeout never becomes a tool key', () => {
      assert.deepEqual(mergePolicies({ Bash: 'yes please', ask_timeout: 60 }, { default: 7 }), {
        Bash: 'auto_deny',
        default: 'auto_deny',
        ask_timeout: 60,
      });
    });

    it('treats null, undefined and non-objects as empty policies', () => {
      assert.deepEqual(mergePolicies(null, undefined), { default: 'auto_allow' });
      assert.deepEqual(mergePolicies(['auto_deny'] as unknown as Record<string, unknown>, { execute: 'ask' }), {
        execute: 'ask',
        default: 'auto_allow',
      });
    });

    it('keeps a "__proto__" key as an ordinary own key', () => {
      const agent = JSON.parse('{"__proto__": "auto_deny"}') as Record<string, unknown>;
      const merged = mergePolicies(agent, {});
      assert.equal(Object.getPrototypeOf(merged), Object.prototype);
      assert.deepEqual(Object.keys(merged).sort(), ['__proto__', 'default']);
      assert.equal(verdictOf(merged, { title: '__proto__' }).verdict, 'auto_deny');
    });

    it("reproduces the server's per-key clamp: a title named by one side outranks the other side's kind key", () => {
      // Fountain merges per key, and lookup tries the title before the kind, so the agent's pre-approval of one
      // exact command survives a launch that denies every shell command. This pins that behaviour.
      const agent = { 'git push': 'auto_allow' };
      const launch = { execute: 'auto_deny' };
      const merged = mergePolicies(agent, launch);
      assert.deepEqual(merged, { 'git push': 'auto_allow', execute: 'auto_deny', default: 'auto_allow' });
      assert.equal(verdictOf(launch, { title: 'git push', kind: 'execute' }).verdict, 'auto_deny');
      assert.equal(verdictOf(merged, { title: 'git push', kind: 'execute' }).verdict, 'auto_allow');
      // ...and the launch passes the narrowing check, so the server accepts it.
      assert.deepEqual(checkNarrows(agent, launch), { ok: true });
    });
    it("reproduces the server's per-key clamp the other way round: a launch title key can loosen the agent's kind key", () => {
      // The agent denies every shell command; the launch names one command as auto_allow and repeats the agent's
      // execute rule. Every key passes the narrowing check (the agent gives "git push" only its default), yet the
      // effective policy allows that command. Fountain accepts this launch; the client must not claim otherwise.
      const agent = { execute: 'auto_deny' };
      const launch = { 'git push': 'auto_allow', execute: 'auto_deny' };
      assert.deepEqual(checkNarrows(agent, launch), { ok: true });
      const req = { title: 'git push', kind: 'execute' };
      assert.equal(verdictOf(agent, req).verdict, 'auto_deny');
      assert.equal(verdictOf(mergePolicies(agent, launch), req).verdict, 'auto_allow');
      const e = explainVerdict(agent, launch, req);
      assert.deepEqual([e.verdict, e.key, e.source, e.loosened], ['auto_allow', 'git push', 'launch', true]);
    });
  });

  describe('checkNarrows', () => {
    it('accepts a launch that is equal or stricter everywhere', () => {
      assert.deepEqual(checkNarrows({ default: 'ask', Bash: 'auto_deny' }, { default: 'auto_deny' }), { ok: true });
      assert.deepEqual(checkNarrows({}, {}), { ok: true });
      assert.deepEqual(checkNarrows(null, { execute: 'ask' }), { ok: true });
      assert.deepEqual(checkNarrows({ execute: 'ask' }, { execute: 'ask', edit: 'auto_deny' }), { ok: true });
    });

    it('names the key a launch would loosen', () => {
      assert.deepEqual(checkNarrows({ Bash: 'auto_deny' }, { Bash: 'ask' }), { ok: false, key: 'Bash' });
      assert.deepEqual(checkNarrows({ execute: 'ask' }, { edit: 'auto_deny' }), { ok: false, key: 'execute' });
    });

    it('catches a launch that only lowers default', () => {
      assert.deepEqual(checkNarrows({ default: 'ask' }, { default: 'auto_allow' }), { ok: false, key: 'default' });
      // A key only the launch names is compared with the agent's default.
      assert.deepEqual(checkNarrows({ default: 'auto_deny' }, { read: 'ask', default: 'auto_deny' }), {
        ok: false,
        key: 'read',
      });
    });

    it('names the first loosened key in server order: agent keys first, each side sorted, then default', () => {
      const agent = { zeta: 'ask', alpha: 'ask', default: 'ask' };
      const launch = { zeta: 'auto_allow', alpha: 'auto_allow', beta: 'auto_allow', default: 'auto_allow' };
      assert.deepEqual(checkNarrows(agent, launch), { ok: false, key: 'alpha' });
      assert.deepEqual(checkNarrows({ default: 'ask' }, { m: 'auto_allow', b: 'auto_allow', default: 'ask' }), {
        ok: false,
        key: 'b',
      });
    });

    it('counts a junk launch value as auto_deny (never a loosening) and a junk agent value as auto_deny', () => {
      assert.deepEqual(checkNarrows({ Bash: 'ask' }, { Bash: 'nope' }), { ok: true });
      assert.deepEqual(checkNarrows({ Bash: 'nope' }, { Bash: 'ask' }), { ok: false, key: 'Bash' });
    });

    it("refuses a longer ask_timeout than the agent's", () => {
      assert.deepEqual(checkNarrows({ ask_timeout: 600 }, { ask_timeout: 601 }), { ok: false, key: 'ask_timeout' });
      assert.deepEqual(checkNarrows({ ask_timeout: 600 }, { ask_timeout: '600' }), { ok: true });
      assert.deepEqual(checkNarrows({ ask_timeout: 600 }, { ask_timeout: 60 }), { ok: true });
      assert.deepEqual(checkNarrows({ ask_timeout: 600 }, {}), { ok: true });
    });

    it('holds a launch ask_timeout to the 300 s ceiling when the agent names none', () => {
      assert.deepEqual(checkNarrows({}, { ask_timeout: 300 }), { ok: true });
      assert.deepEqual(checkNarrows({}, { ask_timeout: 301 }), { ok: false, key: 'ask_timeout' });
      assert.deepEqual(checkNarrows({ ask_timeout: 'soon' }, { ask_timeout: 301 }), { ok: false, key: 'ask_timeout' });
      assert.deepEqual(checkNarrows({}, { ask_timeout: 900 }, { ceilingSec: 1200 }), { ok: true });
      assert.deepEqual(checkNarrows({}, { ask_timeout: 900 }, { ceilingSec: 'garbage' }), {
        ok: false,
        key: 'ask_timeout',
      });
    });

    it('reports a loosened verdict before a longer timeout', () => {
      assert.deepEqual(checkNarrows({ Bash: 'ask' }, { Bash: 'auto_allow', ask_timeout: 9999 }), {
        ok: false,
        key: 'Bash',
      });
    });
  });

  describe('explainVerdict', () => {
    it('names the title rule and its policy', () => {
      const e = explainVerdict(
        { default: 'auto_allow' },
        { 'git push': 'ask' },
        { title: 'git push', kind: 'execute' },
      );
      assert.equal(e.verdict, 'ask');
      assert.equal(e.key, 'git push');
      assert.equal(e.source, 'launch');
      assert.equal(e.matchedKey, 'git push');
      assert.equal(e.loosened, false);
    });

    it('names the kind rule', () => {
      const e = explainVerdict(
        { execute: 'auto_deny' },
        { execute: 'ask' },
        { title: 'rm -rf build', kind: 'execute' },
      );
      assert.deepEqual([e.verdict, e.key, e.source], ['auto_deny', 'execute', 'agent']);
    });

    it("names the default that won a key the other side named, rather than the merged map's key", () => {
      // Effective map: Bash = stricter(agent default auto_deny, launch Bash ask) = auto_deny, from the agent's default.
      const e = explainVerdict({ default: 'auto_deny' }, { Bash: 'ask', default: 'auto_deny' }, { title: 'Bash' });
      assert.deepEqual([e.verdict, e.key, e.source, e.matchedKey], ['auto_deny', 'default', 'agent', 'Bash']);
    });

    it('says agent when both give the same strictness', () => {
      const e = explainVerdict({ execute: 'ask' }, { execute: 'ask' }, { kind: 'execute' });
      assert.deepEqual([e.verdict, e.key, e.source], ['ask', 'execute', 'agent']);
    });

    it('says launch on a tie when only the launch actually states the rule', () => {
      const e = explainVerdict({}, { execute: 'auto_allow' }, { kind: 'execute' });
      assert.deepEqual([e.verdict, e.key, e.source], ['auto_allow', 'execute', 'launch']);
    });

    it('says builtin, with no key, when neither policy has anything to say', () => {
      for (const [agent, launch] of [
        [{}, {}],
        [null, undefined],
        [{ edit: 'auto_deny' }, { read: 'auto_allow' }],
      ] as const) {
        const e = explainVerdict(agent, launch, { title: 'ls', kind: 'execute' });
        assert.deepEqual([e.verdict, e.key, e.source], ['auto_allow', null, 'builtin']);
      }
    });

    it('names a default that decided a request no key matched', () => {
      const e = explainVerdict({ default: 'ask' }, { default: 'auto_allow' }, { kind: 'fetch' });
      assert.deepEqual([e.verdict, e.key, e.source, e.matchedKey], ['ask', 'default', 'agent', 'default']);
      const f = explainVerdict({}, { default: 'auto_deny' }, { kind: 'fetch' });
      assert.deepEqual([f.verdict, f.key, f.source], ['auto_deny', 'default', 'launch']);
    });

    it('flags the per-key clamp letting a request through that one policy alone would stop', () => {
      const e = explainVerdict(
        { 'git push': 'auto_allow' },
        { execute: 'auto_deny' },
        { title: 'git push', kind: 'execute' },
      );
      assert.deepEqual([e.verdict, e.key, e.source], ['auto_allow', 'git push', 'agent']);
      assert.deepEqual(e.alone, { agent: 'auto_allow', launch: 'auto_deny' });
      assert.equal(e.loosened, true);
    });

    it('reports a junk stored value as the auto_deny it is read as', () => {
      const e = explainVerdict({ Bash: 'sure' }, {}, { title: 'Bash' });
      assert.deepEqual([e.verdict, e.key, e.source], ['auto_deny', 'Bash', 'agent']);
    });
  });
});
