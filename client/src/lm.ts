// vscode.lm adapted to the small interface of client/src/model/lmChat.ts.
import * as vscode from 'vscode';
import { lmHandlers, type LmApiLike, type LmModelLike } from './model/lmChat';
import type { LmHandlers } from './wiring';

/** The handlers for amtp/lmModels and amtp/lmChat, or undefined when this VS Code has no vscode.lm. */
export function vscodeLmHandlers(log: (line: string) => void): LmHandlers | undefined {
  if (typeof vscode.lm?.selectChatModels !== 'function') return undefined;
  const api: LmApiLike = {
    selectChatModels: (selector) => vscode.lm.selectChatModels(selector) as Thenable<LmModelLike[]>,
    userMessage: (text) => vscode.LanguageModelChatMessage.User(text),
    cancellation: () => new vscode.CancellationTokenSource(),
    errorCode: (e) => (e instanceof vscode.LanguageModelError ? e.code : undefined),
  };
  return lmHandlers(api, log);
}
