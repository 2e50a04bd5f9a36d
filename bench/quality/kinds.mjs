// What each kept test is, read from the written test files (its title and body) with the case's
// evidence from the plan the engineer got. The rule, in order (the first that holds wins):
// 1. existence check: the title is the smoke shape of agents/generator/plannedCases.ts (`X is a
//    function`, `… taking N declared parameter(s)`, `X is callable`, `X is defined`), or every
//    assertion of the body only looks at `typeof`, `callable()`, `hasattr()`, `!== undefined`;
// 2. documented: the case's evidence is documentation (readme, jsdoc, docstring, doctest), or it is
//    a property/combinatorial case built from documented calls;
// 3. pinned value: the title starts with 'pins current behaviour: ' (frameworks/header.ts
//    CHAR_PREFIX) and the body makes one call (its result or error is pinned) — with two or more
//    call statements before the assertion it is a sequence;
// 4. sequence: the body builds a call sequence: `new`, a callback or function passed in, or two or
//    more statements that call something before the assertion (the search generator's tests);
// 5. other: the rest (an error case planned from a `throw` in the source, a signature case).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { findAllJsTests } from '../../server/src/frameworks/jsTestFind.ts';
import { parsePyTests } from '../../server/src/frameworks/pyTestFind.ts';

export const KINDS = ['documented', 'sequence', 'pinned', 'existence', 'other'];
const DOCS = new Set(['readme', 'jsdoc', 'docstring', 'doctest']);
const SHAPE_TITLE = / (is a function|is callable)( taking \d+ declared parameter\(s\))?$| is defined$/;
const PIN_PREFIX = 'pins current behaviour: ';
/** Property and combinatorial cases built from documented calls (agents/generator/plannedCases.ts). */
const DOC_DERIVED = / gives the same result on a second call$|^\d+ documented calls of /;
const SHAPE_ASSERT = /typeof|callable\(|hasattr\(|!== undefined|is not None|toBeDefined|toBeTypeOf|\.length\b|inspect\.signature/;
const ASSERT =
  /^\s*(assert|expect|t\.(is|deepEqual|true|false|throws|same|equal|ok|not|match|rejects)|await (assert|expect|t\.))\b|^\s*with pytest\.raises/;

/**
 * Each test's title and body, by case id, read with AMTP's own test finder (the case id sits in a
 * comment on the test's first line: frameworks/caseMap.ts). A Python test's title is its docstring's
 * first line when it has one, else its function name.
 */
export function testsIn(dir, files) {
  const out = new Map();
  for (const file of files) {
    const text = readFileSync(join(dir, file), 'utf8');
    const python = file.endsWith('.py');
    let found;
    try {
      found = python ? parsePyTests(text).tests : findAllJsTests(file, text);
    } catch {
      continue;
    }
    for (const t of found) {
      if (!t.caseId) continue;
      const chunk = text.slice(t.start, t.end);
      const lines = chunk.split('\n');
      const doc = python ? /^\s+(?:"""|"|')(.*?)(?:"""|"|')?\s*$/.exec(lines[1] ?? '')?.[1] : undefined;
      const body = lines.slice(python && doc !== undefined ? 2 : 1);
      out.set(t.caseId, { file, title: (doc ?? t.name).replace(/\\"/g, '"'), body });
    }
  }
  return out;
}

const isAssert = (line) => ASSERT.test(line);
const statements = (body) =>
  body.map((l) => l.trim()).filter((l) => l && !/^[}\])]+[;,)]*$/.test(l) && !l.startsWith('//') && !l.startsWith('#'));

function isSequence(body) {
  const lines = statements(body);
  const text = lines.join('\n');
  if (/\bnew\s+[A-Za-z_$][\w$.]*\s*\(/.test(text)) return true;
  // a function passed as an argument (not the `async () =>` that assert.rejects or pytest wrap a call in)
  if (
    /\((?:[^()]*,\s*)?(?:function\b|\([^()]*\)\s*=>|[A-Za-z_$]\w*\s*=>)/.test(
      text.replace(/(rejects|throws|raises)\(\s*(async\s*)?\(\)\s*=>/g, ''),
    )
  )
    return true;
  if (/\blambda\b/.test(text)) return true;
  return callStatements(lines) >= 2;
}

/** Statements that call something, not counting assertions, imports and `catch (`, `if (`, `for (`…. */
function callStatements(lines) {
  const KEYWORD_PAREN = /\b(catch|if|for|while|switch|function|return|with)\s*\(/g;
  return lines.filter((l) => !isAssert(l) && /[\w$\]]\s*\(/.test(l.replace(KEYWORD_PAREN, '')) && !/\b(require|import)\b/.test(l)).length;
}

function isShapeOnly(body) {
  const asserts = statements(body).filter(isAssert);
  return (
    asserts.length > 0 && asserts.every((l) => SHAPE_ASSERT.test(l)) && !statements(body).some((l) => !isAssert(l) && /\w\s*\(/.test(l))
  );
}

/** The kind of one kept test (see the rule at the top); `kase` is its case in the plan, if found. */
export function kindOf(test, kase) {
  if (!test) return 'other';
  if (SHAPE_TITLE.test(test.title) || isShapeOnly(test.body)) return 'existence';
  if ((kase?.evidence && DOCS.has(kase.evidence.source)) || DOC_DERIVED.test(test.title)) return 'documented';
  // a pinned title with one call (its argument may be `new X()` or a function) is a pinned value
  if (test.title.startsWith(PIN_PREFIX)) return callStatements(statements(test.body)) >= 2 ? 'sequence' : 'pinned';
  if (isSequence(test.body)) return 'sequence';
  return 'other';
}

/** Counts per kind over the kept case ids. */
export function countKinds(dir, files, keptIds, cases) {
  const tests = testsIn(dir, files);
  const counts = Object.fromEntries(KINDS.map((k) => [k, 0]));
  for (const id of keptIds) counts[kindOf(tests.get(id), cases.get(id))] += 1;
  return counts;
}

export const caseIdOf = (name) => /tc_[0-9a-f]{12}/.exec(name)?.[0];
