/**
 * How the evidence reaches a Fountain server's sandboxes: only the configured server, with the key in SecretStorage
 * the connection signed in with, and the sandbox a conversation runs in (its `sandbox_id`, read once per
 * conversation with the connection's own client). Also the on-demand document of the agent's changes so far.
 */
import * as vscode from 'vscode';
import type { Inbox } from '../../domain/inbox';
import type { Config } from '../../platform/config';
import type { ConnectionManager } from '../../platform/connection';
import type { Logger } from '../../platform/log';
import type { ApiKeyStore } from '../../platform/secrets';
import { checkServerUrl } from '../../protocol/fountainClient';
import { defaultEnv } from '../../protocol/env';
import { SandboxFilesClient } from '../../protocol/sandboxFiles';
import { Disposable } from '../../util/lifecycle';
import { requestIdOf } from '../details/requestEditors';
import { inertLine } from '../display';
import type { SandboxAccess, SandboxEvidence } from './evidence';
import { EvidenceStrings } from './evidenceStrings';

export interface AccessDeps {
  readonly config: Config;
  readonly keys: ApiKeyStore;
  readonly connection: Pick<ConnectionManager, 'server' | 'api'>;
  readonly log: Logger;
}

/** `access(server)`: the sandbox reads of the configured, connected server, or the sentence saying why not. */
export function sandboxAccess(d: AccessDeps): (server: string) => Promise<SandboxAccess | string> {
  let cached: { server: string; key: string; access: SandboxAccess } | undefined;
  return async (server) => {
    const url = d.config.serverUrl;
    const check = url ? checkServerUrl(url, { allowInsecureHttp: d.config.allowInsecureHttp }) : undefined;
    const api = d.connection.server === server ? d.connection.api : undefined;
    const stored = url && check?.ok && check.url === server && api ? await d.keys.get(url) : undefined;
    if (!stored || !api) {
      return EvidenceStrings.noConnection(inertLine(server, 120));
    }
    if (cached?.server === server && cached.key === stored.key) {
      return cached.access;
    }
    const files = new SandboxFilesClient({ server, key: stored.key, env: defaultEnv(d.log), timeoutMs: 10_000 });
    const sandboxes = new Map<string, Promise<string | undefined>>();
    const sandboxOf = (conversationId: string): Promise<string | undefined> => {
      let p = sandboxes.get(conversationId);
      if (!p) {
        p = api.getConversation(conversationId).then(
          (c) => {
            const id = (c as Record<string, unknown>).sandbox_id;
            return typeof id === 'string' && id !== '' ? id : undefined;
          },
          () => {
            sandboxes.delete(conversationId); // read again next time
            return undefined;
          },
        );
        sandboxes.set(conversationId, p);
      }
      return p;
    };
    cached = { server, key: stored.key, access: { files, sandboxOf } };
    return cached.access;
  };
}

export const SANDBOX_DIFF_SCHEME = 'fountain-sandbox-diff';

/** "Show Agent's Changes So Far": the sandbox's `/diff` for the request whose details (or diff) are in front. */
export class SandboxDiffDocuments extends Disposable implements vscode.TextDocumentContentProvider {
  constructor(
    private readonly inbox: Inbox,
    private readonly evidence: SandboxEvidence,
  ) {
    super();
    this._register(vscode.workspace.registerTextDocumentContentProvider(SANDBOX_DIFF_SCHEME, this));
    this._register(vscode.commands.registerCommand('fountain.request.showSandboxDiff', () => this.show()));
  }

  async show(): Promise<void> {
    const uri = vscode.window.activeTextEditor?.document.uri;
    const id = uri ? requestIdOf(uri) : undefined;
    const item = id ? this.inbox.get(id) : undefined;
    if (!item) {
      void vscode.window.showInformationMessage(EvidenceStrings.noRequest);
      return;
    }
    // Named like the request's details tab (its request id): no agent text in a tab title, and no conversation id.
    const name = `Changes ${item.key.requestId.replace(/[^\w.-]/g, '_')}`;
    const doc = await vscode.workspace.openTextDocument(
      vscode.Uri.from({ scheme: SANDBOX_DIFF_SCHEME, path: `/${name}`, query: encodeURIComponent(item.id) }),
    );
    if (doc.languageId !== 'fountain-request') {
      await vscode.languages.setTextDocumentLanguage(doc, 'fountain-request');
    }
    await vscode.window.showTextDocument(doc, { preview: true });
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    let id: string | undefined;
    try {
      id = decodeURIComponent(uri.query);
    } catch {
      id = undefined;
    }
    const item = id ? this.inbox.get(id) : undefined;
    return item ? await this.evidence.diffText(item) : EvidenceStrings.noRequest;
  }
}
