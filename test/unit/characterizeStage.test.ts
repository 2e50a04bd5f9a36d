// The pure parts of the characterize stage: which functions it targets and how it reaches them
// (targets.ts), how its cases replace existence checks in the engineer's plan (plan.ts), the run-wide
// approval the verifier shares (gateway/approvers.ts), and how the tree shows a pinned case.
import { strict as assert } from 'node:assert';
import { caseIcon, describeCase, PINNED_NOTE } from '../../client/src/model/runsModel';
import { smokeCase } from '../../server/src/agents/generator/plannedCases';
import { describeModules } from '../../server/src/agents/generator/modules';
import { charToTestCase } from '../../server/src/characterize/case';
import { characterizeModule, type CharCase } from '../../server/src/characterize/characterize';
import { characterizerFor, type Characterizer } from '../../server/src/characterize/language';
import { characterizePythonModule } from '../../server/src/characterize/python/characterize';
import { characterizeApproved } from '../../server/src/characterize/run';
import { amendPlan } from '../../server/src/characterize/plan';
import { charJobs, exportPath } from '../../server/src/characterize/targets';
import type { CrawlerOutput, TestCase, TestCases } from '../../server/src/contracts/types';
import type { RunRecord } from '../../server/src/core/run';
import { approveAll, recordedDecisions, runWideApprovalId } from '../../server/src/gateway/approvers';
import { Gateway, type ApprovalRequest } from '../../server/src/gateway/gateway';
import type { CaseView } from '../../server/src/protocol';

function map(module_system: 'cjs' | 'esm', symbols: CrawlerOutput['key_files'][number]['symbols']): CrawlerOutput {
  return {
    schema_version: '1',
    project: { name: 'lib', language: 'javascript', module_system, typescript: false },
    entry_points: [{ path: 'index.js', kind: 'main' }],
    test_setup: { framework: 'none', test_dirs: [], config_files: [] },
    key_files: [{ path: 'index.js', language: 'javascript', rank: 1, module_system, symbols }],
    examples: [],
    samples: [],
  } as unknown as CrawlerOutput;
}

const fn = (name: string, export_style: 'named' | 'default' | 'exports.property', extra: object = {}) => ({
  name,
  kind: 'function' as const,
  exported: true,
  export_style,
  params: [{ name: 'n', type: 'number' }],
  line: 1,
  ...extra,
});

function planOf(m: CrawlerOutput, extra: TestCase[] = []): TestCases {
  const [mod] = describeModules(m);
  return {
    schema_version: '1',
    depth_level: 'standard',
    project: {
      name: 'lib',
      language: 'javascript',
      module_system: 'cjs',
      typescript: false,
      test_setup: { framework: 'none', test_dirs: [], config_files: [] },
    },
    cases: [...mod.runtime.map((s) => smokeCase(mod, s, false)), ...extra],
  };
}

describe('characterize stage: targets', () => {
  it('follows the binding the generator uses to the export path the sandbox calls', () => {
    assert.deepEqual(exportPath({ local: 'lib', import: 'module' }, 'lib.grade'), ['grade']);
    assert.deepEqual(exportPath({ local: 'lib', import: 'module' }, 'lib'), []);
    assert.deepEqual(exportPath({ local: 'initials', import: 'default' }, 'initials'), ['default']);
    assert.deepEqual(exportPath({ local: 'sign', import: 'named', name: 'sign' }, 'sign'), ['sign']);
    assert.deepEqual(exportPath({ local: 'ns', import: 'namespace' }, 'ns.a.b'), ['a', 'b']);
    assert.equal(exportPath({ local: 'C', import: 'named', name: 'C' }, '(C.m ?? C.prototype.m)'), undefined);
  });

  it('targets functions with only an existence check, seeded from types and examples; a documented one is left alone', () => {
    const m = map('cjs', [
      fn('grade', 'exports.property', { examples: ['grade(91) // no result written', 'grade(x)'] }),
      fn('sum', 'exports.property'),
    ]);
    const documented: TestCase = {
      ...smokeCase(describeModules(m)[0], m.key_files[0].symbols[1], false),
      id: 'tc_doc000000001',
      kind: 'example',
      title: 'sum(1) is 1',
    };
    const jobs = charJobs(planOf(m, [documented]), m);
    assert.equal(jobs.length, 1);
    assert.deepEqual(
      jobs[0].targets.map((t) => [t.path, t.arity, t.signature, t.examples]),
      [[['grade'], 1, '(n: number)', [[91]]]],
    );
    const reach = jobs[0].reach.get('grade')!;
    assert.equal(reach.access, 'lib.grade');
    assert.deepEqual(reach.bindings, [{ local: 'lib', import: 'module' }]);
    assert.equal(reach.target.export_style, 'exports.property');
    assert.deepEqual(reach.replaces, [planOf(m).cases[0].id]);
  });

  it('an ESM default export is reached through `default`, a named one by its name', () => {
    const m = map('esm', [fn('initials', 'default'), fn('sign', 'named')]);
    const [job] = charJobs(planOf(m), m);
    assert.deepEqual(
      job.targets.map((t) => t.path),
      [['default'], ['sign']],
    );
    assert.deepEqual(job.reach.get('default')!.bindings, [{ local: 'initials', import: 'default' }]);
  });

  it('a module the generator planned nothing for is never run', () => {
    const m = map('cjs', [fn('grade', 'exports.property')]);
    assert.deepEqual(charJobs({ ...planOf(m), cases: [] }, m), []);
  });

  it('picks an engine by language: Node for JavaScript, CPython for Python, none for TypeScript sources', () => {
    assert.equal(characterizerFor('javascript'), characterizeModule);
    assert.equal(characterizerFor('python'), characterizePythonModule);
    assert.equal(characterizerFor('typescript'), undefined);
  });
});

describe('characterize stage: the amended plan', () => {
  const m = map('cjs', [fn('grade', 'exports.property'), fn('words', 'exports.property')]);
  const plan = planOf(m);
  const [job] = charJobs(plan, m);
  const pinned: CharCase = { id: 'grade#0', path: ['grade'], args: [90], oracle: { kind: 'equals', value: 'A' }, lines: [], spans: [] };
  const tc = charToTestCase(pinned, 'index.js', 'javascript', job.reach.get('grade'));

  it('a pinned case calls the function the way the generator reaches it', () => {
    assert.equal(tc.title, 'pins current behaviour: lib.grade(90) returns the observed value');
    assert.deepEqual(tc.oracle, {
      kind: 'equals',
      language: 'javascript',
      call: 'lib.grade(90)',
      expected: '"A"',
      bindings: [{ local: 'lib', import: 'module' }],
    });
    assert.equal(tc.priority, 'P2');
    assert.equal(tc.evidence!.source, 'source');
  });

  it('replaces the existence check of its target in place; the other existence check stays', () => {
    const amended = amendPlan(plan, {
      schema_version: '1',
      modules: [
        { module: 'index.js', targets: 2, cases: [tc], replaces: job.reach.get('grade')!.replaces, stable: 1, unstable: 0, unusable: 0 },
      ],
    });
    assert.deepEqual(
      amended.cases.map((c) => c.title),
      ['pins current behaviour: lib.grade(90) returns the observed value', 'lib.words is a function taking 1 declared parameter(s)'],
    );
    assert.equal(amendPlan(plan, undefined), plan);
  });
});

describe('characterize stage: one approval to run workspace code', () => {
  const req = (id: string): ApprovalRequest => ({ id, runId: 'r1', tool: 'tests.run', risk: 'high', summary: 'run the tests' });
  const run = (decision: 'approved' | 'rejected' | 'pending') =>
    ({
      id: 'r1',
      approvals: [
        { id: runWideApprovalId('r1', 'tests.run'), tool: 'tests.run', risk: 'high', summary: 's', decision, requestedAt: 'now' },
      ],
    }) as unknown as RunRecord;
  const ask = { ask: async () => ({ decision: 'pending' as const, by: 'asked' }) };
  const signed = () => true;

  it("the run-wide decision answers the verifier's own request, approved or rejected", async () => {
    assert.equal((await recordedDecisions(() => run('approved'), ask, signed).ask(req('ap_verifier'))).decision, 'approved');
    assert.equal((await recordedDecisions(() => run('rejected'), ask, signed).ask(req('ap_verifier'))).decision, 'rejected');
  });

  it('a pending one answers nothing, and another tool is never covered', async () => {
    assert.equal((await recordedDecisions(() => run('pending'), ask, signed).ask(req('ap_verifier'))).by, 'asked');
    const write = { ...req('ap_w'), tool: 'fs.overwrite' as const };
    assert.equal((await recordedDecisions(() => run('approved'), ask, signed).ask(write)).by, 'asked');
  });

  it('a decision its seal does not vouch for is said and asked again', async () => {
    const warned: string[] = [];
    const answer = await recordedDecisions(
      () => run('approved'),
      ask,
      () => false,
      (l) => warned.push(l),
    ).ask(req('ap_verifier'));
    assert.equal(answer.by, 'asked');
    assert.deepEqual(warned, [
      'the run record says tests.run was approved, but that decision is not signed by you (it was edited outside AMTP); asking again',
    ]);
  });
});

describe('characterize stage: the tree view', () => {
  const kase = (over: Partial<CaseView>): CaseView => ({
    id: 'tc_000000000001',
    title: 'pins current behaviour: grade(90) returns the observed value',
    priority: 'P2',
    kind: 'boundary',
    target: { file: 'index.js', symbol: 'grade' },
    status: 'passing',
    ...over,
  });

  it('says a pinned case pins current behaviour, with a pin icon; a documented case is unchanged', () => {
    assert.equal(describeCase(kase({ pinned: true })), 'P2 · pins current behaviour · passing');
    assert.equal(caseIcon(kase({ pinned: true }), 'pass'), 'pinned');
    assert.equal(caseIcon(kase({ pinned: true, status: 'failing' }), 'error'), 'error');
    assert.equal(describeCase(kase({ priority: 'P0' })), 'P0 · passing');
    assert.equal(caseIcon(kase({}), 'pass'), 'pass');
    assert.match(PINNED_NOTE, /never a possible bug/);
  });
});

describe('characterize stage: cancellation', () => {
  it('a module cut short by a cancel is not handed back as finished, and no later module starts', async () => {
    const ctl = new AbortController();
    const started: string[] = [];
    const done: string[] = [];
    const stub: Characterizer = async (modulePath) => {
      started.push(modulePath);
      ctl.abort(); // the person cancels while this module runs
      return { module: modulePath, cases: [], stable: 0, unstable: 0, unusable: 3, lines: 0 };
    };
    const gateway = new Gateway('r1', approveAll, { approval: () => undefined, audit: () => undefined });
    const r = await characterizeApproved(
      gateway,
      '/ws',
      [
        { modulePath: '/ws/a.js', targets: [], characterizer: stub },
        { modulePath: '/ws/b.js', targets: [], characterizer: stub },
      ],
      { trusted: true, signal: ctl.signal, done: (m) => void done.push(m.module) },
    );
    assert.deepEqual(started, ['/ws/a.js']);
    assert.deepEqual(done, []);
    assert.deepEqual(r, { ran: true, modules: [] });
  });
});
