import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  autoOutcome,
  checkNarrows,
  effectiveTimeoutSec,
  explainVerdict,
  mergePolicies,
  verdictOf,
  type OptionLike,
  type Verdict,
} from '../../../src/policy';

// An independent reference reading of the rules, written from the protocol notes, used as the oracle below.
const RANK: Record<Verdict, number> = { auto_allow: 0, ask: 1, auto_deny: 2 };
type Policy = Record<string, unknown>;

const has = (p: Policy, k: string) => Object.prototype.hasOwnProperty.call(p, k);
/** The value a policy holds for a tool key, or undefined (reserved key, missing, or null). */
function valueOf(p: Policy, k: string): unknown {
  if (k === 'ask_timeout' || !has(p, k) || p[k] === null) {
    return undefined;
  }
  return p[k];
}
const read = (v: unknown): Verdict => (v === 'auto_allow' || v === 'ask' || v === 'auto_deny' ? v : 'auto_deny');
/** What a policy gives one key on its own: the key, else default, else auto_allow. */
function keyVerdict(p: Policy, k: string): Verdict {
  const own = valueOf(p, k);
  if (own !== undefined) {
    return read(own);
  }
  const d = valueOf(p, 'default');
  return d === undefined ? 'auto_allow' : read(d);
}
const usable = (s: unknown): s is string => typeof s === 'string' && s !== '' && s !== 'ask_timeout';
/** A request's verdict: title, kind, default, auto_allow. */
function lookup(p: Policy, req: Req): Verdict {
  for (const k of [req.title, req.kind]) {
    if (usable(k) && valueOf(p, k) !== undefined) {
      return read(valueOf(p, k));
    }
  }
  return keyVerdict(p, 'default');
}
function seconds(v: unknown): number | undefined {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\+?\d+$/.test(v) ? parseInt(v, 10) : NaN;
  return Number.isInteger(n) && n >= 1 && n <= 31_536_000 ? n : undefined;
}
const toolKeysOf = (p: Policy) => Object.keys(p).filter((k) => k !== 'default' && k !== 'ask_timeout');

interface Req {
  title: string | null;
  kind: string | null;
}

const KEYS = ['Bash', 'git push', 'execute', 'edit', 'read', 'default', '__proto__', 'constructor'];
const valueArb = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom<unknown>('auto_allow', 'ask', 'auto_deny') },
  { weight: 1, arbitrary: fc.constantFrom<unknown>('nope', 1, null, {}, 'AUTO_ALLOW') },
);
const timeoutArb = fc.oneof(
  fc.integer({ min: -5, max: 900 }),
  fc.constantFrom<unknown>('600', '120', 'soon', 31_536_001, 1.5, null),
);
const policyArb: fc.Arbitrary<Policy> = fc
  .tuple(
    fc.uniqueArray(fc.tuple(fc.constantFrom(...KEYS), valueArb), { maxLength: 6, selector: ([k]) => k }),
    fc.option(timeoutArb, { nil: undefined }),
  )
  .map(([entries, timeout]) =>
    Object.fromEntries(timeout === undefined ? entries : [...entries, ['ask_timeout', timeout] as [string, unknown]]),
  );
const reqArb: fc.Arbitrary<Req> = fc.record({
  title: fc.option(fc.constantFrom(...KEYS, 'ls -la', '', 'ask_timeout'), { nil: null }),
  kind: fc.option(fc.constantFrom('execute', 'edit', 'read', 'fetch', 'Bash', ''), { nil: null }),
});

const RUNS = { numRuns: 400 };

describe('policy properties', () => {
  it('verdictOf agrees with the reference lookup', () => {
    fc.assert(
      fc.property(policyArb, reqArb, (p, req) => {
        assert.equal(verdictOf(p, req).verdict, lookup(p, req));
      }),
      RUNS,
    );
  });

  it('a merge is never looser than either input, for every key', () => {
    fc.assert(
      fc.property(policyArb, policyArb, fc.constantFrom(...KEYS, 'unnamed'), (a, l, key) => {
        const m = mergePolicies(a, l);
        const got = RANK[keyVerdict(m, key)];
        assert.ok(got >= RANK[keyVerdict(a, key)] && got >= RANK[keyVerdict(l, key)]);
        // and no stricter than it has to be
        assert.equal(got, Math.max(RANK[keyVerdict(a, key)], RANK[keyVerdict(l, key)]));
      }),
      RUNS,
    );
  });

  it('a merge is never looser than either input for a request, except through a title only one side gives a value', () => {
    // Fountain clamps per key and looks a title up before a kind, so a title key one side names can beat the other
    // side's stricter kind key (see merge.test.ts). This pins that this is the only way a request is loosened.
    fc.assert(
      fc.property(policyArb, policyArb, reqArb, (a, l, req) => {
        const m = mergePolicies(a, l);
        const got = RANK[lookup(m, req)];
        const worst = Math.max(RANK[lookup(a, req)], RANK[lookup(l, req)]);
        if (got < worst) {
          const t = req.title;
          assert.ok(usable(t), 'loosened without a title');
          assert.ok(t === 'default' || has(a, t) || has(l, t), 'loosened through a title the merge does not name');
          assert.ok(
            valueOf(a, t) === undefined || valueOf(l, t) === undefined,
            'loosened though both sides name the title',
          );
        }
        // On every request with no such title, the merge is at least as strict as both inputs.
        const t = req.title;
        const maybeLeaky = usable(t) && (valueOf(a, t) === undefined || valueOf(l, t) === undefined);
        if (!maybeLeaky) {
          assert.ok(got >= worst);
        }
      }),
      RUNS,
    );
  });

  it('checkNarrows passes exactly when the merge gives every key what the launch gives it, and the timeout is no longer', () => {
    fc.assert(
      fc.property(policyArb, policyArb, (a, l) => {
        const m = mergePolicies(a, l);
        const keys = [...new Set([...toolKeysOf(a), ...toolKeysOf(l), 'default', 'unnamed'])];
        const verdictsUnchanged = keys.every((k) => keyVerdict(m, k) === keyVerdict(l, k));
        const lt = seconds(l['ask_timeout']);
        const at = seconds(a['ask_timeout']);
        const timeoutOk = lt === undefined || lt <= (at ?? 300);
        assert.equal(checkNarrows(a, l).ok, verdictsUnchanged && timeoutOk);
        // The merged timeout is the launch's whenever the launch names a readable one and passes.
        if (checkNarrows(a, l).ok) {
          assert.equal(seconds(m['ask_timeout']), lt ?? at);
        }
      }),
      { numRuns: 800 },
    );
  });

  it('when checkNarrows passes, the merge answers every request as the launch does, unless the launch gives the title no value', () => {
    fc.assert(
      fc.property(policyArb, policyArb, reqArb, (a, l, req) => {
        fc.pre(checkNarrows(a, l).ok);
        const m = mergePolicies(a, l);
        const t = req.title;
        const launchSilentOnNamedTitle =
          usable(t) && (t === 'default' || has(a, t) || has(l, t)) && valueOf(l, t) === undefined;
        if (!launchSilentOnNamedTitle) {
          assert.equal(lookup(m, req), lookup(l, req));
        }
      }),
      RUNS,
    );
  });

  it('explainVerdict gives the merged verdict and a rule that really says so', () => {
    fc.assert(
      fc.property(policyArb, policyArb, reqArb, (a, l, req) => {
        const e = explainVerdict(a, l, req);
        assert.equal(e.verdict, lookup(mergePolicies(a, l), req));
        assert.deepEqual(e.alone, { agent: lookup(a, req), launch: lookup(l, req) });
        if (e.source === 'builtin') {
          assert.equal(e.key, null);
          assert.equal(e.verdict, 'auto_allow');
          for (const p of [a, l]) {
            assert.equal(valueOf(p, e.matchedKey), undefined);
            assert.equal(valueOf(p, 'default'), undefined);
          }
        } else {
          const p = e.source === 'agent' ? a : l;
          assert.notEqual(e.key, null);
          assert.ok(e.key === e.matchedKey || e.key === 'default');
          assert.equal(read(valueOf(p, e.key)), e.verdict);
          if (e.source === 'launch') {
            // the agent's reading of that key is strictly looser, or it had nothing to say
            const other = a;
            const agentSaid = valueOf(other, e.matchedKey) !== undefined || valueOf(other, 'default') !== undefined;
            assert.ok(!agentSaid || RANK[keyVerdict(other, e.matchedKey)] < RANK[e.verdict]);
          }
        }
      }),
      RUNS,
    );
  });

  describe('automatic outcomes', () => {
    const KINDS = ['allow_once', 'allow_always', 'reject_once', 'reject_always', 'switch_mode', 'other'];
    const optionArb = fc.oneof(
      { weight: 10, arbitrary: fc.record({ optionId: fc.string({ maxLength: 6 }), kind: fc.constantFrom(...KINDS) }) },
      {
        weight: 1,
        arbitrary: fc.constantFrom<unknown>(
          null,
          'reject_once',
          { optionId: 3, kind: 'reject_once' },
          { kind: 'allow_once' },
        ),
      },
    );
    const optionsArb = fc.array(optionArb, { maxLength: 6 }) as fc.Arbitrary<OptionLike[]>;
    const offered = (opts: readonly unknown[]) =>
      opts.filter(
        (o): o is { optionId: string; kind: string } =>
          typeof o === 'object' && o !== null && typeof (o as { optionId?: unknown }).optionId === 'string',
      );

    it('only ever name an offered id', () => {
      fc.assert(
        fc.property(fc.constantFrom('auto_allow' as const, 'auto_deny' as const), optionsArb, (verdict, opts) => {
          const out = autoOutcome(verdict, opts);
          if (out.outcome === 'selected') {
            assert.ok(offered(opts).some((o) => o.optionId === out.optionId));
          } else {
            assert.deepEqual(out, { outcome: 'cancelled' });
          }
        }),
        RUNS,
      );
    });

    it('a deny only ever selects a reject option, and is cancelled only when none was offered', () => {
      fc.assert(
        fc.property(optionsArb, (opts) => {
          const out = autoOutcome('auto_deny', opts);
          const rejects = offered(opts).filter((o) => o.kind === 'reject_once' || o.kind === 'reject_always');
          if (out.outcome === 'selected') {
            const chosenKinds = rejects.filter((o) => o.optionId === out.optionId).map((o) => o.kind);
            assert.ok(chosenKinds.length > 0, 'selected a non-reject option');
            if (rejects.some((o) => o.kind === 'reject_always')) {
              assert.ok(chosenKinds.includes('reject_always'));
            }
          } else {
            assert.equal(rejects.length, 0);
          }
        }),
        RUNS,
      );
    });

    it('an allow selects an allow option whenever one was offered, allow_always first', () => {
      fc.assert(
        fc.property(optionsArb, (opts) => {
          const out = autoOutcome('auto_allow', opts);
          const allows = offered(opts).filter((o) => o.kind === 'allow_once' || o.kind === 'allow_always');
          if (allows.length > 0) {
            assert.equal(out.outcome, 'selected');
            const want = allows.find((o) => o.kind === 'allow_always') ?? allows[0];
            assert.deepEqual(out, { outcome: 'selected', optionId: want.optionId });
          }
        }),
        RUNS,
      );
    });
  });

  it('a detached deadline is never longer than a readable source, and an in-turn one is always the ceiling', () => {
    fc.assert(
      fc.property(fc.boolean(), timeoutArb, timeoutArb, (detached, meta, ask) => {
        const got = effectiveTimeoutSec({ detached, metaTimeout: meta, askTimeout: ask });
        if (!detached) {
          assert.equal(got, 300);
          return;
        }
        const sources = [seconds(meta), seconds(ask)].filter((s): s is number => s !== undefined);
        assert.equal(got, sources.length > 0 ? Math.min(...sources) : 300);
      }),
      RUNS,
    );
  });
});
