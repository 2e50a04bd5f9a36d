// How one engineer file reaches the disk: created, merged into the file an earlier run wrote
// (`fs.merge_tests`, medium), merged into the person's own test file (`--into-existing`:
// `fs.overwrite`, high, approved with the diff), or replaced whole (`fs.overwrite`). A merge that
// would change a test the person accepted is an `fs.overwrite` too; refused, the file is merged
// with the accepted tests as they are (`fallback`). Either way the plan names the accepted tests it
// leaves exactly as they were (`acceptedSame`): the verifier runs them but never changes them.
import { isAmtpTestPath } from '../agents/engineer/filePlan';
import { isWritten, type FileAction, type RunRecord } from '../core/run';
import type { ToolName } from '../core/risk';
import type { EngineerOutput } from '../contracts/types';
import type { RunStore } from '../store/types';
import { casesDecided } from './decisions';

/**
 * Merges a rendered test file into the one on disk (verifier/acceptedMerge.ts); undefined when it
 * cannot. `held`: the `accepted` cases whose tests the merge changes; `kept`: the merge with those left as they are;
 * `same` and `keptSame`: the `accepted` cases whose tests `content` and `kept` leave exactly as they were.
 */
export type MergeTests = (
  path: string,
  existing: string,
  incoming: string,
  /** accepted: tests the person accepted (a change needs an approved overwrite); keep: tests that stay exactly as they are */
  opts?: { append?: boolean; replace?: boolean; accepted?: ReadonlySet<string>; keep?: ReadonlySet<string> },
) => { content: string; held: string[]; same: string[]; kept?: string; keptSame?: string[] } | undefined;

export interface WritePlan {
  content: string;
  tool: ToolName;
  /** the approval summary's verb */
  verb: string;
  /** the file's action once written */
  action: FileAction;
  /** the person's own file as it was, when this run adds its cases to it */
  personal?: string;
  /** tests the person accepted that this write changes, and the write that leaves them as they are when it is refused */
  accepted?: { held: string[]; fallback: WritePlan };
  /** tests the person accepted that this write leaves exactly as they were (verifier/acceptedTests.ts) */
  acceptedSame?: string[];
}

export interface WriteInput {
  store: RunStore;
  run: RunRecord;
  file: EngineerOutput['files'][number];
  /** the file on disk, null when there is none */
  before: string | null;
  merge?: MergeTests;
  /** the file is in a folder where a new file is medium risk */
  inTests: boolean;
}

export async function planWrite(w: WriteInput): Promise<WritePlan | { refused: string }> {
  const { file, before, merge } = w;
  if (before !== null && w.run.params.intoExisting && !isAmtpTestPath(file.path)) {
    // The person's own test file: their tests stay byte for byte, or nothing is written at all.
    const merged = merge?.(file.path, before, file.content, { append: true })?.content;
    if (merged === undefined)
      return {
        refused: `AMTP cannot add its tests to your ${file.path} without changing what is already there (an import it needs binds a name your file binds differently, or the result would not parse); nothing was written: run without --into-existing for a file of AMTP's own`,
      };
    return { content: merged, tool: 'fs.overwrite', verb: 'Add tests to your', action: 'merged', personal: before };
  }
  const merged =
    before !== null && merge && (await writtenBefore(w.store, w.run.id, file.path))
      ? merge(file.path, before, file.content, {
          ...(w.run.reuse ? { replace: true } : {}),
          accepted: casesDecided(w.run, 'accepted'),
          keep: casesDecided(w.run, 'edited'),
        })
      : undefined;
  if (merged?.kept !== undefined)
    return {
      content: merged.content,
      tool: 'fs.overwrite',
      verb: `Change ${merged.held.length} test(s) you accepted (${merged.held.join(', ')}) in`,
      action: 'merged',
      accepted: {
        held: merged.held,
        fallback: {
          content: merged.kept,
          tool: 'fs.merge_tests',
          verb: 'Merge tests into',
          action: 'merged',
          ...sameOf(merged.keptSame ?? []),
        },
      },
      ...sameOf(merged.same),
    };
  if (merged !== undefined)
    return { content: merged.content, tool: 'fs.merge_tests', verb: 'Merge tests into', action: 'merged', ...sameOf(merged.same) };
  if (before !== null) return { content: file.content, tool: 'fs.overwrite', verb: 'Overwrite', action: 'overwritten' };
  return { content: file.content, tool: w.inTests ? 'fs.create_test' : 'fs.write_outside_tests', verb: 'Create', action: 'created' };
}

function sameOf(ids: string[]): Pick<WritePlan, 'acceptedSame'> {
  return ids.length ? { acceptedSame: ids } : {};
}

/**
 * The files earlier runs wrote, read once per run: reading them means parsing every run record (7 MB
 * each on node-forge@1.3.1), and the verifier writes each test file again (42 reads took 2.5 s).
 */
const earlierWrites = new WeakMap<RunStore, { runId: string; paths: Promise<Set<string>> }>();

/** An earlier run of this person (records shipped with the repository do not count) wrote this file. */
async function writtenBefore(store: RunStore, runId: string, path: string): Promise<boolean> {
  let known = earlierWrites.get(store);
  if (!known || known.runId !== runId) {
    const paths = store
      .listRuns()
      .then(
        (runs) => new Set(runs.filter((r) => r.id !== runId).flatMap((r) => r.files.filter((f) => isWritten(f.action)).map((f) => f.path))),
      );
    known = { runId, paths };
    earlierWrites.set(store, known);
    // a failed read is tried again by the next write, not remembered
    paths.catch(() => earlierWrites.get(store) === known && earlierWrites.delete(store));
  }
  return (await known.paths).has(path);
}
