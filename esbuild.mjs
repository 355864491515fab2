// Bundles the extension (src/extension.ts -> dist/extension.js; src/local -> dist/local.js, loaded only when the first
// local agent starts, see src/ui/local/loader.ts; src/ui/policy/policyEditor.ts -> dist/policyEditor.js, loaded on the first
// policy edit, see src/ui/policy/policyEditorCommands.ts; src/ui/details/detailsDocument.ts -> dist/details.js, loaded when request
// details are first shown) and, with --tests, the extension-host test files
// (test/integration/**/*.ts -> out/test/integration/). tsc only type-checks (npm run typecheck).
import * as esbuild from 'esbuild';
import * as fs from 'node:fs';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
const tests = process.argv.includes('--tests');
// --metafile: writes out/esbuild-meta.json and prints what makes up dist/extension.js (the activation bundle).
const metafile = process.argv.includes('--metafile');

/** Prints errors in the format VS Code's esbuild problem matcher reads. */
const problemMatcher = {
  name: 'problem-matcher',
  setup(build) {
    build.onStart(() => console.log('[watch] build started'));
    build.onEnd((result) => {
      for (const { text, location } of result.errors) {
        console.error(`✘ [ERROR] ${text}`);
        if (location) console.error(`    ${location.file}:${location.line}:${location.column}:`);
      }
      console.log('[watch] build finished');
    });
  },
};

const options = tests
  ? {
      entryPoints: ['test/integration/**/*.ts'],
      outbase: 'test/integration',
      outdir: 'out/test/integration',
      bundle: true,
      format: 'cjs',
      platform: 'node',
      target: 'node20',
      sourcemap: true,
      packages: 'external',
      external: ['vscode'],
      logLevel: 'warning',
    }
  : {
      // The test-mode API is its own file (required only in ExtensionMode.Test; left out of the .vsix); local agents
      // (src/local, with the ACP SDK) are their own file too, loaded on the first Start Local Agent, and so is the
      // confusables table (src/domain/confusables.ts), loaded on the first option-name comparison, the agent-policy
      // editor, loaded on its first command (src/ui/policy/policyEditorCommands.ts), and the request details document's
      // renderer, loaded when details are first shown (src/ui/details/details.ts), and the tree's actions after a user action
      // (Allow Selected… / Reject Selected…, Retry, the selection after an answer: src/ui/tree/treeActions.ts).
      entryPoints: {
        extension: 'src/extension.ts',
        testApi: 'src/testApi.ts',
        local: 'src/local/index.ts',
        localui: 'src/ui/local/ui.ts',
        confusables: 'src/domain/confusables.ts',
        policyEditor: 'src/ui/policy/policyEditor.ts',
        details: 'src/ui/details/detailsDocument.ts',
        // Sign In / Sign Out flows, loaded on their first use (src/ui/auth/authCommands.ts)
        auth: 'src/ui/auth/signInFlow.ts',
        // the History view's rows and recommendation texts, loaded when the view first shows (src/ui/history/historyView.ts)
        history: 'src/ui/history/historyTree.ts',
        // Reject with Reason… and the plan document's text, loaded on first use (src/ui/steer/rejectWithReasonEntry.ts)
        steer: 'src/ui/steer/rejectWithReason.ts',
        // The danger mark's denylist check and modal (src/ui/danger/danger.ts), loaded when the first request arrives.
        danger: 'src/ui/danger/dangerModal.ts',
        // the window hub (src/hub) and the stream sharing, required at activation (src/platform/windows.ts)
        hub: 'src/session/windowSync.ts',
        treeActions: 'src/ui/tree/treeActions.ts',
        // the evidence before the click (src/ui/evidence/evidence.ts, evidenceAccess.ts), loaded by src/ui/evidence/lazyEvidence.ts
        // when a request's details, Open Diff or Show Agent's Changes So Far first need it
        evidence: 'src/ui/evidence/sandboxEvidenceBundle.ts',
        // the relay a sandboxed agent's network goes through, run inside the sandbox (src/local/network/forwarder.ts)
        forwarder: 'src/local/network/forwarderMain.ts',
      },
      outdir: 'dist',
      bundle: true,
      format: 'cjs',
      platform: 'node',
      target: 'node20',
      minify: production,
      sourcemap: !production,
      sourcesContent: false,
      charset: 'utf8',
      external: ['vscode', './testApi', './confusables'],
      logLevel: 'warning',
      plugins: watch ? [problemMatcher] : [],
      metafile,
    };

const ctx = await esbuild.context(options);
if (watch) {
  await ctx.watch();
} else {
  const result = await ctx.rebuild();
  await ctx.dispose();
  if (metafile && result.metafile) {
    fs.mkdirSync('out', { recursive: true });
    fs.writeFileSync('out/esbuild-meta.json', JSON.stringify(result.metafile));
    const { 'dist/extension.js': main, ...others } = result.metafile.outputs;
    console.log(
      await esbuild.analyzeMetafile({ inputs: result.metafile.inputs, outputs: { 'dist/extension.js': main } }),
    );
    for (const [file, { bytes }] of Object.entries(others).filter(([f]) => f.endsWith('.js'))) {
      console.log(`  ${file}: ${(bytes / 1000).toFixed(1)} KB`);
    }
  }
}
