import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { addressClass } from '../../../src/policy/networkAddress';
import { compileHostPatterns, parseHostPattern, patternCoversHost, patternFor } from '../../../src/policy/networkHosts';
import { baseUrlHost, modelHosts } from '../../../src/policy/networkPresets';
import { decideConnection, type NetworkInput } from '../../../src/policy/network';
import type { GateMode } from '../../../src/policy';

function pattern(text: string) {
  const r = parseHostPattern(text);
  assert.ok(r.ok, `${text}: ${'problem' in r ? r.problem : ''}`);
  return r.pattern;
}
const covers = (p: string, host: string, port: number) => patternCoversHost(pattern(p), host, port);

function input(host: string, port: number, addresses: string[], more: Partial<NetworkInput> = {}): NetworkInput {
  return {
    attempt: { host, port, addresses },
    mode: 'ask',
    allowHosts: [],
    model: [],
    grants: [],
    ...more,
  };
}

describe('network host patterns (fountain.local.allowHosts)', () => {
  it('a name without a port covers 443 and 80 only', () => {
    assert.equal(covers('pypi.org', 'pypi.org', 443), true);
    assert.equal(covers('pypi.org', 'pypi.org', 80), true);
    assert.equal(covers('pypi.org', 'pypi.org', 8080), false);
    assert.equal(covers('pypi.org', 'files.pypi.org', 443), false);
    assert.equal(covers('pypi.org', 'pypi.org.evil.com', 443), false);
    assert.equal(covers('PyPI.org.', 'pypi.org', 443), true);
  });

  it('host:port covers that port, host:* every port', () => {
    assert.equal(covers('pypi.org:8443', 'pypi.org', 8443), true);
    assert.equal(covers('pypi.org:8443', 'pypi.org', 443), false);
    assert.equal(covers('pypi.org:*', 'pypi.org', 22), true);
    assert.equal(covers('127.0.0.1:8080', '127.0.0.1', 8080), true);
    assert.equal(covers('[::1]:8080', '::1', 8080), true);
    assert.equal(covers('[::1]:8080', '0:0:0:0:0:0:0:1', 8080), true);
    assert.equal(covers('::1', '::1', 443), true);
  });

  it('a * matches within one DNS label and never crosses a dot', () => {
    assert.equal(covers('*.googleapis.com', 'storage.googleapis.com', 443), true);
    assert.equal(covers('*.googleapis.com', 'googleapis.com', 443), false);
    assert.equal(covers('*.googleapis.com', 'a.b.googleapis.com', 443), false);
    assert.equal(covers('*.googleapis.com', 'evil.com/.googleapis.com', 443), false);
    assert.equal(covers('api-*.example.com', 'api-eu.example.com', 443), true);
    assert.equal(covers('api-*.example.com', 'api-eu.x.example.com', 443), false);
    // A name pattern never covers an IP literal, whatever its digits.
    assert.equal(covers('*.0.0.example', '127.0.0.1', 443), false);
  });

  it('a * never crosses a dot, for any host (property)', () => {
    const label = fc.stringMatching(/^[a-z0-9-]{1,10}$/);
    fc.assert(
      fc.property(fc.array(label, { minLength: 2, maxLength: 4 }), label, (deeper, top) => {
        const host = `${deeper.join('.')}.${top}.example.com`;
        assert.equal(covers(`*.${top}.example.com`, host, 443), deeper.length === 1);
      }),
    );
  });

  const invalid: [string, RegExp][] = [
    ['https://pypi.org', /scheme/],
    ['pypi.org/simple', /path/],
    ['user@pypi.org', /userinfo/],
    ['pypi .org', /whitespace/],
    ['pypi.org\n', /whitespace/],
    ['', /empty/],
    ['*', /last label/],
    ['*:443', /last label/],
    ['example.*', /last label/],
    ['*.*.*.1', /neither a host name nor an IP/],
    ['10.0.0.*', /last label/],
    ['10.*.0.1', /neither a host name nor an IP/],
    ['pypi..org', /empty label/],
    ['pypi.org:0', /port/],
    ['pypi.org:65536', /port/],
    ['pypi.org:http', /port/],
    ['::1:8080x', /IPv6/],
    ['[pypi.org]:443', /brackets/],
    ['py$pi.org', /label/],
  ];
  for (const [text, why] of invalid) {
    it(`refuses ${JSON.stringify(text)} with a clear problem`, () => {
      const r = parseHostPattern(text);
      assert.equal(r.ok, false);
      assert.match((r as { problem: string }).problem, why);
      assert.match((r as { problem: string }).problem, /^allowHosts: /);
    });
  }

  it('the setting: problems for the bad entries, the good ones kept', () => {
    const c = compileHostPatterns(['pypi.org', 'https://x.org', 3]);
    assert.deepEqual(
      c.patterns.map((p) => p.text),
      ['pypi.org'],
    );
    assert.equal(c.problems.length, 2);
    assert.match(compileHostPatterns('pypi.org').problems[0], /must be a list/);
  });

  it('the narrowest pattern for a grant: the host for 443/80, else host:port', () => {
    assert.equal(patternFor('pypi.org', 443), 'pypi.org');
    assert.equal(patternFor('pypi.org', 8443), 'pypi.org:8443');
    assert.equal(patternFor('::1', 8080), '[::1]:8080');
  });
});

describe('network address classes', () => {
  const cases: [string, string | undefined][] = [
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['::1', 'loopback'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['10.1.2.3', 'private'],
    ['172.31.0.1', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'private'],
    ['fd12::1', 'private'],
    ['169.254.1.1', 'linkLocal'],
    ['fe80::1', 'linkLocal'],
    ['169.254.169.254', 'metadata'],
    ['fd00:ec2::254', 'metadata'],
    ['100.100.100.200', 'metadata'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:169.254.169.254', 'metadata'],
    ['::ffff:10.0.0.1', 'private'],
    ['64:ff9b::127.0.0.1', 'loopback'],
    ['224.0.0.1', 'reserved'],
    ['255.255.255.255', 'reserved'],
    ['8.8.8.8', undefined],
    ['172.32.0.1', undefined],
    ['2606:4700::1111', undefined],
    ['::ffff:8.8.8.8', undefined],
    ['not an address', 'unspecified'],
  ];
  for (const [a, cls] of cases) {
    it(`${a} → ${String(cls)}`, () => assert.equal(addressClass(a), cls));
  }
});

describe('network verdict', () => {
  it('a public name that resolves to 127.0.0.1 is refused (rebinding), whatever allows the name', () => {
    const v = decideConnection(
      input('rebind.example.com', 443, ['127.0.0.1'], {
        mode: 'yolo',
        allowHosts: [pattern('*.example.com')],
        grants: [pattern('rebind.example.com')],
      }),
    );
    assert.equal(v.verdict, 'deny');
    assert.equal(v.rule, 'deny: loopback');
    assert.match(v.reason, /rebind\.example\.com:443 \(127\.0\.0\.1\) is a loopback address/);
  });

  it('one denied address among several refuses', () => {
    const v = decideConnection(input('x.example.com', 443, ['8.8.8.8', '::ffff:10.0.0.1']));
    assert.equal(v.rule, 'deny: private');
  });

  it('an IPv4-mapped IPv6 loopback is refused', () => {
    assert.equal(decideConnection(input('::ffff:127.0.0.1', 80, ['::ffff:127.0.0.1'])).rule, 'deny: loopback');
  });

  it('only an entry naming the exact host and port lifts the deny; a wildcard or a missing port does not', () => {
    const at = (allow: string[]) =>
      decideConnection(input('localhost', 5432, ['127.0.0.1'], { allowHosts: allow.map(pattern) })).rule;
    assert.equal(at(['localhost:5432']), 'allowHosts: localhost:5432');
    assert.equal(at(['localhost:*']), 'deny: loopback');
    assert.equal(at(['localhost']), 'deny: loopback');
    assert.equal(at(['localhost:5433']), 'deny: loopback');
  });

  it('a cloud metadata address is refused even when named exactly', () => {
    const v = decideConnection(
      input('169.254.169.254', 80, ['169.254.169.254'], { allowHosts: [pattern('169.254.169.254:80')] }),
    );
    assert.equal(v.rule, 'deny: metadata');
  });

  it("the preset's base URL allows its exact host:port on loopback (the scripted model), nothing else there", () => {
    const model = modelHosts('claude', { ANTHROPIC_BASE_URL: 'http://127.0.0.1:43123' });
    const ok = decideConnection(input('127.0.0.1', 43123, ['127.0.0.1'], { model, mode: 'plan' }));
    assert.equal(ok.verdict, 'allow');
    assert.equal(ok.rule, 'baseUrl: ANTHROPIC_BASE_URL');
    assert.equal(decideConnection(input('127.0.0.1', 43124, ['127.0.0.1'], { model })).rule, 'deny: loopback');
    assert.equal(decideConnection(input('127.0.0.1', 80, ['127.0.0.1'], { model })).rule, 'deny: loopback');
  });

  it("each preset's model hosts are allowed in every mode, and nobody else's", () => {
    const modes: GateMode[] = ['ask', 'plan', 'allow', 'yolo', 'acceptEdits'];
    for (const mode of modes) {
      const v = decideConnection(
        input('api.anthropic.com', 443, ['160.79.104.10'], { mode, model: modelHosts('claude', {}) }),
      );
      assert.equal(v.rule, 'preset: claude', mode);
    }
    const gemini = modelHosts('gemini', {});
    assert.equal(
      decideConnection(input('generativelanguage.googleapis.com', 443, ['142.250.1.1'], { model: gemini })).verdict,
      'allow',
    );
    assert.equal(
      decideConnection(input('api.anthropic.com', 443, ['160.79.104.10'], { model: gemini })).verdict,
      'ask',
    );
    assert.equal(
      decideConnection(input('api.openai.com', 443, ['1.2.3.4'], { model: modelHosts('codex', {}) })).verdict,
      'allow',
    );
    assert.deepEqual(modelHosts('custom-thing', { ANTHROPIC_BASE_URL: 'http://127.0.0.1:1' }), []);
  });

  it("opencode's provider baseURL in OPENCODE_CONFIG_CONTENT is its model host", () => {
    const content = JSON.stringify({ provider: { fake: { options: { baseURL: 'http://127.0.0.1:9999/v1' } } } });
    const model = modelHosts('opencode', { OPENCODE_CONFIG_CONTENT: content });
    assert.equal(decideConnection(input('127.0.0.1', 9999, ['127.0.0.1'], { model })).verdict, 'allow');
    assert.deepEqual(modelHosts('opencode', { OPENCODE_CONFIG_CONTENT: '{not json' }).length, 4);
  });

  it('base URLs: http(s) only, default ports by scheme, IPv6 without brackets', () => {
    assert.deepEqual(baseUrlHost('https://api.example.com/v1'), { host: 'api.example.com', port: 443 });
    assert.deepEqual(baseUrlHost('http://[::1]:8080'), { host: '::1', port: 8080 });
    assert.equal(baseUrlHost('file:///etc/passwd'), undefined);
    assert.equal(baseUrlHost('not a url'), undefined);
  });

  it('modes: plan refuses, yolo allows, allow refuses what would ask, ask asks', () => {
    const at = (mode: GateMode) => decideConnection(input('pypi.org', 443, ['151.101.0.223'], { mode }));
    assert.deepEqual([at('plan').verdict, at('plan').rule], ['deny', 'mode: plan']);
    assert.deepEqual([at('yolo').verdict, at('yolo').rule], ['allow', 'mode: yolo']);
    assert.deepEqual([at('allow').verdict, at('allow').rule], ['deny', 'mode: allow']);
    assert.deepEqual([at('ask').verdict, at('ask').reason], ['ask', 'not in fountain.local.allowHosts']);
    assert.equal(at('acceptEdits').verdict, 'ask');
  });

  it('plan refuses an allowHosts entry and a grant too; ask and allow honour them', () => {
    const more = { allowHosts: [pattern('pypi.org')] };
    assert.equal(decideConnection(input('pypi.org', 443, ['1.1.1.1'], { ...more, mode: 'plan' })).verdict, 'deny');
    assert.equal(
      decideConnection(input('pypi.org', 443, ['1.1.1.1'], { ...more, mode: 'allow' })).rule,
      'allowHosts: pypi.org',
    );
    const grants = [pattern('pypi.org')];
    assert.equal(decideConnection(input('pypi.org', 443, ['1.1.1.1'], { grants })).rule, 'grant: pypi.org');
    assert.equal(decideConnection(input('pypi.org', 8443, ['1.1.1.1'], { grants })).verdict, 'ask');
  });

  it('not interactive refuses what would ask; nothing resolved refuses', () => {
    const v = decideConnection(input('pypi.org', 443, ['1.1.1.1'], { interactive: false }));
    assert.deepEqual([v.verdict, v.rule], ['deny', 'not interactive']);
    assert.equal(decideConnection(input('nowhere.invalid', 443, [])).rule, 'unresolved');
  });

  it('an allow names the first resolved address to connect to', () => {
    const v = decideConnection(input('pypi.org', 443, ['1.1.1.1', '2.2.2.2'], { mode: 'yolo' }));
    assert.equal(v.verdict === 'allow' && v.address, '1.1.1.1');
  });
});
