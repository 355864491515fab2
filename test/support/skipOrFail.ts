/**
 * The one way a suite skips for something missing (a real agent, code-server, the local test server): a warning and
 * a skip on a developer's machine, a failure naming what is missing under CI (`CI` set), where a skip would let
 * `npm test` pass without having run the suite.
 */

/** Whether this run is CI's: `CI` set to anything but "", "0" or "false". */
export function underCi(env: NodeJS.ProcessEnv = process.env): boolean {
  const v = env.CI;
  return v !== undefined && v !== '' && v !== '0' && v.toLowerCase() !== 'false';
}

/** Skips the test or suite (`ctx` is mocha's `this`), or under CI throws an error that names `missing`. */
export function skipOrFail(ctx: Mocha.Context, missing: string, env: NodeJS.ProcessEnv = process.env): never {
  if (underCi(env)) {
    throw new Error(`${missing}; under CI this suite fails instead of skipping`);
  }
  console.warn(`[skipped] ${missing}`);
  ctx.skip();
}
