import * as vscode from 'vscode';

/** The logger interface the inner layers receive; backed by one LogOutputChannel. */
export interface Logger {
  trace(message: string, ...args: unknown[]): void;
  debug(message: string, ...args: unknown[]): void;
  info(message: string, ...args: unknown[]): void;
  warn(message: string, ...args: unknown[]): void;
  error(message: string | Error, ...args: unknown[]): void;
}

export function createLogChannel(): vscode.LogOutputChannel {
  return vscode.window.createOutputChannel('Fountain Approvals', { log: true });
}
