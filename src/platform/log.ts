import * as vscode from 'vscode';

export type { Logger } from '../util/logger';

export function createLogChannel(): vscode.LogOutputChannel {
  return vscode.window.createOutputChannel('Fountain Approvals', { log: true });
}
