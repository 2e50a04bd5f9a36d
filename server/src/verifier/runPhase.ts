// Phase "run": every test file N times, all files in one runner invocation per run (so N
// invocations, whatever the number of files). Sorts each test into loads/does not load, stable,
// flaky, skipping itself, hanging, or failing every run (the judge phase decides what a failure
// means). The first run also measures each test's coverage where the runner gives it from its one
// process (./perTestRun.ts): the adds-coverage phase then needs no run of its own.
import type { Observation } from './execute';
import { perTestOptions, recordPerTest } from './perTestRun';
import { firstLine } from './classify';
import { putFile } from './files';
import { removeTests } from './testFile';
import { drop, type TestFileState, type VerifyState } from './state';

export async function runPhase(s: VerifyState): Promise<void> {
  const { params } = s.ctx;
  const pending = new Map(s.files.filter((f) => f.ids.length).map((f) => [f, [...f.ids]]));
  const seen = new Map<string, Observation[]>();
  const measure = perTestOptions(s);
  for (let r = 1; r <= params.runs && [...pending.values()].some((ids) => ids.length); r++) {
    const entries = [...pending].filter(([, ids]) => ids.length);
    const { obs, results } = await s.runner.runAll(
      entries.map(([f, ids]) => ({ file: f.path, ids })),
      r === 1 && measure ? measure : {},
    );
    await s.flushPids();
    if (r === 1 && measure) recordPerTest(s, results, obs);
    for (const [file, ids] of entries) {
      // A file that hangs is run on its own from the first run again, without its hanging tests.
      if (ids.some((id) => obs.get(id)?.status === 'timeout')) {
        pending.delete(file);
        for (const id of ids) seen.delete(id);
        await runFile(s, file, ids);
        continue;
      }
      for (const id of ids) {
        const o = obs.get(id)!;
        if (o.name) s.names.set(id, o.name);
        seen.set(id, [...(seen.get(id) ?? []), o]);
      }
      if (r === 1) pending.set(file, sortOutLoadErrors(s, file, ids, obs));
    }
  }
  for (const [file, ids] of pending) for (const id of ids) settle(s, file, id, seen.get(id) ?? []);
}

/** Runs a file's tests N times and sorts each one (stable, failing, not loading, not collected, flaky, hanging). */
export async function runFile(s: VerifyState, file: TestFileState, ids: string[] = file.ids): Promise<void> {
  const { params } = s.ctx;
  let pending = [...ids];
  const seen = new Map<string, Observation[]>();
  for (let r = 1; r <= params.runs && pending.length; r++) {
    const { obs } = await s.runner.run(file.path, pending);
    await s.flushPids();
    if ([...obs.values()].some((o) => o.status === 'timeout')) {
      pending = await dropHanging(s, file, pending);
      seen.clear();
      r = 0; // start the N runs again without the hanging tests
      continue;
    }
    for (const id of pending) {
      const o = obs.get(id)!;
      if (o.name) s.names.set(id, o.name);
      seen.set(id, [...(seen.get(id) ?? []), o]);
    }
    if (r === 1) pending = sortOutLoadErrors(s, file, pending, obs);
  }
  for (const id of pending) settle(s, file, id, seen.get(id) ?? []);
}

/** After the first run: tests that never ran because their file did not load, or was not collected, wait for the judge phase. */
function sortOutLoadErrors(s: VerifyState, file: TestFileState, pending: string[], obs: Map<string, Observation>): string[] {
  const notLoaded = pending.filter((id) => obs.get(id)!.status === 'load_error');
  if (notLoaded.length) s.loadFailures.push({ file, ids: notLoaded, message: obs.get(notLoaded[0])!.message ?? 'the file does not load' });
  const notCollected = pending.filter((id) => obs.get(id)!.status === 'not_collected');
  if (notCollected.length) s.notCollected.push({ file, ids: notCollected, message: obs.get(notCollected[0])!.message ?? 'no tests found' });
  for (const id of pending) if (obs.get(id)!.status === 'missing') drop(s, id, 'loads', obs.get(id)!.message ?? 'never ran');
  return pending.filter((id) => !s.results.has(id) && !notLoaded.includes(id) && !notCollected.includes(id));
}

/** What N observations of one test make of it. */
function settle(s: VerifyState, file: TestFileState, id: string, list: Observation[]): void {
  const passed = list.filter((o) => o.status === 'passed').length;
  if (list.length && passed === list.length) s.stable.push({ id, file });
  else if (list.length && list.every((o) => o.status === 'skipped'))
    drop(s, id, 'passes_every_run', 'the test skips itself: nothing is asserted');
  else if (list.length && list.every((o) => o.status === 'failed' || o.status === 'load_error')) {
    const { message, reported } = list.at(-1)!;
    s.failing.set(id, { file, message: message ?? 'failed', ...(reported ? { reported } : {}) });
  } else {
    const bad = Math.max(
      0,
      list.findIndex((o) => o.status !== 'passed'),
    );
    const o = list[bad];
    drop(
      s,
      id,
      'passes_every_run',
      `flaky: passed ${passed} of ${list.length} runs (run ${bad + 1}: ${o?.status}${o?.message ? `: ${firstLine(o.message)}` : ''})`,
      'flaky',
    );
  }
}

/** A file timed out: run its tests one by one, drop the ones that hang, and return the rest. */
async function dropHanging(s: VerifyState, file: TestFileState, pending: string[]): Promise<string[]> {
  const { ctx } = s;
  ctx.info(`verify: ${file.path} timed out; running its tests one by one to find the ones that hang`);
  const hung: string[] = [];
  for (const id of pending) {
    const { obs } = await s.runner.run(file.path, [id], { grep: id });
    if (obs.get(id)?.status === 'timeout') hung.push(id);
  }
  await s.flushPids();
  const secs = ctx.params.timeoutSeconds;
  for (const id of hung) drop(s, id, 'passes_every_run', `hangs: killed after ${secs} s with its whole process group`);
  if (!hung.length) for (const id of pending) drop(s, id, 'passes_every_run', `the file times out (${secs} s) when its tests run together`);
  // A test the person accepted stays even so (./acceptedTests.ts): the file's other tests then time out with it.
  const out = hung.filter((id) => !s.accepted.has(id));
  if (out.length) {
    file.content = removeTests(file.path, file.content, out);
    await putFile(
      ctx.gateway,
      ctx.workspace,
      ctx.log,
      ctx.run().id,
      file.path,
      file.content,
      `removes ${out.length} hanging test(s) before re-running`,
    );
  }
  return pending.filter((id) => !s.results.has(id));
}
