import { strict as assert } from 'node:assert';
import { isLocalSource, localSessionIdOf, localSourceId } from '../../../src/session/localKey';

describe('session: local source ids', () => {
  it('a session id goes into its source id and comes back out; a Fountain server names no session', () => {
    const server = localSourceId('abc-1');
    assert.equal(server, 'local:abc-1');
    assert.equal(isLocalSource(server), true);
    assert.equal(localSessionIdOf(server), 'abc-1');
    assert.equal(localSessionIdOf('http://127.0.0.1:4000'), undefined);
    // Only the prefix marks a local source: "local:" inside a URL does not.
    assert.equal(localSessionIdOf('http://local:4000'), undefined);
  });
});
