/**
 * What the workbench rows install: the .vsix the user would install (test/support/workbench.ts packages it from a
 * production build), the baseline extension (./minimalExtension.ts bundled with eventsource-parser, packaged with
 * vsce), the timing hook (./hostHook.ts, an extension too), and the scripted local agent bundled into one file (./localAgent.ts).
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as esbuild from 'esbuild';
import { ROOT } from '../../support/codeServer';
import { packageVsix } from '../../support/workbench';

export function fountainVsix(runDir: string): string {
  const vsix = path.join(runDir, 'fountain-approvals.vsix');
  packageVsix(vsix);
  return vsix;
}

/** The baseline extension (./minimalExtension.ts), activated by its command (the timing hook runs it). */
export function minimalVsix(runDir: string): string {
  return packExtension(runDir, 'minimal', 'minimalExtension.ts', ['onCommand:benchMinimal.start'], 'Bench baseline', {
    commands: [{ command: 'benchMinimal.start', title: 'Bench baseline: start' }],
  });
}

/** The timing hook (./hostHook.ts), activated on `*`: before the extensions it times. */
export function hookVsix(runDir: string): string {
  return packExtension(runDir, 'hook', 'hostHook.ts', ['*'], 'Bench timing hook');
}

function packExtension(
  runDir: string,
  name: string,
  entry: string,
  activationEvents: string[],
  title: string,
  contributes: Record<string, unknown> = {},
): string {
  const dir = path.join(runDir, `${name}-extension`);
  fs.mkdirSync(dir, { recursive: true });
  esbuild.buildSync({
    entryPoints: [path.join(__dirname, entry)],
    outfile: path.join(dir, 'extension.js'),
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    minify: true,
    external: ['vscode'],
    logLevel: 'warning',
  });
  const manifest = {
    name,
    displayName: title,
    description: `${title} (npm run bench).`,
    publisher: 'fountain-bench',
    version: '0.0.1',
    license: 'MIT',
    engines: { vscode: '^1.74.0' },
    main: './extension.js',
    activationEvents,
    contributes,
    extensionKind: ['workspace'],
  };
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify(manifest, null, 2));
  fs.writeFileSync(path.join(dir, 'README.md'), `${title}.\n`);
  fs.writeFileSync(path.join(dir, 'LICENSE'), 'MIT\n');
  const vsix = path.join(runDir, `${name}.vsix`);
  execFileSync(
    process.execPath,
    [
      path.join(ROOT, 'node_modules/@vscode/vsce/vsce'),
      'package',
      '--no-dependencies',
      '--allow-missing-repository',
      '--skip-license',
      '--out',
      vsix,
    ],
    { cwd: dir, stdio: 'pipe' },
  );
  return vsix;
}

/** The scripted local agent as one CommonJS file; returns its path. */
export function localAgentBundle(runDir: string): string {
  const out = path.join(runDir, 'local-agent.cjs');
  esbuild.buildSync({
    entryPoints: [path.join(__dirname, 'localAgent.ts')],
    outfile: out,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    logLevel: 'warning',
  });
  return out;
}
