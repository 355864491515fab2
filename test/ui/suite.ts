/**
 * The hooks a describe block of UI tests shares: one workbench opened against the local server (the key in the
 * environment) before its tests, skipped when no local server runs; a screenshot and the log folder of each failed
 * test; `cleanUp` after every test; the workbench closed after the block.
 */
import * as path from 'node:path';
import { TestServer } from '../support/serverClient';
import { openWorkbench, screenshot, type Workbench } from './workbench';
import { skipOrFail } from '../support/skipOrFail';

export function workbenchSuite(
  tag: string,
  opened: (wb: Workbench, server: TestServer) => void,
  cleanUp?: () => Promise<void>,
): void {
  let wb: Workbench | undefined;
  before(async function () {
    wb = await openWorkbench({ withKeyInEnv: true });
    if (!wb.server) {
      skipOrFail(this, 'the local test server did not start for the workbench');
    }
    opened(wb, new TestServer(wb.server.info));
  });
  afterEach(async function () {
    if (wb && this.currentTest?.state === 'failed') {
      await screenshot(wb.page, path.join(wb.runDir, `failure-${tag}-${Date.now()}.png`)).catch(() => undefined);
      console.log(`screenshot and logs in ${wb.runDir}`);
    }
    await cleanUp?.();
  });
  after(async () => {
    await wb?.close();
  });
}
