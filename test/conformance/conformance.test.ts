import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { runScenario, type Scenario } from './runner';
import { makeSelfSignedCert, opensslAvailable, runScenarioTrusting, type TestCert } from './tls';
import { skipOrFail } from '../support/skipOrFail';

const dir = path.join(__dirname, 'scenarios');
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .sort();

describe('conformance: scripted-bytes scenarios against the real client over loopback', () => {
  let cert: TestCert | undefined;
  after(() => cert?.dispose());
  it('has at least 30 scenarios, each named after its file', () => {
    assert.ok(files.length >= 30, `only ${files.length} scenarios`);
  });
  for (const f of files) {
    const s = JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as Scenario;
    it(`${s.name}`, async function () {
      this.timeout(15_000);
      assert.equal(`${s.name}.json`, f, 'file name and scenario name differ');
      if (s.tls) {
        // https with a certificate made now; the client runs in a process that trusts it (see tls.ts).
        if (!opensslAvailable()) {
          skipOrFail(this, 'openssl is not on PATH (the TLS scenarios need it)');
        }
        cert ??= makeSelfSignedCert();
        assert.deepEqual(await runScenarioTrusting(path.join(dir, f), cert), [], `${s.name}: ${s.why}`);
        return;
      }
      const r = await runScenario(s);
      assert.deepEqual(r.failures, [], `${s.name}: ${s.why}`);
    });
  }
});
