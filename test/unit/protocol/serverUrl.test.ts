import * as assert from 'node:assert/strict';
import { checkServerUrl, isLoopbackHost, isSandboxKey, normalizeServerUrl } from '../../../src/protocol/serverUrl';
import { FountainClient, redactingLogger } from '../../../src/protocol/fountainClient';
import { MemoryCursorStore } from '../../../src/protocol/sseClient';
import { FakeFetch, memoryLogger } from './fakes';

describe('protocol/serverUrl', () => {
  it('normalises: lower-case host, default port dropped, trailing slashes, query and fragment removed', () => {
    assert.equal(normalizeServerUrl(' HTTPS://Fountain.Example.com:443/ '), 'https://fountain.example.com');
    assert.equal(normalizeServerUrl('https://f.example/base//?x=1#y'), 'https://f.example/base');
    assert.equal(normalizeServerUrl('http://127.0.0.1:4123/'), 'http://127.0.0.1:4123');
    assert.equal(normalizeServerUrl('ftp://f.example'), undefined);
    assert.equal(normalizeServerUrl('not a url'), undefined);
  });

  it('allows plain http only to loopback unless allowInsecureHttp', () => {
    for (const ok of [
      'http://127.0.0.1:1',
      'http://127.255.0.9',
      'http://[::1]:80',
      'http://localhost:3000',
      'https://f.example',
    ]) {
      assert.equal(checkServerUrl(ok).ok, true, ok);
    }
    for (const bad of [
      'http://f.example',
      'http://10.0.0.1',
      'http://128.0.0.1',
      'http://127.0.0.1.evil.com',
      'http://[::2]',
    ]) {
      const r = checkServerUrl(bad);
      assert.equal(r.ok, false, bad);
      assert.equal(r.ok ? '' : r.reason, 'insecure');
      assert.equal(checkServerUrl(bad, { allowInsecureHttp: true }).ok, true);
    }
    assert.equal(checkServerUrl('https://user:pw@f.example').ok, false);
    assert.equal(checkServerUrl('file:///etc/passwd').ok, false);
    assert.equal(checkServerUrl('').ok, false);
  });

  it('plain http to a *.localhost name is refused: only literal loopback and the exact name localhost count', () => {
    // Node resolves evil.localhost through the system resolver, so whatever the DNS answers would get the key in clear.
    for (const bad of [
      'http://evil.localhost',
      'http://evil.localhost:4123/',
      'http://a.b.localhost',
      'http://LOCALHOST.evil.com',
      'http://localhost.',
      'http://xlocalhost',
    ]) {
      const r = checkServerUrl(bad);
      assert.equal(r.ok, false, bad);
      assert.equal(r.ok ? '' : r.reason, 'insecure', bad);
      assert.match(r.ok ? '' : r.message, /only allowed to this machine \(127\.0\.0\.1, \[::1\] or localhost\)/);
    }
    assert.equal(isLoopbackHost('evil.localhost'), false);
    assert.equal(isLoopbackHost('localhost'), true);
    assert.equal(isLoopbackHost('LocalHost'), true);
    assert.equal(checkServerUrl('http://LocalHost:3000').ok, true);
    // https to such a name is a normal (verified) TLS connection and stays allowed.
    assert.equal(checkServerUrl('https://evil.localhost').ok, true);
  });

  it('recognises sandbox (sprite) tokens', () => {
    assert.equal(isSandboxKey('sprite:conv-1:abc'), true);
    assert.equal(isSandboxKey('SPRITE_abc'), true);
    assert.equal(isSandboxKey('ftn_live_abc'), false);
  });

  it('a client refuses insecure URLs, missing keys and sandbox tokens without any traffic', () => {
    const cases: Array<[string, string, string]> = [
      ['http://f.example', 'ftn_live_x', 'refused'],
      ['', 'ftn_live_x', 'unconfigured'],
      ['https://f.example', '', 'unconfigured'],
      ['https://f.example', 'sprite:c1', 'refused'],
    ];
    for (const [url, key, kind] of cases) {
      const f = new FakeFetch();
      const c = new FountainClient({ url, key, cursorStore: new MemoryCursorStore(), env: { fetch: f.fetch } });
      const states: string[] = [];
      c.onDidChangeState((s) => states.push(s.kind));
      c.start();
      assert.deepEqual(states, [kind], `${url} ${key}`);
      assert.equal(f.calls.length, 0);
      c.dispose();
    }
  });

  it('redacts the key from every log line and string argument', () => {
    const inner = memoryLogger();
    const log = redactingLogger(inner, 'ftn_live_s3cret');
    log.info('GET https://x/?k=ftn_live_s3cret', 'Bearer ftn_live_s3cret');
    log.error('boom ftn_live_s3cret');
    assert.ok(
      inner.lines.every((l) => !l.includes('ftn_live_s3cret')),
      inner.lines.join('\n'),
    );
    assert.ok(inner.lines[0].includes('<redacted>'));
  });
});
