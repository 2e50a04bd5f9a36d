// Phase "tidy", after "rewrite" and before "confirm": in AMTP's own files, the setup every test of a
// block repeats moves into the framework's hook or fixture (its descriptor's `sharedSetup`), as a maintainer would ask
// before merging. The tidied files then run once together; a file whose kept tests do not all pass
// that way is put back as it was, so the change never costs a test.
import { FRAMEWORK_REGISTRY } from '../frameworks/registry';
import { putFile } from './files';
import { locate } from './rewritePhase';
import type { TestFileState, VerifyState } from './state';

export async function tidyPhase(s: VerifyState): Promise<void> {
  const { ctx, results } = s;
  const hoist = FRAMEWORK_REGISTRY[ctx.plan.framework].sharedSetup;
  if (!hoist) return;
  const put = (path: string, content: string, why: string) =>
    putFile(ctx.gateway, ctx.workspace, ctx.log, ctx.run().id, path, content, why);
  const tidied: { file: TestFileState; before: string; ids: string[] }[] = [];
  for (const file of s.files) {
    const ids = file.ids.filter((id) => results.get(id)?.outcome === 'passing');
    if (file.personal || !ids.length) continue;
    // A block with a test the person accepted is left as it is: its first line would change (./acceptedTests.ts).
    const next = hoist(file.path, file.content, new Set(file.ids.filter((id) => !s.accepted.has(id))));
    if (next === undefined || !(await put(file.path, next, 'moves the setup each test repeats into a hook or fixture')).done) continue;
    tidied.push({ file, before: file.content, ids });
    file.content = next;
  }
  if (!tidied.length) return;
  const { obs } = await s.runner.runAll(
    tidied.map((t) => ({ file: t.file.path, ids: t.ids })),
    {},
  );
  for (const t of tidied) {
    const passed = t.ids.every((id) => obs.get(id)?.status === 'passed');
    if (
      !passed &&
      (await put(t.file.path, t.before, 'puts the tests back as they were: not all passed with the setup in a hook or fixture')).done
    )
      t.file.content = t.before;
    for (const id of t.file.ids) locate(results.get(id)!, t.file.path, t.file.content);
    ctx.info(
      `verify: ${t.file.path}: shared setup ${passed ? 'moved into a hook or fixture' : 'left in each test (the tidied file did not pass whole)'}`,
    );
  }
  await s.flushPids();
}
