/**
 * How the network proxy reads where an agent asked to connect (src/local/network/target.ts): one normal spelling for
 * the decider, and a refusal for every form a resolver could read another way.
 */
import * as assert from 'node:assert/strict';
import { parseConnectTarget, parseHttpTarget } from '../../../../src/local/network/target';

describe('network proxy: request targets', () => {
  it('normalises a CONNECT target: lower case, no trailing dot, IPv6 without brackets', () => {
    const ok = (raw: string) => {
      const r = parseConnectTarget(raw);
      assert.ok(r.ok, `${raw}: ${r.ok ? '' : r.reason}`);
      return [r.value.host, r.value.port, r.value.authority];
    };
    assert.deepEqual(ok('PyPI.org.:443'), ['pypi.org', 443, 'pypi.org:443']);
    assert.deepEqual(ok('[2001:DB8::1]:8443'), ['2001:db8::1', 8443, '[2001:db8::1]:8443']);
    assert.deepEqual(ok('10.0.0.1:65535'), ['10.0.0.1', 65535, '10.0.0.1:65535']);
    assert.deepEqual(ok('my_host-1.example:1'), ['my_host-1.example', 1, 'my_host-1.example:1']);
  });

  it('refuses what a resolver could read another way, and ports that are not 1 to 65535 in digits', () => {
    for (const raw of [
      'a.test',
      'a.test:',
      'a.test:0',
      'a.test:00443',
      'a.test:+443',
      'a.test:65536',
      'a.test: 443',
      ':443',
      '.:443',
      'u@a.test:443',
      '::1:443',
      '[::1%eth0]:443',
      '[1.2.3.4]:443',
      '127.1:443',
      '0x7f.0.0.1:443',
      '2130706433:443',
      'a.0x7f:443',
      'bücher.example:443',
      'a..b:443',
      '-a.test:443',
      'a b:443',
      `${'a'.repeat(64)}.test:443`,
    ]) {
      assert.equal(parseConnectTarget(raw).ok, false, raw);
    }
  });

  it('reads an absolute http:// URL: port 80 by default, the path in origin-form, no fragment or userinfo', () => {
    const ok = (raw: string) => {
      const r = parseHttpTarget(raw);
      assert.ok(r.ok, `${raw}: ${r.ok ? '' : r.reason}`);
      return [r.value.host, r.value.port, r.value.authority, r.value.path];
    };
    assert.deepEqual(ok('http://Example.COM/a?b=1'), ['example.com', 80, 'example.com', '/a?b=1']);
    assert.deepEqual(ok('HTTP://a.test:8080'), ['a.test', 8080, 'a.test:8080', '/']);
    assert.deepEqual(ok('http://a.test?q'), ['a.test', 80, 'a.test', '/?q']);
    for (const raw of [
      '/a',
      '*',
      'https://a.test/',
      'ftp://a.test/',
      'http://u:p@a.test/',
      'http://a.test/#x',
      'http:///x',
    ]) {
      assert.equal(parseHttpTarget(raw).ok, false, raw);
    }
  });
});
