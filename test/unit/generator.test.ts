import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CrawlerOutput, TestCase, TestCases } from '../../server/src/contracts/types';
import { validate } from '../../server/src/contracts/validate';
import { generateCases } from '../../server/src/agents/generator/offline';

// ms, bytes and slugify maps were produced by the static crawler from the npm tarballs.
export function crawlerMap(name: string): CrawlerOutput {
  return JSON.parse(readFileSync(join(__dirname, '../fixtures/crawler-maps', `${name}.json`), 'utf8')) as CrawlerOutput;
}

function byCall(cases: TestCases, call: string): TestCase {
  const c = cases.cases.find((x) => x.oracle?.call === call);
  assert.ok(c, `no case for ${call}: ${cases.cases.map((x) => x.oracle?.call).join(' | ')}`);
  return c;
}

function assertValid(cases: TestCases): void {
  const r = validate('test-cases', cases);
  assert.ok(r.ok, JSON.stringify(!r.ok && r.errors));
}

describe('generator (offline)', () => {
  it('turns the ms README examples into P0 cases with literal oracles', () => {
    const cases = generateCases(crawlerMap('ms'), 'standard');
    assertValid(cases);
    const twoDays = byCall(cases, "ms('2 days')");
    assert.deepEqual(twoDays.oracle, {
      kind: 'equals',
      language: 'javascript',
      call: "ms('2 days')",
      expected: '172800000',
      bindings: [{ local: 'ms', import: 'module' }],
    });
    assert.equal(twoDays.priority, 'P0');
    assert.equal(twoDays.kind, 'example');
    assert.equal(twoDays.evidence?.source, 'readme');
    assert.equal(byCall(cases, 'ms(-3 * 60000)').kind, 'boundary');
    assert.equal(byCall(cases, 'ms(60000, { long: true })').oracle?.expected, '"1 minute"');
    assert.equal(cases.cases.filter((c) => c.kind === 'example' || c.kind === 'boundary').length, 20);
  });

  it('gives stable ids: same map → same ids, and ids derive from target + scenario only', () => {
    const a = generateCases(crawlerMap('ms'), 'deep');
    const b = generateCases(crawlerMap('ms'), 'deep');
    assert.deepEqual(
      a.cases.map((c) => c.id),
      b.cases.map((c) => c.id),
    );
    for (const c of a.cases) assert.match(c.id, /^tc_[0-9a-f]{12}$/);
    assert.equal(new Set(a.cases.map((c) => c.id)).size, a.cases.length);
    // Standard cases keep their ids at deep depth.
    const std = generateCases(crawlerMap('ms'), 'standard');
    const deepIds = new Set(a.cases.map((c) => c.id));
    for (const c of std.cases) assert.ok(deepIds.has(c.id));
  });

  it('smoke: one basic call per symbol (its first documented example), copied project block', () => {
    const map = crawlerMap('bytes');
    const cases = generateCases(map, 'smoke');
    assertValid(cases);
    assert.deepEqual(
      cases.cases.map((c) => [c.kind, c.oracle?.call, c.target.arity]),
      [
        ['example', 'bytes(1024)', 2],
        ['example', 'bytes.format(1024)', 2],
        ['example', "bytes.parse('1KB')", 1],
      ],
    );
    // Standard plans more than one example per symbol; smoke keeps only the first of each.
    assert.ok(generateCases(map, 'standard').cases.filter((c) => c.kind === 'example').length > cases.cases.length);
    assert.equal(cases.project.module_system, 'cjs');
    assert.equal(cases.project.test_setup.framework, 'mocha');
    assert.equal(cases.project.language, 'javascript');
  });

  it('targets the property a README call uses (bytes.format → format) and binds the module', () => {
    const cases = generateCases(crawlerMap('bytes'), 'standard');
    const c = byCall(cases, "bytes.format(1000, {thousandsSeparator: ' '})");
    assert.equal(c.target.symbol, 'format');
    assert.equal(c.target.export_style, 'exports.property');
    assert.deepEqual(c.oracle?.bindings, [{ local: 'bytes', import: 'module' }]);
    assert.equal(c.oracle?.expected, "'1 000B'");
  });

  it('keeps unquoted printed results as prints oracles and runs state-mutating examples last', () => {
    const cases = generateCases(crawlerMap('slugify'), 'deep');
    assertValid(cases);
    const plain = byCall(cases, "slugify('some string')");
    assert.equal(plain.oracle?.kind, 'prints');
    assert.equal(plain.oracle?.expected, 'some-string');
    const last = cases.cases[cases.cases.length - 1];
    assert.equal(last.oracle?.setup, "slugify.extend({'☢': 'radioactive'})");
    assert.equal(last.oracle?.expected, 'unicode-love-is-radioactive');
    // The module has state (extend), so no order/determinism properties are planned for it.
    assert.ok(!cases.cases.some((c) => c.kind === 'property' || c.kind === 'combinatorial'));
  });

  it('deep adds determinism and order-independence cases at P3 with documented values only', () => {
    const cases = generateCases(crawlerMap('bytes'), 'deep');
    assertValid(cases);
    const props = cases.cases.filter((c) => c.kind === 'property' || c.kind === 'combinatorial');
    assert.ok(props.length >= 4);
    for (const p of props) assert.equal(p.priority, 'P3');
    const order = props.find((p) => p.oracle?.property === 'order_independent' && p.target.symbol === 'parse');
    assert.deepEqual(
      order?.oracle?.sequence?.map((s) => s.call),
      ['bytes.parse(1024)', "bytes.parse('1024')", "bytes.parse('1KB')"],
    );
  });

  it('plans stated errors without inventing a triggering input', () => {
    const cases = generateCases(crawlerMap('ms'), 'standard');
    const err = cases.cases.find((c) => c.kind === 'error');
    assert.ok(err);
    assert.equal(err.oracle, undefined);
    assert.match(err.expected[0], /throws Error/);
  });

  it('reads Python doctests: values, print output, tracebacks', () => {
    const cases = generateCases(crawlerMap('py-textkit'), 'standard');
    assertValid(cases);
    assert.equal(cases.project.language, 'python');
    assert.deepEqual(byCall(cases, 'words("")').oracle?.kind, 'deep_equals');
    const raise = byCall(cases, 'clamp(1, 3, 0)');
    assert.equal(raise.oracle?.kind, 'throws');
    assert.equal(raise.oracle?.error, 'ValueError');
    assert.equal(raise.kind, 'error');
    assert.equal(byCall(cases, 'parse_pair("k=v")[1]').oracle?.kind, 'prints');
    assert.equal(cases.cases.find((c) => c.oracle?.call === 'slug("Hello World")' && c.evidence?.source === 'readme')?.priority, 'P0');
    assert.equal(byCall(cases, 'clamp(5, 0, 3)').priority, 'P1');
  });

  it('reads @example blocks of ESM TypeScript and binds named exports', () => {
    const cases = generateCases(crawlerMap('ts-esm-units'), 'standard');
    assertValid(cases);
    const r = byCall(cases, 'ratio(1, 4)');
    assert.equal(r.oracle?.kind, 'deep_equals');
    assert.deepEqual(r.oracle?.bindings, [{ local: 'ratio', import: 'named', name: 'ratio' }]);
    assert.equal(r.evidence?.source, 'jsdoc');
    assert.equal(byCall(cases, 'ratio(1, 0)').oracle?.error, 'RangeError');
    assert.equal(cases.project.language, 'typescript');
  });
});
