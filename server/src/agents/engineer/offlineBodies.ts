// The offline Test Engineer: for each case of its batch, the body its framework's renderer writes
// from the case's documented oracle, or the reason it cannot without guessing. AMTP assembles the
// files (assemble.ts), exactly as it does for a model's bodies.
import type { EngineerInput, TestBodies } from '../../contracts/types';
import { RENDERERS } from '../../frameworks';
import { projectFor } from './filePlan';

export function engineerBodies(input: EngineerInput): TestBodies {
  const renderer = RENDERERS[input.framework];
  const targetOf = new Map(input.files.map((f) => [f.path, f.target]));
  const out: TestBodies = { schema_version: '1', tests: [], not_written: [] };
  for (const { file, case: c } of input.cases) {
    const typescript = projectFor(targetOf.get(file) ?? c.target.file, input.project).typescript;
    const body = renderer.body(c, { typescript });
    if ('reason' in body) out.not_written.push({ caseId: c.id, reason: body.reason });
    else out.tests.push({ case_id: c.id, body: body.lines.join('\n'), ...(body.async ? { async: true } : {}) });
  }
  return out;
}
