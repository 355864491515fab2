import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { EXTENSION_ID, getApi, waitFor } from './support';

interface Binding {
  key: string;
  command: string;
  when?: string;
  mac?: string;
}

/** `ctrl+alt+y` and `alt+ctrl+Y` are the same key: modifiers sorted, lower case; a chord keeps its parts in order. */
function norm(key: string): string {
  return key
    .toLowerCase()
    .split(' ')
    .map((part) => {
      const bits = part.split('+');
      const main = bits.pop()!;
      return [...bits.sort(), main].join('+');
    })
    .join(' ');
}

/** The default keybindings document is JSON with `//` comments (one per line). */
function parseDefaults(text: string): Binding[] {
  const json = text
    .split('\n')
    .filter((l) => !/^\s*\/\//.test(l))
    .join('\n')
    .replace(/,(\s*[\]}])/g, '$1');
  return JSON.parse(json) as Binding[];
}

describe('default keybindings collide with none of the workbench', function () {
  this.timeout(60_000);

  it('every key the manifest binds is unbound in the real workbench (web, and with cmd read as ctrl for macOS)', async () => {
    await getApi();
    const ours = (
      vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON as { contributes: { keybindings: Binding[] } }
    ).contributes.keybindings;
    assert.ok(ours.length >= 3);
    for (const b of ours) {
      assert.ok(b.when, `${b.command} has no when clause`);
    }
    await vscode.commands.executeCommand('workbench.action.openDefaultKeybindingsFile');
    const doc = await waitFor('the default keybindings document', () =>
      vscode.workspace.textDocuments.find((d) => /keybindings\.json$/.test(d.uri.path) && d.getText().length > 1000),
    );
    const defaults = parseDefaults(doc.getText());
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    const file = path.join(os.tmpdir(), `fountain-default-keybindings-${process.pid}.json`);
    // The list is the workbench's own (hundreds of entries, Ctrl+Alt+N "New Untitled File" among them on the web).
    assert.ok(defaults.length > 300, `only ${defaults.length} default keybindings read`);
    assert.ok(
      defaults.some((d) => d.command === 'workbench.action.quickOpen'),
      'the list should hold the workbench defaults',
    );
    const others = defaults.filter((d) => !d.command.startsWith('fountain.') && !d.command.startsWith('-'));
    for (const b of ours) {
      for (const key of [b.key, ...(b.mac ? [b.mac.replace(/\bcmd\b/g, 'ctrl')] : [])]) {
        const clash = others.filter((d) => norm(d.key) === norm(key));
        if (clash.length) {
          fs.writeFileSync(file, JSON.stringify(defaults, null, 1)); // for the reader of the failure
        }
        assert.deepEqual(
          clash.map((d) => `${d.key} → ${d.command}`),
          [],
          `${key} (${b.command}) is already bound; the full list is in ${file}`,
        );
      }
    }
  });
});
