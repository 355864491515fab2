import * as vscode from 'vscode';
import { formatDateTime, formatTimeAgo, formatTimeLeft, formatTimeOfDay } from '../domain/timeFormat';

/** Times in VS Code's display language (`vscode.env.language`), local time. The formatting lives in src/domain. */
export const Time = {
  ago: (elapsedMs: number) => formatTimeAgo(elapsedMs, vscode.env.language),
  left: (remainingMs: number) => formatTimeLeft(remainingMs, vscode.env.language),
  dateTime: (epochMs: number) => formatDateTime(epochMs, vscode.env.language),
  timeOfDay: (epochMs: number) => formatTimeOfDay(epochMs, vscode.env.language),
};
