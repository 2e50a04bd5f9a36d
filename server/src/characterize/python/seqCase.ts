// A kept Python call sequence (sequence.ts) as a planned TestCase for the pytest renderer: the steps
// before the last are the oracle's `setup` (recording callbacks defined first, `obj = mod.Cls(…)`,
// `r1 = obj.add(…)`, `obj['k'] = 1`), the last step (or the first observer of the object it
// returned) is the `call`, and what the object and its receiver look like afterwards, and what each
// callback received, are `checks`. A sequence that made files in its sandbox folder runs in
// `tmp_path` (`monkeypatch.chdir(tmp_path)`), so its test never writes into the project.
import { caseId } from '../../agents/generator/caseId';
import type { TestCase } from '../../contracts/types';
import { CHAR_PREFIX } from '../render';
import { isScalar, type Tagged } from '../values';
import { PY_MODULE_LOCAL, raisesOracle } from './raises';
import type { PyArg, PyRow, PySeqCase, PyStep } from './sequence';
import { pyExpected, pyLiteral } from './values';

function argText(a: PyArg): string {
  if ('ref' in a) return a.ref;
  if ('cb' in a) return a.cb.name;
  return pyLiteral(a.lit);
}

/** The step as an expression, or as a statement when it assigns into the receiver (`obj[k] = v`, `del obj[k]`). */
function stepCode(s: PyStep): { expr?: string; statement?: string } {
  if (s.lit !== undefined) return { statement: `${s.var} = ${pyLiteral(s.lit)}` };
  const args = s.args.map(argText);
  const all = [...args, ...Object.entries(s.kwargs).map(([k, a]) => `${k}=${argText(a)}`)].join(', ');
  if (s.fn) return { expr: `${[PY_MODULE_LOCAL, ...s.fn].join('.')}(${all})` };
  const r = s.recv!;
  switch (s.method) {
    case '__getitem__':
      return { expr: `${r}[${args[0]}]` };
    case '__setitem__':
      return { statement: `${r}[${args[0]}] = ${args[1]}` };
    case '__delitem__':
      return { statement: `del ${r}[${args[0]}]` };
    case '__len__':
      return { expr: `len(${r})` };
    case '__contains__':
      return { expr: `${args[0]} in ${r}` };
    case '__iter__':
      return { expr: `list(${r})` };
    case '__call__':
      return { expr: `${r}(${all})` };
    default:
      return { expr: `${r}.${s.method}(${all})` };
  }
}

function callbacks(steps: PyStep[]): string[] {
  const names = steps.flatMap((s) => [...(s.args ?? []), ...Object.values(s.kwargs ?? {})].flatMap((a) => ('cb' in a ? [a.cb.name] : [])));
  return [...new Set(names)].map(
    (n) => `${n}_calls = []\ndef ${n}(*args):\n    ${n}_calls.append(args)\n    return args[0] if args else None`,
  );
}

function statementOf(s: PyStep): string {
  const { expr, statement } = stepCode(s);
  return statement ?? (s.var ? `${s.var} = ${expr}` : expr!);
}

function expectedOf(value: Tagged): { expected: string; kind: 'equals' | 'deep_equals' } {
  return { expected: pyExpected(value), kind: isScalar(value) ? 'equals' : 'deep_equals' };
}

type SeqOracle = Pick<NonNullable<TestCase['oracle']>, 'setup' | 'call' | 'expected' | 'checks'>;

/** Setup, call, expected and checks of a sequence; undefined when its last step pins nothing. */
const isIter = (v: Tagged): boolean => typeof v === 'object' && v !== null && !Array.isArray(v) && v.$ === 'iter';

function indented(lines: string[]): string {
  return lines.map((l) => l.replace(/^/gm, '    ')).join('\n');
}

/** A sequence that entered a context manager: its later steps inside `with obj as ctx:`, asserted after `__exit__`. */
function withOracle(
  r: PyRow,
  module: string,
  enter: number,
  prefix: string[],
  checks: NonNullable<SeqOracle['checks']>,
): SeqOracle | undefined {
  const steps = r.steps;
  const outside = steps.slice(0, enter).map(statementOf);
  const head = `with ${steps[enter].recv} as ${steps[enter].var}:`;
  const inner = steps.slice(enter + 1);
  const last = inner[inner.length - 1] ?? steps[enter];
  const lines = inner.map((s, i) => {
    const code = stepCode(s);
    const iterated = r.kind === 'return' ? isIter(r.value) : r.kind === 'throw' && r.iterated === true;
    const drained = i === inner.length - 1 && iterated && code.expr && !code.expr.startsWith('list(');
    return drained ? `${s.var} = list(${code.expr})` : statementOf(s);
  });
  const block = `${head}\n${indented(lines.length ? lines : ['pass'])}`;
  const more = checks.length ? { checks } : {};
  if (r.kind === 'throw') {
    const o = raisesOracle(r.name, r.message, block, module);
    return { setup: [...prefix, ...outside, o.setup].join('\n'), call: o.call, expected: o.expected, ...more };
  }
  const setup = [...prefix, ...outside, block].join('\n');
  if (r.kind === 'observe') return { setup, call: r.expr, expected: pyExpected(r.value), ...more };
  if (r.kind !== 'return' || !last.var) return undefined;
  return { setup, call: last.var, expected: pyExpected(r.value), ...more };
}

function oracleParts(r: PyRow, module: string): SeqOracle | undefined {
  const steps = r.steps;
  const last = steps[steps.length - 1];
  const prefix = [...(r.fs ? ['monkeypatch.chdir(tmp_path)'] : []), ...callbacks(steps)];
  const before = [...prefix, ...steps.slice(0, -1).map(statementOf)];
  const main = r.kind === 'observe' ? r.expr : undefined;
  const checks = (r.checks ?? [])
    .filter((k) => k.expr !== main && k.expr !== stepCode(last).expr)
    .map((k) => ({ call: k.expr, ...expectedOf(k.value) }));
  const enter = steps.findIndex((s) => s.method === '__enter__');
  if (enter >= 0) return withOracle(r, module, enter, prefix, checks);
  const code = stepCode(last);
  if (r.kind === 'throw') {
    const call = code.statement ?? (r.iterated && !code.expr!.startsWith('list(') ? `list(${code.expr})` : code.expr!);
    const o = raisesOracle(r.name, r.message, call, module);
    return { setup: [...before, o.setup].join('\n'), call: o.call, expected: o.expected, ...(checks.length ? { checks } : {}) };
  }
  if (r.kind === 'observe') {
    return {
      setup: [...before, statementOf(last)].join('\n'),
      call: r.expr,
      expected: pyExpected(r.value),
      ...(checks.length ? { checks } : {}),
    };
  }
  if (r.kind !== 'return') return undefined;
  if (code.statement) {
    // `obj[k] = v` returns nothing: its first check is the assertion
    const [first, ...rest] = checks;
    if (!first) return undefined;
    return {
      setup: [...before, code.statement].join('\n'),
      call: first.call,
      expected: first.expected,
      ...(rest.length ? { checks: rest } : {}),
    };
  }
  const call = r.take
    ? `[x for _, x in zip(range(${r.take}), ${code.expr})]`
    : isIter(r.value) && !code.expr!.startsWith('list(')
      ? `list(${code.expr})`
      : code.expr!;
  return { setup: before.join('\n') || undefined, call, expected: pyExpected(r.value), ...(checks.length ? { checks } : {}) };
}

function title(c: PySeqCase, call: string): string {
  const n = c.seq.steps.length;
  const what = c.oracle.kind === 'throws' ? `raises ${c.oracle.errorName}` : 'gives the observed value';
  const shown = call.length > 70 ? `${call.slice(0, 67)}...` : call;
  return `${CHAR_PREFIX}${n > 1 ? `after ${n - 1} step(s), ` : ''}${shown} ${what}`;
}

/** `file` is workspace-relative; `module` its dotted name. */
export function seqToTestCase(c: PySeqCase, file: string, module: string): TestCase | undefined {
  const parts = oracleParts(c.seq, module);
  if (!parts) return undefined;
  const lastCall = statementOf(c.seq.steps[c.seq.steps.length - 1]);
  const steps = c.seq.steps.map((s) => `call ${statementOf(s)}`);
  const throws = c.oracle.kind === 'throws';
  return {
    id: caseId(`${file}#${c.seq.target}`, `sequence ${JSON.stringify(c.seq.steps)}`),
    title: title(c, lastCall),
    target: { file, symbol: c.seq.target },
    kind: throws ? 'error' : 'boundary',
    priority: throws ? 'P3' : 'P2',
    preconditions: [],
    steps,
    expected: [`${throws ? 'raises' : 'gives'} ${parts.expected} (observed when AMTP ran it; pins current behaviour)`],
    rationale: 'no documented result: a call sequence AMTP built and ran; the values pin what the code does today (characterization)',
    evidence: { source: 'source', snippet: 'observed by running the code (characterization)' },
    oracle: { kind: 'equals', language: 'python', bindings: [{ local: PY_MODULE_LOCAL, import: 'module' }], ...parts },
  };
}
