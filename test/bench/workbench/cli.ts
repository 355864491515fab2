/**
 * The workbench rows as a child of `npm run bench` (test/bench/main.ts runs it under
 * `flock /tmp/fountain-vscode.lock`): `node --import tsx test/bench/workbench/cli.ts [requests]`. Progress goes to
 * stderr; the result is the last line of stdout, as JSON.
 */
import { workbenchBench } from './run';

const requests = Number(process.argv[2] ?? 30);
void workbenchBench(requests, (s) => console.error(`[bench workbench] ${new Date().toISOString()} ${s}`)).then(
  (r) => {
    process.stdout.write(JSON.stringify(r) + '\n');
    process.exit(0);
  },
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
