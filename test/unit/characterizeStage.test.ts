// The pure parts of the characterize stage: which modules it hands the search and with what seeds
// (searchJobs.ts), which Python functions it targets and how it reaches them (targets.ts), how its
// cases replace existence checks in the engineer's plan (plan.ts), the run-wide approval the verifier
// shares (gateway/approvers.ts), and how the tree shows a pinned case.
import { strict as assert } from 'node:assert';
import { caseIcon, describeCase, PINNED_NOTE } from '../../client/src/model/runsModel';
import { smokeCase } from '../../server/src/agents/generator/plannedCases';
import { describeModules } from '../../server/src/agents/generator/modules';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { characterizeApproved, type ModuleJob } from '../../server/src/characterize/run';
import { amendPlan } from '../../server/src/pipeline/testPlan';
import { replacedBy, searchJobs } from '../../server/src/characterize/searchJobs';
import { charJobs, exportPath } from '../../server/src/characterize/targets';
import { sequenceCase } from '../../server/src/search/case';
import { approveAll, deferAll } from '../../server/src/gateway/approvers';
import type { CrawlerOutput, TestCase, TestCases } from '../../server/src/contracts/types';
import type { RunRecord } from '../../server/src/core/run';
import { recordedDecisions, runWideApprovalId } from '../../server/src/gateway/approvers';
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

  it('hands the search every planned JavaScript module, with seeds from types and examples and its existence checks', () => {
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
    const plan = planOf(m, [documented]);
    const [job, ...more] = searchJobs(plan, m);
    assert.equal(more.length, 0);
    assert.equal(job.module, 'index.js');
    assert.deepEqual(job.job.binding, { local: 'lib', import: 'module' });
    assert.deepEqual(job.job.seeds.get('grade'), { examples: [[91]], types: ['number'], names: ['n'] });
    assert.deepEqual(
      job.existence.map((e) => e.symbol),
      ['grade', 'sum'],
    );
    assert.equal(job.weight, 3);
  });

  it('an ESM module is bound as a namespace (its default export is `lib.default`)', () => {
    const m = map('esm', [fn('initials', 'default'), fn('sign', 'named')]);
    const [job] = searchJobs(planOf(m), m);
    assert.deepEqual(job.job.binding, { local: 'initials', import: 'namespace' });
  });

  it('a module the generator planned nothing for is never run', () => {
    const m = map('cjs', [fn('grade', 'exports.property')]);
    assert.deepEqual(searchJobs({ ...planOf(m), cases: [] }, m), []);
    assert.deepEqual(charJobs(planOf(m), m), [], 'the Python characterizer takes Python modules only');
  });

  it('a kept sequence replaces the existence checks of the symbols it calls and of their classes', () => {
    const existence = [
      { id: 'a', symbol: 'Stack' },
      { id: 'b', symbol: 'Stack.push' },
      { id: 'c', symbol: 'Stack.pop' },
      { id: 'd', symbol: 'lib' },
      { id: 'e', symbol: 'other' },
    ];
    assert.deepEqual(replacedBy(existence, ['Stack.push'], 'lib'), ['a', 'b', 'd']);
    assert.deepEqual(replacedBy(existence, [], 'lib'), []);
  });
});

describe('characterize stage: the amended plan', () => {
  const m = map('cjs', [fn('grade', 'exports.property'), fn('words', 'exports.property')]);
  const plan = planOf(m);
  const [job] = searchJobs(plan, m);
  const tc = sequenceCase(
    { id: '0', steps: [{ op: 'call', path: ['grade'], args: [{ lit: 90 }] }] },
    {
      steps: [{ ok: true, async: false }],
      settled: true,
      values: [{ shape: { t: 'string' }, v: 'A' }],
      mutated: [],
      callbacks: [],
      events: [],
    },
    { file: 'index.js', language: 'javascript', binding: job.job.binding },
  )!;

  it('a pinned case calls the function through the module binding', () => {
    assert.equal(tc.title, 'pins current behaviour: grade(90) returns "A"');
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
    const replaces = replacedBy(
      job.existence.filter((e) => e.symbol !== 'lib'),
      ['grade'],
      'nothing',
    );
    const amended = amendPlan(plan, {
      schema_version: '1',
      modules: [{ module: 'index.js', targets: 2, cases: [tc], replaces, stable: 1, unstable: 0, unusable: 0 }],
    });
    assert.deepEqual(
      amended.cases.map((c) => c.title),
      ['pins current behaviour: grade(90) returns "A"', 'lib.words is a function taking 1 declared parameter(s)'],
    );
    // Without characterization the plan is the generator's, each case with the confidence its evidence gives.
    assert.deepEqual(
      amendPlan(plan, undefined).cases.map(({ confidence: _c, ...c }) => c),
      plan.cases.map(({ confidence: _c, ...c }) => c),
    );
    assert.ok(amendPlan(plan, undefined).cases.every((c) => c.confidence !== undefined && c.confidence >= 0 && c.confidence <= 1));
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

describe('characterize stage: running modules', () => {
  const log = { approval: () => undefined, audit: () => undefined };
  function marked(): { dir: string; job: ModuleJob<string> } {
    const dir = mkdtempSync(join(tmpdir(), 'amtp-char-gw-'));
    const ran = join(dir, 'ran.txt');
    return { dir, job: { modulePath: join(dir, 'm.js'), run: async () => (writeFileSync(ran, 'x'), 'done') } };
  }

  it('without approval (no TTY, no --yes) no code runs', async () => {
    const { dir, job } = marked();
    try {
      const r = await characterizeApproved(new Gateway('run1', deferAll, log), dir, [job], { trusted: true });
      assert.deepEqual(r, { ran: false, decision: 'pending' });
      assert.equal(existsSync(join(dir, 'ran.txt')), false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('in Restricted Mode nothing runs even with --yes; approved, it asks once for all modules, two at a time', async () => {
    const { dir, job } = marked();
    try {
      let asked = 0;
      const counting = {
        ask: async (req: Parameters<typeof approveAll.ask>[0]) => {
          asked++;
          assert.equal(req.tool, 'tests.run');
          return approveAll.ask(req);
        },
      };
      const restricted = await characterizeApproved(new Gateway('run1', counting, log), dir, [job], { trusted: false });
      assert.equal(restricted.ran, false);
      assert.equal(existsSync(join(dir, 'ran.txt')), false);
      let running = 0;
      let most = 0;
      const slow: ModuleJob<string> = {
        modulePath: job.modulePath,
        run: async () => {
          most = Math.max(most, ++running);
          await job.run();
          await new Promise((r) => setImmediate(r));
          running--;
          return 'done';
        },
      };
      const r = await characterizeApproved(new Gateway('run1', counting, log), dir, [slow, slow, slow], { trusted: true, concurrency: 2 });
      assert.equal(asked, 1);
      assert.deepEqual(r, { ran: true, modules: ['done', 'done', 'done'] });
      assert.equal(most, 2);
      assert.equal(existsSync(join(dir, 'ran.txt')), true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a module cut short by a cancel is not handed back as finished, and no later module starts', async () => {
    const ctl = new AbortController();
    const started: string[] = [];
    const done: string[] = [];
    const job = (modulePath: string): ModuleJob<string> => ({
      modulePath,
      run: async () => {
        started.push(modulePath);
        ctl.abort(); // the person cancels while this module runs
        return modulePath;
      },
    });
    const gateway = new Gateway('r1', approveAll, log);
    const r = await characterizeApproved(gateway, '/ws', [job('/ws/a.js'), job('/ws/b.js')], {
      trusted: true,
      signal: ctl.signal,
      done: (j) => void done.push(j.modulePath),
    });
    assert.deepEqual(started, ['/ws/a.js']);
    assert.deepEqual(done, []);
    assert.deepEqual(r, { ran: true, modules: [] });
  });
});
