import * as assert from 'node:assert/strict';
import { seenNotifications } from '../support/workbench';
import { describeOffenders, userFacingOffenders } from '../support/userFacingScan';

// After every UI test of the run: each notification the workbenches showed is in plain words (no HTTP status,
// status code, route or UUID: those go to the log). A root-level hook, so it runs once, after all the files.
after('every notification the UI tests saw is in plain words', function () {
  const texts = seenNotifications.map((n) => ({ where: n.runDir, text: n.text }));
  console.log(`  scanned ${texts.length} notification texts`);
  const bad = userFacingOffenders(texts);
  assert.equal(bad.length, 0, describeOffenders(bad));
});
