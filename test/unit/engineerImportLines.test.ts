import { strict as assert } from 'node:assert';
import { importLines } from '../../server/src/agents/engineer/batches';
import type { TestFileGroup } from '../../server/src/agents/engineer/filePlan';
import type { TestCase } from '../../server/src/contracts/types';
import type { Project } from '../../server/src/frameworks/types';
import { RENDERERS } from '../../server/src/frameworks';

// The engineer's envelope shows every line AMTP writes to bind the names its tests use (the is-what
// relay run, F5): `import * as isStringModule from …` and the `const { isString } = isStringModule;`
// that binds `isString` from it, which the envelope used to leave out.
const project = { name: 'is-what', language: 'typescript', typescript: true, module_system: 'esm', test_setup: {} } as unknown as Project;
const bindings = [
  { local: 'isStringModule', import: 'namespace' as const },
  { local: 'isString', import: 'named' as const, name: 'isString' },
];
const testCase = {
  id: 'tc_1',
  title: 'isString',
  target: { file: 'src/isString.ts', symbol: 'isString', export_style: 'named' },
  kind: 'example',
  priority: 'P1',
  preconditions: [],
  steps: ['call'],
  expected: ['true'],
  rationale: 'doc',
  oracle: { kind: 'equals', language: 'typescript', call: "isString('a')", expected: 'true', bindings },
} as unknown as TestCase;

describe('engineer envelope: the binding lines AMTP writes', () => {
  it('lists the import and the line that binds a name from the imported namespace, as the file has them', () => {
    const g: TestFileGroup = {
      path: 'test/isString.amtp.test.ts',
      target: 'src/isString.ts',
      project,
      importPath: '../src/isString.js',
      bindings,
      cases: [testCase],
    };
    const lines = importLines(RENDERERS.vitest, g, [testCase]);
    assert.ok(
      lines.some((l) => /^import \* as isStringModule from ["']\.\.\/src\/isString\.js["'];$/.test(l)),
      lines.join('\n'),
    );
    assert.ok(lines.includes('const { isString } = isStringModule;'), lines.join('\n'));
    const file = RENDERERS.vitest.render({
      project,
      path: g.path,
      importPath: g.importPath,
      bindings,
      cases: [],
      typescript: true,
      esm: true,
    });
    for (const l of lines) assert.ok(file.split('\n').includes(l), `${l} is written as shown`);
  });
});
