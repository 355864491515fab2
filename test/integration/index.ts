/**
 * Mocha entry point loaded by VS Code inside the extension host (extensionTestsPath). Bundled by esbuild to
 * out/test/integration/index.js; mocha itself comes from node_modules.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import Mocha from 'mocha';

export function run(): Promise<void> {
  const mocha = new Mocha({ ui: 'bdd', color: false, timeout: 60_000, reporter: 'spec' });
  if (process.env.MOCHA_GREP) {
    mocha.grep(process.env.MOCHA_GREP);
  }
  const dir = __dirname;
  for (const f of fs.readdirSync(dir).sort()) {
    if (f.endsWith('.test.js')) {
      mocha.addFile(path.join(dir, f));
    }
  }
  return new Promise((resolve, reject) => {
    mocha.run((failures) => {
      if (failures > 0) {
        reject(new Error(`${failures} integration test(s) failed`));
      } else {
        resolve();
      }
    });
  });
}
