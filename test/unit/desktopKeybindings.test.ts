import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * The manifest's default keys against VS Code's desktop defaults for Linux, Windows and macOS (the published
 * keybinding reference files, kept in test/fixtures/keybindings with the commit they were read at). The web
 * workbench's own defaults are checked in the extension host (test/integration/keybindings.test.ts); these are the
 * desktop ones, which differ (window management, platform keys).
 */
const ROOT = path.resolve(__dirname, '../..');

type Platform = 'linux' | 'win' | 'mac';
interface Binding {
  readonly key: string;
  readonly command: string;
}
interface Contributed {
  readonly command: string;
  readonly key: string;
  readonly mac?: string;
  readonly linux?: string;
  readonly win?: string;
}
const fixture = JSON.parse(
  fs.readFileSync(path.join(ROOT, 'test/fixtures/keybindings/desktop-defaults.json'), 'utf8'),
) as { platforms: Record<Platform, { source: string; bindings: Binding[] }> };
const ours = (
  JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
    contributes: { keybindings: Contributed[] };
  }
).contributes.keybindings;

/** The platform's name for the fourth modifier: `cmd` on macOS, `meta` on Linux, `win` on Windows. */
const META: Record<Platform, string> = { mac: 'cmd', linux: 'meta', win: 'win' };
const MODIFIERS = new Set(['ctrl', 'shift', 'alt', 'cmd', 'meta', 'win']);

/** One chord part as a canonical string: the modifiers sorted, then the key (`alt+ctrl+shift+y`). */
function part(p: string, platform: Platform): { mods: string[]; text: string } {
  const bits = p.toLowerCase().split('+');
  const key = bits.pop()!;
  const mods = bits.map((m) => (m === 'cmd' || m === 'meta' || m === 'win' ? META[platform] : m)).sort();
  for (const m of mods) {
    assert.ok(MODIFIERS.has(m), `unknown modifier "${m}" in "${p}"`);
  }
  return { mods, text: [...mods, key].join('+') };
}

const chord = (key: string, platform: Platform) =>
  key
    .trim()
    .split(/\s+/)
    .map((p) => part(p, platform));

/** The key VS Code uses for a contributed binding on `platform`. */
const keyOn = (b: Contributed, platform: Platform) => b[platform] ?? b.key;

/** Two chords collide when one is a prefix of the other (a default chord's first part swallows our key too). */
function collides(a: string[], b: string[]): boolean {
  const n = Math.min(a.length, b.length);
  return a.slice(0, n).every((x, i) => x === b[i]);
}

describe("default keybindings collide with none of VS Code's desktop defaults (Linux, Windows, macOS)", () => {
  it('the fixture is the published lists it says it is (each platform read, with its source)', () => {
    for (const p of ['linux', 'win', 'mac'] as const) {
      const { source, bindings } = fixture.platforms[p];
      assert.match(source, /^microsoft\/vscode-docs build\/keybindings\/doc\.keybindings\.\w+\.json @ [0-9a-f]{40}$/);
      assert.ok(bindings.length >= 5, `${p}: ${bindings.length} bindings`);
      for (const b of bindings) {
        assert.ok(
          chord(b.key, p).some((c) => c.mods.length >= 3),
          `${p}: ${b.key} has fewer than three modifiers in every part (the fixture keeps only those)`,
        );
      }
    }
  });

  for (const platform of ['linux', 'win', 'mac'] as const) {
    it(`on ${platform}: every contributed key has three modifiers and no desktop default shares it`, () => {
      assert.ok(ours.length >= 3);
      const defaults = fixture.platforms[platform].bindings.map((d) => ({
        ...d,
        parts: chord(d.key, platform).map((c) => c.text),
      }));
      for (const b of ours) {
        const key = keyOn(b, platform);
        const parts = chord(key, platform);
        // The fixture lists only defaults with three or more modifiers: a key with fewer cannot be checked here.
        assert.ok(
          parts[0].mods.length >= 3,
          `${b.command}: ${key} has ${parts[0].mods.length} modifiers; widen the fixture before binding it`,
        );
        const clash = defaults.filter((d) =>
          collides(
            d.parts,
            parts.map((c) => c.text),
          ),
        );
        assert.deepEqual(
          clash.map((d) => `${d.key} → ${d.command}`),
          [],
          `${key} (${b.command}) is a desktop default on ${platform}`,
        );
      }
    });
  }

  it('the check sees a clash: a key that is a desktop default on one platform only is caught there', () => {
    // Ctrl+Shift+Alt+C copies the relative path on Linux; on Windows it is free; Cmd+Alt+Shift+C is taken on macOS.
    const linux = fixture.platforms.linux.bindings.map((d) => chord(d.key, 'linux').map((c) => c.text));
    const win = fixture.platforms.win.bindings.map((d) => chord(d.key, 'win').map((c) => c.text));
    const mac = fixture.platforms.mac.bindings.map((d) => chord(d.key, 'mac').map((c) => c.text));
    const probe = (key: string, p: Platform) => chord(key, p).map((c) => c.text);
    assert.ok(linux.some((d) => collides(d, probe('ctrl+alt+shift+c', 'linux'))));
    assert.ok(!win.some((d) => collides(d, probe('ctrl+alt+shift+c', 'win'))));
    assert.ok(mac.some((d) => collides(d, probe('cmd+alt+shift+c', 'mac'))));
  });
});
