import type { EngineerOutput, TestCases } from '../../contracts/types';
import type { FrameworkChoice } from '../../pipeline/types';

// Placeholder until issue #4 lands.
export function engineerTests(cases: TestCases, framework: FrameworkChoice): EngineerOutput {
  return {
    schema_version: '1',
    framework: framework === 'auto' ? 'node-test' : framework,
    files: [],
    command: 'node --test',
    not_written: cases.cases.map((c) => ({ caseId: c.id, reason: 'not implemented' })),
    pr: { branch: 'amtp/tests', title: 'Add generated tests', body: '', labels: ['tests'] },
  };
}
