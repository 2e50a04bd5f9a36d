import { promises as fsp } from 'node:fs';
import { testsInFile } from '../../server/src/frameworks/caseMap';
import * as os from 'node:os';
import * as path from 'node:path';
import { caseIdOf } from '../../server/src/agents/generator/batches';
import type { ReceivedRequest, ScriptedReply } from './fakeOpenAi';

/** A tiny CommonJS library the scripted model "tests". */
/**
 * The adder with `extra` more documented functions in index.js: big enough that small budgets
 * (--max-input-tokens, --max-output-tokens) cut every agent's work into several batches.
 */
export async function makeBigAddWorkspace(extra: number, prefix = 'amtp-big-ws-'): Promise<string> {
  const ws = await makeAddWorkspace(prefix);
  const fns = Array.from(
    { length: extra },
    (_, i) =>
      `/**\n * Adds ${i + 1} to a number: a helper the adder documents at length so its map entry is large.\n * @param {number} a the number\n * @returns {number} a plus ${i + 1}\n */\nfunction plus${i + 1}(a) {\n  return a + ${i + 1};\n}\n`,
  );
  await fsp.writeFile(
    path.join(ws, 'index.js'),
    '/**\n * Adds two numbers.\n * @example add(2, 3) // => 5\n */\nfunction add(a, b) {\n  return a + b;\n}\n' +
      fns.join('') +
      `module.exports = { add, ${fns.map((_, i) => `plus${i + 1}`).join(', ')} };\n`,
  );
  return ws;
}

export async function makeAddWorkspace(prefix = 'amtp-ws-'): Promise<string> {
  // A fixed folder name, so maps of two copies of this workspace are byte-identical.
  const ws = path.join(await fsp.mkdtemp(path.join(os.tmpdir(), prefix)), 'adder');
  await fsp.mkdir(ws);
  await fsp.writeFile(
    path.join(ws, 'package.json'),
    JSON.stringify({ name: 'adder', version: '1.0.0', main: 'index.js', scripts: { test: 'node --test' } }, null, 2),
  );
  await fsp.writeFile(
    path.join(ws, 'index.js'),
    '/**\n * Adds two numbers.\n * @example add(2, 3) // => 5\n */\nfunction add(a, b) {\n  return a + b;\n}\nmodule.exports = { add };\n',
  );
  await fsp.writeFile(path.join(ws, 'README.md'), '# adder\n\n```js\nconst { add } = require("adder");\nadd(2, 3); // => 5\n```\n');
  return ws;
}

/** The one case the scripted generator plans: add(2, 3) returns 5, as the README documents. */
export const ADD_CASE = {
  title: 'add(2, 3) returns 5',
  target: { file: 'index.js', symbol: 'add', export_style: 'exports.property' as const },
  kind: 'example' as const,
  priority: 'P0' as const,
  preconditions: ['index.js loads'],
  steps: ['call add(2, 3)'],
  expected: ['returns 5'],
  rationale: 'documented in the README',
  oracle: { kind: 'equals' as const, language: 'javascript' as const, call: 'add(2, 3)', expected: '5' },
};

/** The id AMTP computes for ADD_CASE (a model never writes ids). */
export const CASE_ID = caseIdOf(ADD_CASE);

/** A generator batch reply (case-plan): the cases, no ids, no project. */
export function goodGeneratorOutput() {
  return { schema_version: '1', cases: [structuredClone(ADD_CASE)] };
}

export const GOOD_BODY = 'assert.equal(add(2, 3), 5);';

/** An engineer batch reply (test-bodies): the body of each case's test; AMTP assembles the file. */
export function goodEngineerOutput() {
  return { schema_version: '1', tests: [{ case_id: CASE_ID, body: GOOD_BODY }], not_written: [] };
}

/** Where AMTP writes the adder's tests (the project's test folder, its naming, `.amtp` in the name). */
export const GOOD_TEST_PATH = 'test/adder.amtp.test.js';

/** The file AMTP assembles from goodEngineerOutput: the case's test with the scripted body. */
export function isGoodTestFile(content: string): boolean {
  // the case id in a comment on the test's first line, the name readable (frameworks/caseMap.ts)
  const test = testsInFile(GOOD_TEST_PATH, content).find((t) => t.caseId === CASE_ID);
  return test?.name === 'add(2, 3) returns 5' && content.includes(GOOD_BODY) && /require\('\.\.\/index\.js'\)/.test(content);
}

function smokeCase(file: string, symbol: string) {
  return {
    title: `${symbol} is a function`,
    target: { file, symbol, export_style: 'exports.property' as const },
    kind: 'smoke' as const,
    priority: 'P2' as const,
    preconditions: [`${file} loads`],
    steps: [`import ${symbol}`],
    expected: ['a function'],
    rationale: 'the export exists',
  };
}

/** A crawler batch reply: nothing to correct. */
export function goodCrawlerOutput() {
  return { schema_version: '1', patch: [] };
}

const fence = (v: unknown) => '```json\n' + JSON.stringify(v, null, 2) + '\n```';

/** A well-behaved model: valid, fenced JSON for each agent. */
export function goodModel(req: ReceivedRequest): ScriptedReply {
  switch (req.agent) {
    case 'crawler':
      return { content: fence(goodCrawlerOutput()) };
    case 'generator': {
      // Plans add(2, 3) in the batch whose view shows it; other batches plan a smoke case per symbol.
      const view = req.envelope?.payload as { key_files?: { path: string; symbols: { name: string }[] }[] } | undefined;
      const files = view?.key_files ?? [];
      const cases = files.flatMap((f) =>
        f.symbols.map((sym) => (f.path === 'index.js' && sym.name === 'add' ? structuredClone(ADD_CASE) : smokeCase(f.path, sym.name))),
      );
      return { content: fence({ schema_version: '1', cases: files.length ? cases : [structuredClone(ADD_CASE)] }) };
    }
    case 'engineer': {
      // A coverage round (the verifier's, after verification): nothing more to add.
      if (req.envelope?.payload && 'round' in req.envelope.payload) return { content: fence({ schema_version: '1', tests: [] }) };
      // A body for each case the batch holds: the documented assertion for add, a case's own oracle
      // (a characterization case: `adder.plus1(0)` is 1), an existence check otherwise.
      type Sent = { id: string; target: { symbol: string }; oracle?: { kind: string; call?: string; expected?: string } };
      const batch = req.envelope?.payload as { cases?: { case: Sent }[] } | undefined;
      const body = (c: Sent) => {
        if (c.id === CASE_ID) return GOOD_BODY;
        const o = c.oracle;
        if (o?.call && o.expected !== undefined && (o.kind === 'equals' || o.kind === 'deep_equals'))
          return `assert.deepStrictEqual(${o.call}, ${o.expected});`;
        return `assert.equal(typeof ${c.target.symbol}, 'function');`;
      };
      const tests = (batch?.cases ?? []).map(({ case: c }) => ({ case_id: c.id, body: body(c) }));
      return { content: fence({ schema_version: '1', tests: batch?.cases ? tests : goodEngineerOutput().tests, not_written: [] }) };
    }
    default:
      return { status: 400, body: { error: { message: 'unknown agent' } } };
  }
}

/** The add test, asserting `expected` for add(2, 3): what a repair session answers with. */
export const addTestWith = (expected: string) =>
  `it('${CASE_ID}: add(2, 3) returns 5', () => {\n  assert.equal(add(2, 3), ${expected});\n});`;

/** A repair session's reply (fenced, as models send it) that fixes the add test to expect `expected`. */
export const repairReply = (expected: string) => ({
  content:
    '```json\n' +
    JSON.stringify({
      schema_version: '1',
      case_id: CASE_ID,
      verdict: 'fixed',
      test: addTestWith(expected),
      reason: `expected ${expected}`,
    }) +
    '\n```',
});
