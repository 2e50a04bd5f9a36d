// What a debugged test's run says about it, for the Testing view. A debug session carries no
// runner report: the outcome comes from the process's exit code when the debug adapter reports one
// (debugpy's `exited` event; js-debug sends none), else from the summary line each runner prints
// (mocha, jest, vitest, node --test, pytest). Neither: the outcome is unknown, and said so.

export type DebugOutcome = 'passed' | 'failed' | 'unknown';

// the runners colour their summaries
const ANSI = /\x1b\[[0-9;]*m/g;

/** Counts in the runners' summaries: "1 passing" (mocha), "Tests: 1 failed" (jest), "ℹ fail 1" / "# fail 1" (node), "1 failed" (pytest, vitest). */
const FAILED = [/\b(\d+) (?:failing|failed)\b/g, /^[#ℹ]\s*fail (\d+)$/gm];
const PASSED = [/\b(\d+) (?:passing|passed)\b/g, /^[#ℹ]\s*pass (\d+)$/gm];

function total(patterns: RegExp[], text: string): number {
  let n = 0;
  for (const p of patterns) for (const m of text.matchAll(p)) n += Number(m[1]);
  return n;
}

/** The outcome of the one test a debug session ran, from its exit code (when known) and its output. */
export function debugOutcome(exitCode: number | undefined, output: string): DebugOutcome {
  const text = output.replace(ANSI, '');
  const failed = total(FAILED, text);
  const passed = total(PASSED, text);
  if (exitCode !== undefined) return exitCode === 0 && failed === 0 ? 'passed' : 'failed';
  if (failed > 0) return 'failed';
  return passed > 0 ? 'passed' : 'unknown';
}

/** The text of a Debug Adapter Protocol message worth recording as the test's output, if it is one. */
export function dapOutput(message: unknown): string | undefined {
  const m = message as { type?: string; event?: string; body?: { category?: string; output?: unknown } };
  if (m?.type !== 'event' || m.event !== 'output' || typeof m.body?.output !== 'string') return undefined;
  return m.body.category === 'telemetry' ? undefined : m.body.output;
}

/** The exit code of a Debug Adapter Protocol `exited` event, if the message is one. */
export function dapExitCode(message: unknown): number | undefined {
  const m = message as { type?: string; event?: string; body?: { exitCode?: unknown } };
  return m?.type === 'event' && m.event === 'exited' && typeof m.body?.exitCode === 'number' ? m.body.exitCode : undefined;
}
