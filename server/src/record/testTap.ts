// The verifier's contact with the workspace (PipelineDeps.tests), recorded and replayed like the
// crawler's tool calls (toolTap.ts): how tests run here (`tests.plan`), every test run (`tests.run`,
// its RunResult as the return) and every file the verifier writes or removes (`fs.write`, with the
// content's sha256 and the content) and every run of the mutation engine (`mutation.run`, keyed by its
// tests, files and mutants, keyedTap.ts). A replay answers the test and mutation runs from the
// recording and checks the writes: a rewrite that differs from the recorded one is a divergence.
import { runTests, type RunOptions, type RunResult } from '../frameworks/runner';
import { canonicalJson, sha256 } from '../core/canonical';
import type { Framework } from '../core/frameworks';
import type { MutationRunKey, TestAccess } from '../pipeline/deps';
import type { Recorder } from './recorder';
import type { RecordedEvent, Recording } from './recording';
import { ReplayDivergence, type ConsumedEvent } from './replayProvider';
import { recordingKeyed, replayKeyed } from './keyedTap';

/** One run of the mutation engine (the mutation phase, or a round's test against known survivors). */
const MUTATION = 'mutation.run';

/** What identifies a test run across machines: no absolute path, no pid, no signal. */
function runArgs(framework: Framework, files: string[], opts: RunOptions): Record<string, unknown> {
  return { framework, files, grep: opts.grep ?? null, coverageOf: opts.coverageOf ?? null };
}

const argsHash = (name: string, args: unknown) => sha256(canonicalJson({ name, args }));

// Sets and Maps do not survive JSON: they are written as sorted arrays and read back.
type StoredResult = Omit<RunResult, 'units' | 'unitKeys' | 'pid' | 'perTest'> & {
  units?: string[];
  unitKeys?: string[];
  perTest?: { byTest: [string, string[]][]; load: string[] };
};

function store(r: RunResult): StoredResult {
  const { units, unitKeys, perTest, pid: _pid, ...rest } = r;
  return {
    ...rest,
    ...(units ? { units: [...units].sort() } : {}),
    ...(unitKeys ? { unitKeys: [...unitKeys].sort() } : {}),
    ...(perTest
      ? {
          perTest: {
            byTest: [...perTest.byTest].map(([id, u]): [string, string[]] => [id, [...u].sort()]).sort((a, b) => (a[0] < b[0] ? -1 : 1)),
            load: [...perTest.load].sort(),
          },
        }
      : {}),
  };
}

function load(r: StoredResult): RunResult {
  const { units, unitKeys, perTest, ...rest } = r;
  return {
    ...rest,
    ...(units ? { units: new Set(units) } : {}),
    ...(unitKeys ? { unitKeys: new Set(unitKeys) } : {}),
    ...(perTest ? { perTest: { byTest: new Map(perTest.byTest.map(([id, u]) => [id, new Set(u)])), load: new Set(perTest.load) } } : {}),
  };
}

export interface WrittenFile {
  path: string;
  sha256: string | null;
  content: string | null;
}

export function recordingTests(rec: Recorder): TestAccess {
  return {
    plan(decide) {
      const call = rec.event(
        'tool_call',
        'verifier',
        { name: 'tests.plan', args: {} },
        { tool: 'tests.plan', args_hash: argsHash('tests.plan', {}) },
      );
      const plan = decide();
      rec.event('tool_return', 'workspace', { plan }, { tool: 'tests.plan', args_hash: argsHash('tests.plan', {}) }, call);
      return plan;
    },
    async run(framework, dir, files, opts) {
      const args = runArgs(framework, files, opts);
      const args_hash = argsHash('tests.run', args);
      const call = rec.event('tool_call', 'verifier', { name: 'tests.run', args }, { tool: 'tests.run', args_hash });
      const result = await runTests(framework, dir, files, opts);
      // A cancelled run is the person's act, as with LLM calls: it is not replayed.
      if (!result.cancelled) rec.event('tool_return', 'workspace', store(result), { tool: 'tests.run', args_hash }, call);
      return result;
    },
    wrote(path, content) {
      const file: WrittenFile = { path, sha256: content === null ? null : sha256(content), content };
      rec.event('tool_call', 'verifier', { name: 'fs.write', args: file }, { tool: 'fs.write', args_hash: argsHash('fs.write', { path }) });
    },
    mutate: recordingKeyed(rec, MUTATION, 'verifier'),
  };
}

/** The replay side. `unconsumedWrites()` lists recorded rewrites the replay never made. */
export function replayTests(recording: Recording, consumed: ConsumedEvent[]): TestAccess & { unconsumedWrites(): WrittenFile[] } {
  const returns = new Map<string, RecordedEvent[]>();
  const writes: RecordedEvent[] = [];
  for (const e of recording.events) {
    if (e.type === 'tool_return' && (e.tool === 'tests.run' || e.tool === 'tests.plan'))
      returns.set(e.args_hash!, [...(returns.get(e.args_hash!) ?? []), e]);
    if (e.type === 'tool_call' && e.tool === 'fs.write') writes.push(e);
  }
  const next = (name: string, args: unknown): RecordedEvent => {
    const key = argsHash(name, args);
    const e = returns.get(key)?.shift();
    if (!e) throw new ReplayDivergence(`replay diverged: ${name} ${canonicalJson(args).slice(0, 200)} is not in the recording`, null);
    consumed.push({ source_event_id: e.event_id, type: 'tool_return', agent: 'workspace', key, payload_hash: e.payload_hash });
    return e;
  };
  const writtenOf = (e: RecordedEvent) => (recording.payloads.get(e.payload_ref) as { args: WrittenFile }).args;
  return {
    plan<T>(): T {
      return structuredClone((recording.payloads.get(next('tests.plan', {}).payload_ref) as { plan: T }).plan);
    },
    async run(framework, _dir, files, opts) {
      return load(structuredClone(recording.payloads.get(next('tests.run', runArgs(framework, files, opts)).payload_ref)) as StoredResult);
    },
    wrote(path, content) {
      const e = writes.shift();
      const sha = content === null ? null : sha256(content);
      const recorded = e && writtenOf(e);
      if (!e || !recorded || recorded.path !== path || recorded.sha256 !== sha) {
        const was = recorded ? `${recorded.path} ${recorded.sha256?.slice(0, 16) ?? '(removed)'}` : 'no write';
        throw new ReplayDivergence(
          `replay diverged: the verifier writes ${path} ${sha?.slice(0, 16) ?? '(removed)'}; the recording has ${was} here`,
          e?.event_id ?? null,
        );
      }
      consumed.push({ source_event_id: e.event_id, type: 'fs.write', agent: 'verifier', key: path, payload_hash: e.payload_hash });
    },
    mutate: replayKeyed(recording, consumed, MUTATION, (key: MutationRunKey) => `${key.targets.join(', ')} (${key.tests.length} test(s))`),
    unconsumedWrites: () => writes.map(writtenOf),
  };
}
