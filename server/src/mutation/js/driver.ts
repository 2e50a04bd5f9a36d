// The mutant driver: a test file of the mutation sandbox rewritten so that ONE runner process runs
// its tests against many mutants (docs/mutation.md). The file's imports and requires stay at the top
// (loaded once: the modules under test are the instrumented ones, whose mutants are switched at run
// time); the rest, which registers the tests, becomes a function called once per round with the
// registrars and hooks (it, test, beforeEach, …) replaced by the runtime's wrappers
// (server/src/frameworks/assets/amtp.mutant-runtime.cjs). A round is the coverage round (which
// mutants each test reaches) or one mutant with the tests that reach it, each in a describe block
// named after the mutant, or with the mutant in each test's name where the framework has no describe.
import type * as TS from 'typescript';
import type { Framework } from '../../core/frameworks';
import { caseIdsByName, testsInFile } from '../../frameworks/caseMap';
import { FRAMEWORK_REGISTRY } from '../../frameworks/registry';
import { typescript } from '../../util/typescript';
import { mutationAsset } from '../assets';

export interface DriverRound {
  /** the mutant switched on in this round; null for the coverage round (or a static mutant switched by the env) */
  mutant: string | null;
  /** case ids of the tests this round registers */
  tests: string[];
  /** a mutant round's describe title or test-name prefix: `[amtp-mutant <id>]` */
  label?: string;
  /** a mutant that hits its switch more often than this throws (an endless loop is a kill, not a hang) */
  hitLimit?: number;
  /** an async test still running after this long fails */
  timeoutMs?: number;
  /** load the modules under test anew for this round, with its mutant on (a static mutant; CommonJS files only) */
  fresh?: boolean;
}

export interface DriverPlan {
  rounds: DriverRound[];
  /** where the coverage round writes which mutants each test reached (JSON) */
  out?: string;
  /** each process writes `<progress>-<pid>`: the mutant and test it is running (empty between tests) */
  progress?: string;
  /** each process appends to `<finished>-<pid>` a line per test that ended ("mutant\tcase id\tpassed|failed|timeout") */
  finished?: string;
  /** the sandbox: a fresh round unloads the modules under it (never node_modules) and loads them again */
  root?: string;
}

const TEST_NAMES = ['it', 'test', 'specify'];
const HOOK_NAMES = ['before', 'after', 'beforeEach', 'afterEach', 'beforeAll', 'afterAll'];
/** Statements that belong before the tests: `jest.mock(…)`-style calls are hoisted by their transforms. */
const HOISTED_CALL = /^(?:jest|vi)\.(?:mock|unmock|doMock|hoisted|enableAutomock|disableAutomock)\b/;

export const MUTANT_LABEL = /\[amtp-mutant (\S+?)\]/;

export function labelOf(mutant: string): string {
  return `[amtp-mutant ${mutant}]`;
}

/**
 * The driver's text, or why this file cannot be driven (then its tests are not mutation-tested).
 * `fresh`: the file is CommonJS, so a round can load the modules under test anew with its mutant on
 * (a static mutant, one that runs while modules load, is then tested in this process too).
 */
export function driverFile(
  path: string,
  content: string,
  framework: Framework,
  plan: DriverPlan,
): { text: string; fresh: boolean } | { cannot: string } {
  const ts = typescript();
  const sf = ts.createSourceFile(path, content, ts.ScriptTarget.Latest, true, scriptKind(ts, path));
  const split = splitFile(ts, sf);
  if ('cannot' in split) return split;
  const names = registrarsUsed(ts, split.body, split.declared);
  if (!names.some((n) => TEST_NAMES.includes(n)))
    return { cannot: 'it registers no test through it(), test() or specify() at its top level' };
  const esm = split.header.some((s) => ts.isImportDeclaration(s) || ts.isImportEqualsDeclaration(s)) || /\.m[jt]s$/.test(path);
  if (esm && plan.rounds.some((r) => r.fresh)) return { cannot: 'a round loads its modules anew, which an ES module cannot' };
  const facts = FRAMEWORK_REGISTRY[framework].mutation;
  const label = facts?.describe === 'none' ? 'prefix' : 'title';
  const rounds = plan.rounds.map((r) => ({
    mutant: r.mutant,
    tests: r.tests,
    hitLimit: r.hitLimit,
    timeoutMs: r.timeoutMs,
    ...(r.fresh ? { fresh: true } : {}),
    ...(r.label ? (label === 'prefix' ? { prefix: `${r.label} ` } : { title: r.label }) : {}),
  }));
  const config = {
    rounds,
    out: plan.out ?? null,
    progress: plan.progress ?? null,
    finished: plan.finished ?? null,
    root: plan.root ?? null,
    serial: facts?.serial ?? false,
    tests: TEST_NAMES,
    // The runtime registers a round's tests by their case ids, which the file's comments give per title.
    ids: caseIdsByName(testsInFile(path, content)),
  };
  const text = (part: (s: TS.Statement) => string) => ({ header: split.header.map(part), body: split.body.map(part) });
  const parts = text((s) => s.getFullText(sf).replace(/^\n+/, ''));
  return { text: driverText(path, framework, esm, names, config, parts), fresh: !esm };
}

function driverText(
  path: string,
  framework: Framework,
  esm: boolean,
  names: string[],
  config: { rounds: { fresh?: boolean }[] },
  parts: { header: string[]; body: string[] },
): string {
  const args = names.map((n) => `__amtpW.${n}`).join(', ');
  const fresh = config.rounds.some((r) => r.fresh);
  const text = [
    /\.[cm]?tsx?$/.test(path) ? '// @ts-nocheck' : '',
    ...parts.header,
    // 'fs', not 'node:fs': jest before 27 resolves requires itself and knows no `node:` specifier.
    esm ? "import * as __amtpFs from 'fs';" : "const __amtpFs = require('fs');",
    describeBinding(framework, esm),
    `const __amtpRt = ${mutationAsset('amtp.mutant-runtime.cjs')
      .replace(/^\s*\/\/.*\n/gm, '')
      .trim()
      .replace(/;$/, '')}(${JSON.stringify(config)}, __amtpFs);`,
    `function __amtpBody(${names.join(', ')}) {`,
    ...parts.body,
    '}',
    // A fresh round runs the requires again (modules loaded anew, its mutant on), then the tests over them.
    ...(fresh
      ? ['function __amtpFreshBody(__amtpW) {', ...parts.header, `(function (${names.join(', ')}) {`, ...parts.body, `})(${args});`, '}']
      : []),
    'for (const __amtpRound of __amtpRt.rounds) {',
    `  const __amtpW = __amtpRt.wrappers(__amtpRound, { ${names.map((n) => `${n}: typeof ${n} === 'undefined' ? undefined : ${n}`).join(', ')} });`,
    `  const __amtpRun = __amtpRound.fresh`,
    // Block bodies: jest refuses a describe callback that returns a value.
    "    ? () => { __amtpRt.fresh(__amtpRound, () => __amtpFreshBody(__amtpW), typeof jest === 'undefined' ? undefined : jest, require, __amtpW); }",
    `    : () => { __amtpBody(${args}); };`,
    "  if (__amtpRound.title && typeof __amtpDescribe === 'function') __amtpDescribe(__amtpRound.title, __amtpRun);",
    '  else __amtpRun();',
    '}',
    '',
  ];
  return text.filter((l) => l !== '').join('\n');
}

function scriptKind(ts: typeof TS, path: string): TS.ScriptKind {
  if (/\.[cm]?tsx?$/.test(path)) return path.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  return path.endsWith('x') ? ts.ScriptKind.JSX : ts.ScriptKind.JS;
}

/** `describe` for the round blocks: a global (mocha, jest), an import (vitest, node:test), none (ava, node-tap: names carry the mutant). */
function describeBinding(framework: Framework, esm: boolean): string {
  const describe = FRAMEWORK_REGISTRY[framework].mutation?.describe ?? 'none';
  if (typeof describe === 'object') {
    const { from } = describe;
    return esm ? `import { describe as __amtpDescribe } from '${from}';` : `const { describe: __amtpDescribe } = require('${from}');`;
  }
  if (describe === 'global') return "const __amtpDescribe = typeof describe === 'function' ? describe : undefined;";
  return 'const __amtpDescribe = undefined;';
}

interface Split {
  header: TS.Statement[];
  body: TS.Statement[];
  /** names the body declares at its top level (they cannot be the function's parameters) */
  declared: Set<string>;
}

/** Imports (anywhere) and the leading requires go to the header; the rest is the body. */
function splitFile(ts: typeof TS, sf: TS.SourceFile): Split | { cannot: string } {
  const header: TS.Statement[] = [];
  const body: TS.Statement[] = [];
  let leading = true;
  for (const s of sf.statements) {
    if (ts.isExportDeclaration(s) || ts.isExportAssignment(s) || hasExportModifier(ts, s)) return { cannot: 'it exports something' };
    if (ts.isImportDeclaration(s) || ts.isImportEqualsDeclaration(s)) {
      header.push(s);
      continue;
    }
    leading &&= isHeaderStatement(ts, sf, s);
    (leading ? header : body).push(s);
  }
  if (body.some((s) => hasTopLevelAwait(ts, s))) return { cannot: 'it awaits at its top level' };
  const declared = new Set<string>();
  for (const s of body) for (const n of declaredNames(ts, s)) declared.add(n);
  return { header, body, declared };
}

function hasExportModifier(ts: typeof TS, s: TS.Statement): boolean {
  return ts.canHaveModifiers(s) && !!ts.getModifiers(s)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
}

function isHeaderStatement(ts: typeof TS, sf: TS.SourceFile, s: TS.Statement): boolean {
  if (ts.isExpressionStatement(s)) {
    const e = s.expression;
    if (ts.isStringLiteral(e)) return true; // 'use strict'
    return ts.isCallExpression(e) && (isRequire(ts, e) || HOISTED_CALL.test(e.expression.getText(sf)));
  }
  if (!ts.isVariableStatement(s)) return false;
  return s.declarationList.declarations.every((d) => !!d.initializer && containsRequire(ts, d.initializer));
}

function isRequire(ts: typeof TS, e: TS.CallExpression): boolean {
  return ts.isIdentifier(e.expression) && e.expression.text === 'require';
}

function containsRequire(ts: typeof TS, n: TS.Node): boolean {
  if (ts.isCallExpression(n) && isRequire(ts, n)) return true;
  if (ts.isFunctionLike(n)) return false;
  return !!ts.forEachChild(n, (c) => (containsRequire(ts, c) ? true : undefined));
}

function hasTopLevelAwait(ts: typeof TS, n: TS.Node): boolean {
  if (ts.isAwaitExpression(n) || (ts.isForOfStatement(n) && !!n.awaitModifier)) return true;
  if (ts.isFunctionLike(n) || ts.isClassLike(n)) return false;
  return !!ts.forEachChild(n, (c) => (hasTopLevelAwait(ts, c) ? true : undefined));
}

function declaredNames(ts: typeof TS, s: TS.Statement): string[] {
  if (ts.isVariableStatement(s)) return s.declarationList.declarations.flatMap((d) => bindingNames(ts, d.name));
  if ((ts.isFunctionDeclaration(s) || ts.isClassDeclaration(s) || ts.isEnumDeclaration(s)) && s.name) return [s.name.text];
  return [];
}

function bindingNames(ts: typeof TS, b: TS.BindingName): string[] {
  if (ts.isIdentifier(b)) return [b.text];
  return b.elements.flatMap((e) => (ts.isOmittedExpression(e) ? [] : bindingNames(ts, e.name)));
}

/** The registrars and hooks the body refers to by name (property names and declarations aside). */
function registrarsUsed(ts: typeof TS, body: TS.Statement[], declared: Set<string>): string[] {
  const wanted = new Set([...TEST_NAMES, ...HOOK_NAMES].filter((n) => !declared.has(n)));
  const found = new Set<string>();
  const visit = (n: TS.Node) => {
    if (ts.isIdentifier(n) && wanted.has(n.text) && !isPropertyName(ts, n)) found.add(n.text);
    ts.forEachChild(n, visit);
  };
  body.forEach(visit);
  return [...TEST_NAMES, ...HOOK_NAMES].filter((n) => found.has(n));
}

function isPropertyName(ts: typeof TS, n: TS.Identifier): boolean {
  const p = n.parent;
  return (
    (ts.isPropertyAccessExpression(p) && p.name === n) ||
    (ts.isPropertyAssignment(p) && p.name === n) ||
    (ts.isMethodDeclaration(p) && p.name === n)
  );
}
