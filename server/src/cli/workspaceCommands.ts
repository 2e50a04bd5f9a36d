// The commands that only read: runs, replay, verify-determinism (crawl has its own file, crawlCommand.ts).
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { canonicalJson } from '../core/canonical';
import { UsageError } from '../core/errors';
import { ignoredRunsNote } from '../store/runRecords';
import { openRunStore, storeUrl } from '../app/store';
import { EXIT } from '../core/exitCodes';
import { replayRecording } from '../record/replay';
import { checkDeterminism } from '../record/determinism';
import type { FlagValues } from './flags';
import { err, workspaceArg } from './io';

const out = (text: string) => process.stdout.write(text + '\n');

export async function runs(positionals: string[], v: FlagValues): Promise<number> {
  const store = openRunStore(await workspaceArg(positionals[0]), storeUrl(v.store));
  const { runs: all, ignored } = await store.scanRuns();
  const note = ignoredRunsNote(ignored);
  if (note) err(`amtp: ${note}`);
  if (v.json)
    out(
      JSON.stringify({
        runs: all.map((r) => ({
          runId: r.id,
          status: r.status,
          stage: r.stage,
          createdAt: r.createdAt,
          updatedAt: r.updatedAt,
          reason: r.reason,
        })),
        ignored,
      }),
    );
  else
    out(
      all.map((r) => `${r.id}  ${r.status.padEnd(17)} ${r.stage.padEnd(9)} ${r.createdAt}${r.reason ? `  ${r.reason}` : ''}`).join('\n') ||
        'no runs',
    );
  return EXIT.ok;
}

export async function replay(positionals: string[], v: FlagValues): Promise<number> {
  const dir = path.resolve(v.out ?? (await fsp.mkdtemp(path.join(os.tmpdir(), 'amtp-replay-'))));
  const inject = process.env.AMTP_INJECT_NONDETERMINISM; // fault injection for the determinism tests
  const result = await replayRecording(path.resolve(positionals[0]), dir, {
    inject: inject === 'tool' || inject === 'reply' ? inject : undefined,
    pinned: v.pinned,
  });
  if (v.json) out(canonicalJson(result));
  else {
    const final = result.final as { status?: string } | null;
    out(
      `replayed ${result.trace.length} recorded events into ${dir}: ${final?.status ?? 'no run'}${result.error ? ` — ${result.error}` : ''}`,
    );
    for (const f of result.files) out(`  file ${f.path}`);
  }
  return result.error ? EXIT.failed : EXIT.ok;
}

export async function replayCheckCommand(positionals: string[]): Promise<number> {
  const file = path.resolve(positionals[0]);
  await fsp.access(file).catch(() => {
    throw new UsageError(`no such recording: ${file}`);
  });
  const r = await checkDeterminism(file, process.argv[1]);
  if (r.identical) {
    out(r.summary);
    return EXIT.ok;
  }
  err(r.diff ?? '');
  err(`amtp: NOT deterministic: ${r.summary}`);
  return 1;
}
