// Characterization (docs/characterization.md): AMTP runs undocumented functions in a sandboxed child
// and pins what they do. These tests run the real harness on test/fixtures/charlib.
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { charToTestCase } from '../../server/src/characterize/case';
import { characterizeModule, type CharCase } from '../../server/src/characterize/characterize';
import { candidateInputs, FIXED_SEED } from '../../server/src/characterize/inputs';
import { CHAR_PREFIX, renderNodeTest } from '../../server/src/characterize/render';
import { characterizeApproved } from '../../server/src/characterize/run';
import { runInSandbox, type CallResult } from '../../server/src/characterize/sandbox';
import { childEnv } from '../../server/src/util/childEnv';
import { greedySelect } from '../../server/src/characterize/select';
import { jsLiteral, tag } from '../../server/src/characterize/values';
import { approveAll, deferAll } from '../../server/src/gateway/approvers';
import { Gateway } from '../../server/src/gateway/gateway';
import { classifyFailure } from '../../server/src/verifier/classify';

const ROOT = resolve(__dirname, '..', 'fixtures', 'charlib');
const LIB = join(ROOT, 'index.js');
const LIMITS = { callTimeoutMs: 3000, maxOldSpaceMb: 128, bound: 200 };

async function one(name: string, args: unknown[]): Promise<CallResult> {
  const [r] = await runInSandbox(LIB, ROOT, [{ id: name, path: [name], args: args.map(tag) }], LIMITS);
  return r;
}

describe('characterization sandbox', () => {
  it('a call that connects to a non-loopback host is refused and never pinned; loopback stays open', async () => {
    const far = await one('dial', ['93.184.215.14']);
    assert.deepEqual([far.kind, far.kind === 'unpinnable' && far.why], ['unpinnable', 'it tried to reach the network']);
    const byName = await one('dial', ['example.com']);
    assert.equal(byName.kind, 'unpinnable');
    const near = await one('dial', ['127.0.0.1']);
    assert.deepEqual(near.kind === 'return' && near.value, 'connected');
  });

  it('a call that catches the refusal and returns a value is not pinned either: its test would reach the network', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'amtp-char-net-'));
    try {
      const code =
        "const net = require('node:net');\nexports.probe = (h) => { try { net.connect(80, h).destroy(); return 'up'; } catch (e) { return 'down: ' + e.code; } };\n";
      writeFileSync(join(dir, 'probe.js'), code);
      const call = (id: string, host: string) => ({ id, path: ['probe'], args: [tag(host)] });
      const [far, near] = await runInSandbox(join(dir, 'probe.js'), dir, [call('far', '10.1.2.3'), call('near', 'localhost')], LIMITS);
      assert.deepEqual([far.kind, far.kind === 'unpinnable' && far.why], ['unpinnable', 'it tried to reach the network']);
      assert.deepEqual(near.kind === 'return' && near.value, 'up');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a call that loops forever is killed at the timeout and the next calls still run', async () => {
    const started = Date.now();
    const r = await runInSandbox(
      LIB,
      ROOT,
      [
        { id: 'a', path: ['spin'], args: [] },
        { id: 'b', path: ['grade'], args: [95] },
      ],
      { ...LIMITS, callTimeoutMs: 1200 },
    );
    assert.deepEqual(
      r.map((x) => x.kind),
      ['timeout', 'return'],
    );
    assert.equal(r[1].kind === 'return' && r[1].value, 'A');
    assert.ok(Date.now() - started < 10_000);
  });

  it("HOME is a fresh temporary directory, not the user's", async () => {
    const r = await one('home', []);
    assert.equal(r.kind, 'return');
    const home = (r as { value: string }).value;
    assert.notEqual(home, homedir());
    assert.ok(home.startsWith(join(tmpdir(), 'amtp-char-')), home);
    assert.equal(existsSync(home), false, 'the temporary HOME is removed afterwards');
  });

  it('an env secret is not visible to the code', async () => {
    process.env.AMTP_TEST_API_KEY = 'sk-must-not-leak';
    try {
      const r = await one('secret', []);
      assert.equal(r.kind === 'return' && r.value, 'absent');
      const env = childEnv(
        { home: '/tmp/h' },
        { PATH: '/bin', OPENAI_API_KEY: 'x', GITHUB_TOKEN: 'y', AWS_SECRET_ACCESS_KEY: 'z', HOME: '/home/me' },
      );
      assert.deepEqual(
        Object.keys(env).filter((k) => /KEY|TOKEN|SECRET/.test(k)),
        [],
      );
      assert.equal(env.HOME, '/tmp/h');
    } finally {
      delete process.env.AMTP_TEST_API_KEY;
    }
  });
});

describe('characterization results', () => {
  it('output that differs between two runs (Date.now, Math.random) is discarded', async () => {
    const m = await characterizeModule(LIB, ROOT, [{ path: ['stamp'], arity: 1 }], { limits: LIMITS, maxPerTarget: 5 });
    assert.equal(m.cases.length, 0);
    assert.equal(m.unstable, 5);
  });

  it('keeps errors by name and message, values by literal, with literals from the source as inputs', async () => {
    const m = await characterizeModule(
      LIB,
      ROOT,
      [
        { path: ['grade'], arity: 1, source: 'if (score >= 90) return "A"; if (score >= 75) return "B"; if (score >= 50)' },
        { path: ['clamp'], arity: 3 },
      ],
      { limits: LIMITS },
    );
    const grades = m.cases
      .filter((c) => c.path[0] === 'grade')
      .map((c) => c.oracle.kind !== 'throws' && c.oracle.value)
      .sort();
    assert.deepEqual(grades, ['A', 'B', 'C', 'F']);
    const thrown = m.cases.find((c) => c.oracle.kind === 'throws');
    assert.deepEqual(thrown?.oracle, { kind: 'throws', errorName: 'TypeError', message: 'n must be a number' });
  });

  it('greedy selection keeps fewer calls for the same coverage', async () => {
    const m = await characterizeModule(
      LIB,
      ROOT,
      [{ path: ['grade'], arity: 1, signature: '(score: number): string', source: '90 75 50' }],
      { limits: LIMITS },
    );
    const all = await characterizeModule(
      LIB,
      ROOT,
      [{ path: ['grade'], arity: 1, signature: '(score: number): string', source: '90 75 50' }],
      { limits: LIMITS, maxPerTarget: 40 },
    );
    assert.equal(m.cases.length, 4, 'one call per branch of grade');
    assert.ok(m.stable > 10, `${m.stable} stable calls before selection`);
    assert.equal(new Set(m.cases.flatMap((c) => c.lines)).size, m.lines, 'the kept calls cover every line the stable calls cover');
    assert.deepEqual(
      all.cases.map((c) => c.id),
      m.cases.map((c) => c.id),
      'the selection is the same on every run (fixed seed)',
    );
  });

  it('greedySelect: a call adding nothing new is dropped, the union stays the same', () => {
    const calls = [
      { id: 'a', spans: [['f', 0, 10]] as [string, number, number][] },
      { id: 'b', spans: [['f', 0, 20]] as [string, number, number][] },
      { id: 'c', spans: [['f', 5, 15]] as [string, number, number][] },
      {
        id: 'd',
        spans: [
          ['f', 18, 30],
          ['g', 0, 2],
        ] as [string, number, number][],
      },
    ];
    assert.deepEqual(
      greedySelect(calls).map((c) => c.id),
      ['b', 'd'],
    );
  });

  it('generated inputs are the same on every run (fixed seed)', () => {
    const a = candidateInputs({ arity: 2, signature: '(a: number, b: string)' });
    const b = candidateInputs({ arity: 2, signature: '(a: number, b: string)' });
    assert.deepEqual(a, b);
    assert.equal(FIXED_SEED, 20_261_123);
    assert.ok(
      a.some((args) => args[1] === ''),
      'the empty string is a boundary value',
    );
  });

  it('a failing characterization test is never called a possible bug', () => {
    const c: CharCase = { id: 'grade#0', path: ['grade'], args: [95], oracle: { kind: 'equals', value: 'A' }, lines: [], spans: [] };
    const tc = charToTestCase(c, 'index.js', 'javascript');
    assert.ok(tc.title.startsWith(CHAR_PREFIX));
    assert.equal(tc.priority, 'P2');
    const testText = `it('${tc.id}: x', async () => { assert.strictEqual(await mod.grade(95), "A"); });`;
    const verdict = classifyFailure({
      framework: 'node-test',
      testCase: tc,
      testText,
      fileText: testText,
      message: "Expected values to be strictly equal:\n\n'B' !== 'A'",
    });
    assert.equal(verdict.kind, 'test_wrong');
    assert.match(verdict.reason, /pins current behaviour and cannot reveal a bug/);
  });

  it('writes node:test files (CommonJS and ESM) that pass 3 of 3', async function () {
    this.timeout(120_000);
    const dir = mkdtempSync(join(tmpdir(), 'amtp-char-test-'));
    try {
      cpSync(ROOT, dir, { recursive: true });
      const cjs = await characterizeModule(
        join(dir, 'index.js'),
        dir,
        [
          { path: ['grade'], arity: 1, source: '90 75 50' },
          { path: ['clamp'], arity: 3 },
          { path: ['words'], arity: 1 },
        ],
        { limits: LIMITS },
      );
      const esm = await characterizeModule(join(dir, 'esm.mjs'), dir, [{ path: ['initials'], arity: 1 }], { limits: LIMITS });
      assert.ok(esm.cases.length >= 2);
      writeFileSync(join(dir, 'index.char.test.js'), renderNodeTest(cjs.cases, './index.js', false));
      writeFileSync(join(dir, 'esm.char.test.mjs'), renderNodeTest(esm.cases, './esm.mjs', true));
      for (let i = 0; i < 3; i++) {
        const out = execFileSync(process.execPath, ['--test', 'index.char.test.js', 'esm.char.test.mjs'], { cwd: dir, encoding: 'utf8' });
        assert.match(out, new RegExp(`# pass ${cjs.cases.length + esm.cases.length}\\b`));
        assert.match(out, /# fail 0/);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('characterization approval', () => {
  const log = { approval: () => undefined, audit: () => undefined };
  function marked(): { dir: string; job: { modulePath: string; targets: { path: string[]; arity: number }[] } } {
    const dir = mkdtempSync(join(tmpdir(), 'amtp-char-gw-'));
    writeFileSync(join(dir, 'm.js'), `require('fs').writeFileSync(${JSON.stringify(join(dir, 'ran.txt'))}, 'x'); exports.f = () => 1;`);
    return { dir, job: { modulePath: join(dir, 'm.js'), targets: [{ path: ['f'], arity: 0 }] } };
  }

  it('without approval (no TTY, no --yes) no code runs', async () => {
    const { dir, job } = marked();
    try {
      const r = await characterizeApproved(new Gateway('run1', deferAll, log), dir, [job], { trusted: true, limits: LIMITS });
      assert.deepEqual(r, { ran: false, decision: 'pending' });
      assert.equal(existsSync(join(dir, 'ran.txt')), false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('in Restricted Mode nothing runs even with --yes; approved, it runs once for all modules', async () => {
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
      const restricted = await characterizeApproved(new Gateway('run1', counting, log), dir, [job], { trusted: false, limits: LIMITS });
      assert.equal(restricted.ran, false);
      assert.equal(existsSync(join(dir, 'ran.txt')), false);
      const r = await characterizeApproved(new Gateway('run1', counting, log), dir, [job, job], { trusted: true, limits: LIMITS });
      assert.equal(asked, 1);
      assert.ok(r.ran && r.modules.length === 2 && r.modules[0].cases.length === 1);
      assert.equal(existsSync(join(dir, 'ran.txt')), true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('characterization values', () => {
  it('an argument with a key named __proto__ reaches the child without error, and the key renders as a key', async () => {
    const arg = JSON.parse('{"__proto__": 1, "a": 2}') as object;
    const [r] = await runInSandbox(LIB, ROOT, [{ id: 'x', path: ['clamp'], args: [tag(5), tag(arg), tag(arg)] }], LIMITS);
    assert.equal(r.kind, 'return');
    const value = (r as { value: unknown }).value;
    assert.deepEqual(value, 5);
    const literal = jsLiteral(tag(arg));
    assert.equal(literal, '{ ["__proto__"]: 1, a: 2 }');

    assert.deepEqual(Object.keys(eval(`(${literal})`) as object), ['__proto__', 'a']);
  });
});
