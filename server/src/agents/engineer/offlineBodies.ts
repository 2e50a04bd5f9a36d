// The offline Test Engineer: for each case of its batch, the body its framework's renderer writes
// from the case's documented oracle, or the reason it cannot without guessing. Bodies are checked
// here (their reasons name the oracle field at fault), then recorded as text; AMTP assembles the
// files (assemble.ts) exactly as it does for a model's bodies.
import type { EngineerInput, TestBodies } from '../../contracts/types';
import { RENDERERS } from '../../frameworks';
import type { BodyPlan, CaseBody } from '../../frameworks/types';
import { bindingsOf, importPathOf, projectFor } from './filePlan';

export function engineerBodies(input: EngineerInput): TestBodies {
  const renderer = RENDERERS[input.framework];
  const targetOf = new Map(input.files.map((f) => [f.path, f.target]));
  const out: TestBodies = { schema_version: '1', tests: [], not_written: [] };
  const written: { caseId: string; body: CaseBody; plan: BodyPlan }[] = [];
  for (const { file, case: c } of input.cases) {
    const project = projectFor(targetOf.get(file) ?? c.target.file, input.project);
    const plan: BodyPlan = {
      typescript: project.typescript,
      importPath: importPathOf(c, file, project, renderer),
      bindings: bindingsOf(c),
    };
    const body = renderer.body(c, plan);
    if ('reason' in body) out.not_written.push({ caseId: c.id, reason: body.reason });
    else written.push({ caseId: c.id, body, plan });
  }
  const invalid = renderer.validate?.(written) ?? new Map<string, string>();
  for (const { caseId, body, plan } of written) {
    const reason = invalid.get(caseId);
    if (reason) out.not_written.push({ caseId, reason });
    else
      out.tests.push({
        case_id: caseId,
        body: renderer.printBody(body, plan),
        ...(body.language === 'javascript' && body.async ? { async: true } : {}),
      });
  }
  return out;
}
