/** Child-process entry for tls.ts: runs one scenario file and prints its failures as JSON on the last line. */
import { readFileSync } from 'node:fs';
import { runScenario, type Scenario } from './runner';

const s = JSON.parse(readFileSync(process.argv[2], 'utf8')) as Scenario;
runScenario(s).then(
  (r) => {
    console.log(JSON.stringify(r.failures));
    process.exit(0);
  },
  (e: unknown) => {
    console.log(JSON.stringify([`runScenario threw: ${e instanceof Error ? e.stack : String(e)}`]));
    process.exit(1);
  },
);
