// Existence and arity checks (agents/generator/existence.ts) are never counted toward coverage: when
// each test is measured alone they go if they cover nothing beyond loading their file. Above
// maxCoverageRuns the contribution is measured per file, so a file with behaviour tests would carry
// its existence checks along. One batched run per such file judges them together instead: the file
// without its existence-only tests. If it still covers every unit beyond import that the whole file
// covered, they all go; if it covers less, one of them reaches code nothing else does and they stay.
// Cost: one runner invocation per file that mixes existence checks with other tests.
import { isExistenceOnly, testCallsTarget } from '../agents/generator/existence';
import { beyondLoad } from '../coverage/beyondImport';
import type { CoverageUnits } from '../frameworks/runner';
import type { Candidate } from './coverage';
import type { VerifyState } from './state';
import { testSource } from './testFile';

/** A test that only looks at its target: its case plans a shape check and its written body never calls the target. */
export function isShapeOnlyTest(s: VerifyState, path: string, content: string, id: string): boolean {
  const c = s.caseOf.get(id);
  return !!c && isExistenceOnly(c) && !testCallsTarget(testSource(path, content, id) ?? '', c.target.symbol);
}

/** Ids of existence-only tests to drop, with the reason, for the files measured whole (`fileUnits` by file path). */
export async function existenceChecksToDrop(
  s: VerifyState,
  targets: string[],
  fileUnits: Candidate[],
  loaded: CoverageUnits,
  droppedFiles: Map<string, string>,
): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const file of s.files) {
    const whole = fileUnits.find((c) => c.id === file.path);
    if (!whole || droppedFiles.has(file.path)) continue;
    const ids = s.stable.filter((t) => t.file === file).map((t) => t.id);
    const shapeOnly = ids.filter((id) => isShapeOnlyTest(s, file.path, file.content, id));
    const others = ids.filter((id) => !shapeOnly.includes(id));
    if (!shapeOnly.length || !others.length) continue;
    const { result } = await s.runner.run(file.path, others, { grep: others, coverageOf: targets });
    if (!result.units) continue;
    const lost = [...beyondLoad(whole.units, loaded)].filter((u) => !result.units!.has(u));
    if (lost.length) {
      s.ctx.info(
        `verify: ${file.path}: its ${shapeOnly.length} existence-only test(s) cover ${lost.length} unit(s) the other tests do not; kept`,
      );
      continue;
    }
    const reason = `adds no coverage: its file's ${others.length} other test(s) cover everything beyond import without its ${shapeOnly.length} existence-only test(s) (measured together: more tests than per-test measurement allows)`;
    for (const id of shapeOnly) out.set(id, reason);
  }
  await s.flushPids();
  return out;
}

/**
 * Measured alone, an existence-only test whose units beyond import are none goes, always: also when
 * no test covers anything (the keep rule then judges nothing) and when the shared-state check would
 * keep its file's dropped tests (an existence check changes no state). Adds them to `gone`.
 */
export function dropLoadOnlyExistence(s: VerifyState, beyondImport: Candidate[], gone: Map<string, string>): void {
  for (const c of beyondImport) {
    const tc = s.caseOf.get(c.id);
    if (c.units.size || !tc || !isExistenceOnly(tc)) continue;
    gone.set(c.id, 'adds no coverage: it covers nothing beyond what loading its file covers (an existence-only test)');
  }
}
