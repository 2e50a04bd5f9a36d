// The Debug profile's launch configuration (client/src/model/debugConfig.ts): the run's own test
// command narrowed to one file and one case id.
import { strict as assert } from 'node:assert';
import { debugConfigFor } from '../../client/src/model/debugConfig';
import type * as P from '../../server/src/protocol';

const ID = 'tc_0123456789ab';

function run(testCommand: string | undefined, testFile = 'test/lib.amtp.test.js'): { run: P.RunView; c: P.CaseView } {
  const c: P.CaseView = {
    id: ID,
    title: 'adds',
    priority: 'P1',
    kind: 'unit',
    target: { file: 'lib.js', symbol: 'add' },
    status: 'written',
    testFile,
    testLine: 3,
  };
  const other: P.CaseView = { ...c, id: 'tc_ffffffffffff', testFile: 'test/other.amtp.test.js' };
  return {
    c,
    run: {
      runId: 'r1',
      status: 'completed',
      stage: 'done',
      createdAt: '2026-01-01T00:00:00Z',
      params: { depth: 'standard', framework: 'auto', provider: 'offline' },
      activities: [],
      cases: [c, other],
      files: [{ path: testFile, action: 'created', caseIds: [ID] }],
      pendingApprovals: [],
      framework: 'mocha',
      ...(testCommand ? { testCommand } : {}),
    },
  };
}

describe('debug launch configuration for one generated test', () => {
  it('mocha: the mocha CLI from node_modules, its options kept, one file, --grep on the case id', () => {
    const { run: r, c } = run('npx mocha --node-option import=tsx test/lib.amtp.test.js test/other.amtp.test.js');
    assert.deepEqual(debugConfigFor(r, c, '/ws', false), {
      type: 'node',
      request: 'launch',
      name: `AMTP: debug ${ID}`,
      cwd: '/ws',
      program: '/ws/node_modules/mocha/bin/mocha.js',
      args: ['--node-option', 'import=tsx', 'test/lib.amtp.test.js', '--grep', ID],
      console: 'internalConsole',
      outputCapture: 'std',
      skipFiles: ['<node_internals>/**'],
    });
  });

  it('jest keeps its --config and env, runs in band with -t', () => {
    const { run: r, c } = run("NODE_OPTIONS=--experimental-vm-modules npx jest --config test/amtp.jest.config.cjs 'test/lib.amtp.test.js'");
    const cfg = debugConfigFor(r, c, '/ws', false);
    assert.ok(!('error' in cfg));
    assert.equal(cfg.program, '/ws/node_modules/jest/bin/jest.js');
    assert.deepEqual(cfg.args, ['--config', 'test/amtp.jest.config.cjs', 'test/lib.amtp.test.js', '--runInBand', '-t', ID]);
    assert.deepEqual(cfg.env, { NODE_OPTIONS: '--experimental-vm-modules' });
  });

  it('node --test: runtime arguments with --test-name-pattern', () => {
    const { run: r, c } = run('node --import tsx --test test/lib.amtp.test.js');
    const cfg = debugConfigFor(r, c, '/ws', false);
    assert.ok(!('error' in cfg));
    assert.deepEqual(cfg.runtimeArgs, ['--import', 'tsx', '--test', '--test-name-pattern', ID, 'test/lib.amtp.test.js']);
    assert.equal(cfg.program, undefined);
  });

  it('pytest: the debugpy module launch when the extension is there, a clear reason when not', () => {
    const { run: r, c } = run('PYTHONPATH=src python3 -m pytest tests/test_core_amtp.py', 'tests/test_core_amtp.py');
    const cfg = debugConfigFor(r, c, '/ws', true);
    assert.ok(!('error' in cfg));
    assert.equal(cfg.type, 'debugpy');
    assert.equal(cfg.module, 'pytest');
    assert.deepEqual(cfg.args, ['tests/test_core_amtp.py', '-k', ID]);
    assert.deepEqual(cfg.env, { PYTHONPATH: 'src' });
    assert.deepEqual(debugConfigFor(r, c, '/ws', false), {
      error: 'debugging a pytest test needs the Python Debugger extension (ms-python.debugpy).',
    });
  });

  it('says why for a case without a test, a piped or an unknown command', () => {
    assert.match((debugConfigFor(run(undefined).run, run(undefined).c, '/ws', false) as { error: string }).error, /has no written test/);
    const piped = run('npx mocha test/lib.amtp.test.js | tee out.txt');
    assert.match((debugConfigFor(piped.run, piped.c, '/ws', false) as { error: string }).error, /not one plain command/);
    const other = run('deno test test/lib.amtp.test.js');
    assert.match((debugConfigFor(other.run, other.c, '/ws', false) as { error: string }).error, /does not know how to debug/);
  });
});
