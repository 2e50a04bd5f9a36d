// Every `amtp.*` command of package.json's contributes.commands, bound to its handler. A command
// about one folder's runs acts on the folder its argument names, else the active editor's, else
// the only one, else the one the person picks (folders.ts).
import * as vscode from 'vscode';
import type * as P from '../../server/src/protocol';
import type { ApprovalUi } from './approvals';
import * as cmd from './commands';
import type { Folders } from './folders';
import type { TreeNode } from './model/runsModel';
import * as review from './reviewCommands';
import { forgetLesson } from './lessonCommands';
import type { LessonsNode } from './model/lessonsTree';

/* eslint-disable @typescript-eslint/no-explicit-any -- VS Code passes command arguments untyped */
type Handler = (ctx: cmd.Ctx, ...args: any[]) => unknown;
type Register = (id: string, fn: (...args: any[]) => unknown) => void;
/* eslint-enable @typescript-eslint/no-explicit-any */
/** Where a command's arguments name its folder (a tree node, a file, a run id). */
type Hint = (args: unknown[]) => unknown;

const FIRST_ARG: Hint = (args) => args[0];
type Verdict = P.ReviewParams['decisions'][number]['verdict'];

/** The commands about one folder's runs: [id, handler, where the arguments name the folder]. */
const FOLDER_COMMANDS: [string, Handler, Hint?][] = [
  ['amtp.generate', (ctx, args?: Parameters<typeof cmd.generate>[1]) => cmd.generate(ctx, args)],
  ['amtp.generateForFile', (ctx, uri?: vscode.Uri) => cmd.generateForFile(ctx, uri), FIRST_ARG],
  ['amtp.generateForSymbol', (ctx, uri: vscode.Uri, symbol: string) => cmd.generateForSymbol(ctx, uri, symbol), FIRST_ARG],
  ['amtp.generateForSelection', (ctx) => cmd.generateForSelection(ctx)],
  ['amtp.crawl', (ctx) => cmd.crawl(ctx)],
  ['amtp.resume', (ctx, arg?: TreeNode | string) => cmd.resume(ctx, arg), FIRST_ARG],
  ['amtp.showRuns', (ctx) => cmd.showRuns(ctx)],
  ['amtp.openRecording', (ctx, file?: string) => cmd.openRecording(ctx, file), FIRST_ARG],
  ['amtp.verifyDeterminism', (ctx, file?: string | vscode.Uri) => cmd.verifyDeterminism(ctx, file), FIRST_ARG],
  // The tree's case item passes its folder's key after the case.
  ['amtp.openCase', (ctx, c: P.CaseView) => cmd.openCase(ctx, c), (args) => typeof args[1] === 'string' && { folder: args[1] }],
  ['amtp.runTests', (ctx, arg?: TreeNode | string) => cmd.runTests(ctx, arg), FIRST_ARG],
  ['amtp.revokeAlwaysAllow', (ctx) => cmd.revokeAlwaysAllow(ctx)],
  ['amtp.acceptTest', (ctx, node?: TreeNode) => review.decideTest(ctx, node, 'accepted'), FIRST_ARG],
  ['amtp.rejectTest', (ctx, node?: TreeNode, reason?: string) => review.decideTest(ctx, node, 'rejected', reason), FIRST_ARG],
  [
    'amtp.answerQuarantine',
    (ctx, node?: TreeNode, verdict?: Verdict, reason?: string) => review.answerQuarantine(ctx, node, verdict, reason),
    FIRST_ARG,
  ],
  // The Lessons view's row carries its folder's key.
  ['amtp.forgetLesson', (ctx, node?: LessonsNode) => forgetLesson(ctx, node), FIRST_ARG],
];

export function registerCommands(
  context: vscode.ExtensionContext,
  all: Folders,
  approvals: ApprovalUi,
  output: vscode.LogOutputChannel,
): void {
  const register: Register = (id, fn) => context.subscriptions.push(vscode.commands.registerCommand(id, fn));
  for (const [id, fn, hint] of FOLDER_COMMANDS) register(id, inFolder(all, fn, hint));
  // Cancel without a run: the folder that has one running.
  const running = () => all.list().find((s) => s.ctx.model.list().some((r) => r.status === 'running'))?.folder.uri;
  register(
    'amtp.cancel',
    inFolder(
      all,
      (ctx, arg?: TreeNode | string) => cmd.cancel(ctx, arg),
      (args) => args[0] ?? running(),
    ),
  );
  register('amtp.refresh', async () => (await Promise.all(all.list().map((s) => cmd.refreshRuns(s.ctx)))).flat());
  register('amtp.setApiKey', (key?: string) => cmd.setApiKey(context, key));
  register('amtp.clearApiKey', () => cmd.clearApiKey(context));
  register('amtp.approve', (arg?) => cmd.approve({ approvals }, arg));
  register('amtp.reject', (arg?, note?: string) => cmd.reject({ approvals }, arg, note));
  register('amtp.approveAll', (arg?) => cmd.approveAll({ approvals }, arg));
  register('amtp.previewApproval', (arg?) => arg && approvals.preview(arg.params));
  register('amtp.showOutput', () => output.show(true));
  register('amtp.filterCases', () => cmd.filterCases(all.list().map((s) => s.ctx.model)));
}

/** `fn` on the folder the arguments point at (or the person picks); undefined when none was chosen. */
function inFolder(all: Folders, fn: Handler, hint: Hint = () => undefined): (...args: unknown[]) => Promise<unknown> {
  return async (...args) => {
    const ctx = await all.ctxFor(hint(args));
    return ctx ? fn(ctx, ...args) : undefined;
  };
}
