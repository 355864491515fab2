/**
 * Local agents in the VS Code layer, built by the composition root in one call. The inbox hookup is the one
 * injected function `ask` (see {@link LocalAskHandler}); until it is wired, a local ask reaches nobody and the
 * session answers it with the reject option at the ask timeout (the safe default).
 */
import * as vscode from 'vscode';
import { Disposable } from '../util/lifecycle';
import { LocalCommands } from './commands';
import { loadLocalBundle, localBundleLoaded, type LocalModule } from './loader';
import { LocalSessionManager, type LocalAskHandler, type LocalManagerDeps } from './manager';
import { TranscriptDocuments } from './transcriptDocument';

export interface LocalAgentsOptions {
  readonly ask: LocalAskHandler;
  readonly log: vscode.LogOutputChannel;
  /** Overrides for tests: trust, where agents' variables come from, the bundle loader, the ask timeout. */
  readonly isTrusted?: () => boolean;
  readonly sourceEnv?: LocalManagerDeps['sourceEnv'];
  readonly load?: () => LocalModule;
  readonly askTimeoutSec?: number;
}

export class LocalAgents extends Disposable {
  readonly manager: LocalSessionManager;
  readonly transcripts: TranscriptDocuments;
  readonly commands: LocalCommands;

  constructor(opts: LocalAgentsOptions) {
    super();
    const { log } = opts;
    this.manager = this._register(
      new LocalSessionManager({
        load: opts.load ?? loadLocalBundle,
        isTrusted: opts.isTrusted ?? (() => vscode.workspace.isTrusted),
        ask: opts.ask,
        log: { info: (m) => log.info(m), warn: (m) => log.warn(m) },
        ...(opts.sourceEnv ? { sourceEnv: opts.sourceEnv } : {}),
        ...(opts.askTimeoutSec !== undefined ? { askTimeoutSec: opts.askTimeoutSec } : {}),
      }),
    );
    this.transcripts = this._register(new TranscriptDocuments(this.manager));
    this.commands = this._register(new LocalCommands(this.manager, this.transcripts, log));
  }

  register(): vscode.Disposable[] {
    return this.commands.register();
  }

  /** True once dist/local.js was loaded (asked here, in the main bundle, whose loader holds that state). */
  bundleLoaded(): boolean {
    return localBundleLoaded();
  }

  /** Deactivate: every agent's process group has ended when this resolves. */
  stopAll(): Promise<void> {
    return this.manager.stopAll();
  }
}
