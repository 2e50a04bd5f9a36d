// The Python mutation operators on `ast` and their schemata (server/src/frameworks/assets/amtp_mutate.py),
// run by the real interpreter: which mutants a module gets, which ones the equivalent-mutant filters
// leave out, and that the one instrumented module behaves as each mutant when its switch is on.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { instrumentPython } from '../../server/src/mutation/python/instrument';

const PYTHON = 'python3';

const SOURCE = `"""A module under test."""
import logging

log = logging.getLogger(__name__)
LIMIT = 10


def add(a, b):
    return a + b


def is_small(n):
    """Docstrings are never mutated."""
    return n < LIMIT


def both(a, b):
    return a and not b


def greet(name):
    log.debug("greeting %s", name + "!")
    print("hello", name)
    return "hi " + name


def check(x):
    if x < 0:
        raise ValueError("x must not be negative: " + str(x))
    return x


def count(items):
    total = 0
    for _ in items:
        total += 1
    return total


def after_return():
    return 1
    print("never")


if __name__ == "__main__":
    add(1, 2)
`;

/** Runs `code` after loading the instrumented module as `m`, with `mutant` switched on. */
function runWith(instrumented: string, mutant: string | null, code: string): string {
  const program = [
    'import builtins, types',
    `builtins.__amtp_mutation__ = {"active": ${mutant === null ? 'None' : JSON.stringify(mutant)}, "test": None, "hits": 0, "limit": None, "static": {}, "perTest": {}}`,
    'm = types.ModuleType("m")',
    `exec(compile(${JSON.stringify(instrumented)}, "m.py", "exec"), m.__dict__)`,
    code,
  ].join('\n');
  const r = spawnSync(PYTHON, ['-c', program], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout.trim();
}

describe('Python mutation: ast operators and schemata', function () {
  this.timeout(60_000);
  let result: Awaited<ReturnType<typeof instrumentPython>>;
  before(async () => {
    result = await instrumentPython(PYTHON, new Map([['pkg/m.py', SOURCE]]));
  });
  const find = (mutator: string, original: string, replacement?: string) =>
    result.mutants.find(
      (m) => m.mutator === mutator && m.original === original && (replacement === undefined || m.replacement === replacement),
    );

  it('makes arithmetic, comparison, boolean, constant, return-value and statement-deletion mutants', () => {
    assert.ok(find('ArithmeticOperator', 'a + b', 'a - b'));
    assert.ok(find('ComparisonOperator', 'n < LIMIT', 'n <= LIMIT'));
    assert.ok(find('ComparisonOperator', 'n < LIMIT', 'n >= LIMIT'));
    assert.ok(find('BooleanOperator', 'a and not b', 'a or not b'));
    assert.ok(find('BooleanOperator', 'not b', 'b'));
    assert.ok(find('ConstantValue', '10', '11'));
    assert.ok(find('ConstantValue', '"hi "', "''"));
    assert.ok(find('ReturnValue', 'x', 'None'));
    assert.ok(find('AssignmentOperator', 'total += 1', 'total -= 1'));
    assert.ok(find('StatementDeletion', 'total += 1', 'pass'));
    assert.equal(result.failed.length, 0);
    assert.equal(new Set(result.mutants.map((m) => m.id)).size, result.mutants.length, 'ids are unique');
    // 1-based lines: `return a + b` is line 9 of SOURCE, and its columns span the expression.
    const plus = find('ArithmeticOperator', 'a + b')!;
    assert.deepEqual([plus.start.line, plus.start.column, plus.end.column], [9, 12, 17]);
  });

  it('leaves out logging calls, dead code, error-message text and docstrings, saying why', () => {
    const filtered = result.mutants.filter((m) => m.filtered);
    const why = (original: string) => filtered.find((m) => m.original === original)?.filtered;
    assert.equal(why('name + "!"'), 'in a logging call');
    assert.equal(why('print("hello", name)'), 'in a logging call');
    assert.equal(why('"x must not be negative: "'), 'in the text of an error message');
    assert.equal(why('print("never")'), 'in code that cannot run');
    assert.equal(why('add(1, 2)'), 'in code that cannot run');
    assert.ok(!result.mutants.some((m) => m.original.includes('Docstrings')), 'docstrings are not mutated');
    // The raise itself is not noise: deleting it is a mutant a test can kill.
    const raise = result.mutants.find((m) => m.mutator === 'StatementDeletion' && m.original.startsWith('raise'));
    assert.ok(raise && !raise.filtered);
  });

  it('one instrumented module behaves as the original with no mutant on, and as each mutant when its switch is on', () => {
    const code = result.files.get('pkg/m.py')!;
    const probe = 'print(m.add(2, 3), m.is_small(10), m.both(True, False), m.count([1, 2, 3]), m.greet("x"))';
    assert.equal(runWith(code, null, probe), 'hello x\n5 False True 3 hi x');
    const id = (mutator: string, original: string, replacement: string) => find(mutator, original, replacement)!.id;
    assert.equal(runWith(code, id('ArithmeticOperator', 'a + b', 'a - b'), 'print(m.add(2, 3))'), '-1');
    assert.equal(runWith(code, id('ComparisonOperator', 'n < LIMIT', 'n <= LIMIT'), 'print(m.is_small(10))'), 'True');
    assert.equal(runWith(code, id('BooleanOperator', 'not b', 'b'), 'print(m.both(True, False))'), 'False');
    assert.equal(runWith(code, id('AssignmentOperator', 'total += 1', 'total -= 1'), 'print(m.count([1, 2, 3]))'), '-3');
    assert.equal(runWith(code, id('StatementDeletion', 'total += 1', 'pass'), 'print(m.count([1, 2, 3]))'), '0');
    assert.equal(runWith(code, id('ReturnValue', 'x', 'None'), 'print(m.check(4))'), 'None');
    const raise = result.mutants.find((m) => m.mutator === 'StatementDeletion' && m.original.startsWith('raise'))!.id;
    assert.equal(runWith(code, raise, 'print(m.check(-1))'), '-1');
  });

  it('counts which mutants a call reaches, per test, and loops forever only up to the hit limit', () => {
    const code = result.files.get('pkg/m.py')!;
    const reached = runWith(
      code,
      null,
      'import builtins\nns = builtins.__amtp_mutation__\nns["test"] = "tc_000000000001"\nm.add(1, 2)\nprint(sorted(ns["perTest"]["tc_000000000001"]))',
    );
    const plus = result.mutants.filter((m) => m.original === 'a + b' || m.original === 'a + b'.trim()).map((m) => m.id);
    for (const id of plus) assert.ok(reached.includes(`'${id}'`), `${id} in ${reached}`);
    const deletion = find('StatementDeletion', 'total += 1', 'pass')!.id;
    const limited = runWith(
      code,
      deletion,
      'import builtins\nbuiltins.__amtp_mutation__["limit"] = 5\ntry:\n    m.count(range(100))\nexcept BaseException as e:\n    print(type(e).__name__)',
    );
    assert.equal(limited, '_AmtpHitLimit');
  });

  it('reports a module that does not parse instead of failing the others', async () => {
    const r = await instrumentPython(
      PYTHON,
      new Map([
        ['bad.py', 'def f(:\n'],
        ['good.py', 'def g():\n    return 1 + 1\n'],
      ]),
    );
    assert.deepEqual(
      r.failed.map((f) => f.file),
      ['bad.py'],
    );
    assert.ok(r.mutants.some((m) => m.file === 'good.py'));
  });
});
