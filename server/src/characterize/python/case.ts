// A Python characterization as a planned TestCase for the pytest renderer
// (server/src/frameworks/pytest/render.ts), like server/src/search/case.ts does for JavaScript: evidence `source`, P2 for a
// pinned value, P3 for a pinned error, a title that says it pins current behaviour. The module is
// imported whole (`import pkg.mod as mod`) and called as `mod.f(args)`:
//   a value:  actual = mod.f(args); assert actual == expected   (math.isnan for NaN; list(mod.f(args))
//             for what an iterator yielded)
//   an error: with pytest.raises(ValueError) as excinfo: mod.f(args)
//             actual = str(excinfo.value); assert actual == 'message'
// An error class of another module is matched by its qualified name beside the message.
import { caseId } from '../../agents/generator/caseId';
import type { TestCase } from '../../contracts/types';
import { pythonModule } from '../../frameworks/pytest/render';
import type { CharCase } from '../characterize';
import { CHAR_PREFIX } from '../render';
import { PY_MODULE_LOCAL, raisesOracle } from './raises';
import { seqToTestCase } from './seqCase';
import type { PySeqCase } from './sequence';
import { pyExpected, pyLiteral } from './values';

function callText(c: CharCase): string {
  return `${[PY_MODULE_LOCAL, ...c.path].join('.')}(${c.args.map(pyLiteral).join(', ')})`;
}

function pyCharTitle(c: CharCase): string {
  const call = callText(c).slice(PY_MODULE_LOCAL.length + 1);
  const shown = call.length > 80 ? `${call.slice(0, 77)}...` : call;
  return `${CHAR_PREFIX}${shown} ${c.oracle.kind === 'throws' ? `raises ${c.oracle.errorName}` : 'returns the observed value'}`;
}

/** `file` is workspace-relative (`pkg/mod.py`, `src/pkg/mod.py`). */
export function pyCharToTestCase(c: CharCase, file: string): TestCase | undefined {
  if ('seq' in c) return seqToTestCase(c as PySeqCase, file, pythonModule(file, undefined));
  const call = callText(c);
  const o = c.oracle;
  const bindings = [{ local: PY_MODULE_LOCAL, import: 'module' as const }];
  const symbol = c.path.join('.');
  const base = {
    id: caseId(`${file}#${symbol}`, `characterize ${call}`),
    title: pyCharTitle(c),
    target: { file, symbol },
    preconditions: [],
    steps: [`call ${call}`],
    rationale: 'no documented result: the value pins what the code does today (characterization)',
    evidence: { source: 'source' as const, snippet: 'observed by running the code (characterization)' },
  };
  if (o.kind === 'throws') {
    return {
      ...base,
      kind: 'error',
      priority: 'P3',
      expected: [`raises ${o.errorName}: ${o.message}`],
      oracle: {
        kind: 'equals',
        language: 'python',
        bindings,
        ...raisesOracle(o.errorName, o.message, o.iterated ? `list(${call})` : call, pythonModule(file, undefined)),
      },
    };
  }
  const expected = pyExpected(o.value);
  const iterated = typeof o.value === 'object' && o.value !== null && !Array.isArray(o.value) && o.value.$ === 'iter';
  return {
    ...base,
    kind: 'boundary',
    priority: 'P2',
    expected: [`returns ${expected} (observed when AMTP ran it; pins current behaviour)`],
    oracle: { kind: o.kind, language: 'python', bindings, call: iterated ? `list(${call})` : call, expected },
  };
}
