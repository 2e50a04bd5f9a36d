import { spawn } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createTwoFilesPatch } from 'diff';
import { childEnv } from '../util/childEnv';
import type { ReplayOutput } from './replay';

export interface DeterminismResult {
  identical: boolean;
  summary: string;
  diff?: string;
  firstDivergentEvent?: string;
}

/**
 * `amtp verify-determinism` (the command keeps its name): two independent replays, each in its own
 * process and folder, compared byte for byte on their canonical outputs (artifacts, written files,
 * the verifier's rewrites, final state). A replay that diverged from the recording itself (a
 * changed reply, a rewrite that differs from the recorded one) fails the check too.
 */
export async function checkDeterminism(file: string, cliPath: string): Promise<DeterminismResult> {
  const root = await fsp.mkdtemp(path.join(os.tmpdir(), 'amtp-replay-check-'));
  try {
    const [a, b] = await Promise.all(['a', 'b'].map((n) => replayInChild(cliPath, file, path.join(root, n))));
    const failed = replayFailure(a) ?? replayFailure(b);
    if (failed) return { identical: false, summary: `the recording could not be replayed: ${failed}` };
    if (a === b) {
      const out = JSON.parse(a) as ReplayOutput;
      const diverged = divergence(out);
      if (diverged)
        return { identical: false, summary: `both replays diverged from the recording: ${diverged}`, firstDivergentEvent: diverged };
      return {
        identical: true,
        summary: `deterministic: ${out.trace.length} recorded events replayed, ${out.artifacts.length} artifacts, ${out.files.length} files, final state ${(out.final as { status?: string })?.status ?? 'none'}`,
      };
    }
    const ra = JSON.parse(a) as ReplayOutput;
    const rb = JSON.parse(b) as ReplayOutput;
    const first = firstDivergence(ra, rb);
    const diff = createTwoFilesPatch('replay-a', 'replay-b', pretty(ra), pretty(rb), '', '', { context: 3 });
    return { identical: false, summary: `replays differ; first divergent event: ${first}`, diff, firstDivergentEvent: first };
  } finally {
    await fsp.rm(root, { recursive: true, force: true });
  }
}

/** Variables of AMTP's own that a replay honours (the determinism tests' fault injection, the parser choice). */
const REPLAY_VARS = ['AMTP_INJECT_NONDETERMINISM'];

async function replayInChild(cliPath: string, file: string, out: string): Promise<string> {
  const home = `${out}-home`;
  await fsp.mkdir(home);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cliPath, 'replay', file, '--out', out, '--json'], {
      env: childEnv({ home, keep: REPLAY_VARS }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      if (!stdout.trim()) reject(new Error(`replay process exited ${code} with no output: ${stderr.trim()}`));
      else resolve(stdout.trim());
    });
  });
}

/** A replay that never ran (a recording it refused, a crash) answers `--json` with an error and no trace. */
function replayFailure(text: string): string | undefined {
  let out: { trace?: unknown; error?: unknown };
  try {
    out = JSON.parse(text) as typeof out;
  } catch {
    return `its output is not JSON: ${text.slice(0, 200)}`;
  }
  if (Array.isArray(out.trace)) return undefined;
  const e = out.error as { message?: string } | string | undefined;
  return (typeof e === 'string' ? e : e?.message) ?? 'no trace in its output';
}

/** Why a replay could not follow its recording, if it could not. */
function divergence(o: ReplayOutput): string | undefined {
  const text = `${o.error ?? ''}\n${JSON.stringify(o.final ?? '')}`;
  const m = /replay diverged[^"\n]*/.exec(text);
  return m?.[0];
}

/** The first recorded event after which the two replays saw or made different things. */
function firstDivergence(a: ReplayOutput, b: ReplayOutput): string {
  const n = Math.max(a.trace.length, b.trace.length);
  for (let i = 0; i < n; i++) {
    const x = a.trace[i];
    const y = b.trace[i];
    if (!x || !y || x.source_event_id !== y.source_event_id || x.payload_hash !== y.payload_hash || x.key !== y.key) {
      const e = x ?? y;
      return `${e.source_event_id} (${e.type} #${i + 1}, ${e.agent})`;
    }
  }
  // Same inputs everywhere, different outputs: the code after the last input is at fault.
  const last = a.trace.at(-1);
  return last ? `after ${last.source_event_id} (${last.type} #${a.trace.length}, ${last.agent}): outputs differ` : 'before the first event';
}

function pretty(o: ReplayOutput): string {
  const lines: string[] = [`run_id ${o.run_id}`, `error ${o.error ?? ''}`, `final ${JSON.stringify(o.final)}`];
  for (const t of o.trace) lines.push(`event ${t.source_event_id} ${t.type} ${t.agent} ${t.payload_hash}`);
  for (const a of o.artifacts)
    lines.push(
      `artifact ${a.agent} ${a.id}`,
      ...a.text
        .replace(/,"/g, ',\n"')
        .split('\n')
        .map((l) => `  ${l}`),
    );
  for (const f of o.files) lines.push(`file ${f.path}`, ...f.content.split('\n').map((l) => `  ${l}`));
  return lines.join('\n') + '\n';
}
