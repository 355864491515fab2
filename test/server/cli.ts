/**
 * CLI: `node test/server/main.mjs --port 0 [--scenario NAME] [--state FILE] [--manual-clock] [--heartbeat-ms N]
 * [--ceiling-sec N] [--no-real]`. Prints ONE line of JSON when ready, then runs until SIGINT/SIGTERM.
 */
import { parseArgs } from 'node:util';
import { startServer } from './server';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '0' },
      scenario: { type: 'string' },
      state: { type: 'string' },
      'manual-clock': { type: 'boolean', default: false },
      'heartbeat-ms': { type: 'string' },
      'ceiling-sec': { type: 'string' },
      'work-dir': { type: 'string' },
      'no-real': { type: 'boolean', default: false },
      quiet: { type: 'boolean', default: false },
    },
    strict: true,
  });
  const num = (v: string | undefined) => (v === undefined ? undefined : Number(v));
  const server = await startServer({
    port: Number(values.port),
    scenario: values.scenario,
    stateFile: values.state,
    clock: values['manual-clock'] ? 'manual' : 'real',
    heartbeatMs: num(values['heartbeat-ms']),
    ceilingSec: num(values['ceiling-sec']),
    workDir: values['work-dir'],
    real: !values['no-real'],
    log: values.quiet ? () => undefined : (m) => console.error(`[test-server] ${m}`),
  });
  process.stdout.write(JSON.stringify(server.info()) + '\n');
  let closing = false;
  const stop = () => {
    if (closing) {
      return;
    }
    closing = true;
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((err: unknown) => {
  console.error('[test-server] failed to start:', err);
  process.exit(1);
});
