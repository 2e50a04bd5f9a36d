// Builds a JavaScript/TypeScript test file as a syntax tree (framework header, module bindings, one
// test per case inside one describe) and prints it. Every title and path is a string literal node:
// text from documents or models stays data whatever quotes or line breaks it holds.
import type * as TS from 'typescript';
import type { OracleBinding } from '../contracts/types';
import { typescript } from '../util/typescript';
import { arrow, call, declare, id, print, statement, str } from './jsNodes';
import { caseIdComment } from './caseMap';
import { fileHeader } from './header';
import { findAllJsTests } from './jsTestFind';
import { TEMP_MODULES } from './jsChecks';
import type { JsCaseBody, TestFilePlan } from './types';

export interface JsFileStyle {
  /** framework imports, per module syntax */
  header(esm: boolean, typescript: boolean): TS.Statement[];
  /** `it` or `test` */
  testFn: string;
  /** the test callback's parameter (ava, node-tap: `t`, the assertions) */
  param?: string;
  /** every test callback async (node-tap ends a test when its promise settles) */
  async?: boolean;
  /** tests at the top level, not inside one describe (frameworks without describe) */
  flat?: boolean;
}

export function renderJsFile(plan: TestFilePlan, style: JsFileStyle): string {
  return withCaseIds(plan, printJsFile(plan, style));
}

function printJsFile(plan: TestFilePlan, style: JsFileStyle): string {
  const ts = typescript();
  const titles = uniqueTitles(plan.cases.map((r) => r.case.title));
  const tests = plan.cases.map((r, i) => {
    const body = r.body as JsCaseBody;
    return statement(call(style.testFn, str(titles[i]), arrow(body.statements, body.async || style.async === true, style.param)));
  });
  const imports = [
    ...style.header(plan.esm, plan.typescript),
    ...(plan.cases.some((r) => r.case.oracle?.temp_dir) ? tempModules(plan.esm || plan.typescript) : []),
    ...bindingStatements(plan.bindings, plan.importPath, plan.esm || plan.typescript),
  ];
  if (style.flat) return printFlat(plan, imports, tests);
  const describe = statement(call('describe', str(describeName(plan)), arrow(tests, false)));
  const statements = [...imports, describe];
  ts.addSyntheticLeadingComment(statements[0], ts.SyntaxKind.SingleLineCommentTrivia, ` ${fileHeader(plan)}`, true);
  return print(statements, plan.typescript, (sf) => {
    // A blank line after the imports and between tests.
    const last = sf.statements[sf.statements.length - 1] as TS.ExpressionStatement;
    const fn = (last.expression as TS.CallExpression).arguments[1] as TS.ArrowFunction;
    return [...(sf.statements.length > 1 ? [last] : []), ...(fn.body as TS.Block).statements.slice(1)];
  });
}

/** Imports, then each test after a blank line. */
function printFlat(plan: TestFilePlan, imports: TS.Statement[], tests: TS.Statement[]): string {
  const ts = typescript();
  const statements = [...imports, ...tests];
  ts.addSyntheticLeadingComment(statements[0], ts.SyntaxKind.SingleLineCommentTrivia, ` ${fileHeader(plan)}`, true);
  return print(statements, plan.typescript, (sf) => sf.statements.slice(imports.length));
}

/** Titles as written: a title the file already has gets ` (2)`, ` (3)`…, so that a runner's name selects one test. */
function uniqueTitles(titles: string[], taken: Iterable<string> = []): string[] {
  const used = new Set(taken);
  return titles.map((t) => {
    let title = t;
    for (let n = 2; used.has(title); n++) title = `${t} (${n})`;
    used.add(title);
    return title;
  });
}

/** Each test's case id as a comment at the end of its first line (caseMap.ts reads it there), in the plan's order. */
function withCaseIds(plan: TestFilePlan, text: string): string {
  const tests = findAllJsTests(plan.path, text);
  const edits = tests.slice(0, plan.cases.length).map((t, i) => {
    const nl = text.indexOf('\n', t.start);
    return { at: nl < 0 ? text.length : nl, text: ` ${caseIdComment(plan.path, plan.cases[i].case.id)}` };
  });
  let out = text;
  for (const e of edits.reverse()) out = out.slice(0, e.at) + e.text + out.slice(e.at);
  return out;
}

function describeName(plan: TestFilePlan): string {
  return `${plan.cases[0]?.case.target.file ?? plan.importPath} (AMTP)`;
}

/**
 * One import statement per module, binding each local name the cases use (names checked by jsBody's
 * checkBindings): `import m, { a, b as c } from 'x'` or `const { default: m, a, b: c } = require('x')`.
 * Where the cases also use the module value, the named exports are read from it, not required again.
 */
export function bindingStatements(bindings: OracleBinding[], from: string, esm: boolean): TS.Statement[] {
  const unique = [...new Map(bindings.map((b) => [b.local, b])).values()];
  const whole = unique.filter((b) => b.import === 'module' || b.import === 'namespace');
  const defaults = unique.filter((b) => b.import === 'default');
  const named = unique.filter((b) => b.import === 'named');
  if (esm) return esmImport(whole, defaults, named, from);
  const f = typescript().factory;
  const element = (b: OracleBinding) => f.createBindingElement(undefined, b.name && b.name !== b.local ? b.name : undefined, b.local);
  const parts = [...defaults.map((b) => f.createBindingElement(undefined, 'default', b.local)), ...named.map(element)];
  const required = call('require', str(from));
  if (!whole.length) return parts.length ? [declare('const', f.createObjectBindingPattern(parts), required)] : [];
  const [first, ...aliases] = whole;
  return [
    declare('const', first.local, required),
    ...aliases.map((b) => declare('const', b.local, id(first.local))),
    ...(parts.length ? [declare('const', f.createObjectBindingPattern(parts), id(first.local))] : []),
  ];
}

/** `import d, * as ns from 'x'` / `import d, { a } from 'x'`; named exports next to a namespace are read from it. */
function esmImport(whole: OracleBinding[], defaults: OracleBinding[], named: OracleBinding[], from: string): TS.Statement[] {
  const f = typescript().factory;
  // A CommonJS module value imported into ESM is its default export; a namespace is `* as`.
  const modules = whole.filter((b) => b.import === 'module');
  const namespaces = whole.filter((b) => b.import === 'namespace');
  const [def, ...otherDefaults] = [...modules, ...defaults];
  const [ns, ...otherNamespaces] = namespaces;
  const specifier = (b: OracleBinding) =>
    f.createImportSpecifier(false, b.name && b.name !== b.local ? id(b.name) : undefined, id(b.local));
  const bindings = ns ? f.createNamespaceImport(id(ns.local)) : named.length ? f.createNamedImports(named.map(specifier)) : undefined;
  if (!def && !bindings) return [];
  const out: TS.Statement[] = [
    f.createImportDeclaration(undefined, f.createImportClause(false, def && id(def.local), bindings), str(from)),
  ];
  for (const b of otherDefaults) out.push(declare('const', b.local, id(def.local)));
  for (const b of otherNamespaces) out.push(declare('const', b.local, id(ns.local)));
  if (ns && named.length) {
    const elements = named.map((b) => f.createBindingElement(undefined, b.name && b.name !== b.local ? b.name : undefined, b.local));
    out.push(declare('const', f.createObjectBindingPattern(elements), id(ns.local)));
  }
  return out;
}

/** node's fs, os and path under the names a test's temporary folder uses (jsChecks.ts `inTempDir`). */
function tempModules(esm: boolean): TS.Statement[] {
  const f = typescript().factory;
  return TEMP_MODULES.map(([local, from]) =>
    esm
      ? f.createImportDeclaration(undefined, f.createImportClause(false, undefined, f.createNamespaceImport(id(local))), str(from))
      : declare('const', local, call('require', str(from))),
  );
}

/** `import { a, b } from 'm';` or `const { a, b } = require('m');`: the framework's own names. */
export function frameworkImport(names: string[], from: string, esm: boolean): TS.Statement {
  const f = typescript().factory;
  if (esm)
    return f.createImportDeclaration(
      undefined,
      f.createImportClause(false, undefined, f.createNamedImports(names.map((n) => f.createImportSpecifier(false, undefined, id(n))))),
      str(from),
    );
  return declare(
    'const',
    f.createObjectBindingPattern(names.map((n) => f.createBindingElement(undefined, undefined, n))),
    call('require', str(from)),
  );
}

/** `import assert from 'm';` or `const assert = require('m');`. */
export function defaultImport(local: string, from: string, esm: boolean): TS.Statement {
  const f = typescript().factory;
  if (esm) return f.createImportDeclaration(undefined, f.createImportClause(false, id(local), undefined), str(from));
  return declare('const', local, call('require', str(from)));
}

/**
 * node's strict assert as `assert`: `import { strict as assert } from 'assert';` or
 * `const assert = require('assert').strict;`. The bare name, not `node:assert/strict`: loaders that
 * predate the `node:` scheme and resolve every require themselves (esm@3, which mitt@3's mocha
 * config loads) cannot find the prefixed one, and every Node since 10 has `assert.strict`.
 */
export function strictAssert(esm: boolean): TS.Statement {
  const f = typescript().factory;
  if (esm)
    return f.createImportDeclaration(
      undefined,
      f.createImportClause(false, undefined, f.createNamedImports([f.createImportSpecifier(false, id('strict'), id('assert'))])),
      str('assert'),
    );
  return declare('const', 'assert', f.createPropertyAccessExpression(call('require', str('assert')), 'strict'));
}
