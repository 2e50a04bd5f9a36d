import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import fc from 'fast-check';
import * as ts from 'typescript';
import { parseCli } from '../../server/src/cli/args';
import { jsString, pyString } from '../../server/src/frameworks/literals';
import { engineerTests } from '../helpers/offlineEngineer';
import type { TestCases } from '../../server/src/contracts/types';
import { UsageError } from '../../server/src/core/errors';
import { sanitize } from '../../server/src/llm/sanitize';
import { connectInProcess } from '../../server/src/mcp/inProcess';
import { readWorkspaceFile } from '../../server/src/mcp/readFile';
import { searchWorkspace } from '../../server/src/mcp/search';
import { ToolError } from '../../server/src/mcp/toolError';
import { treeTool } from '../../server/src/mcp/treeTool';
import { canonicalJson, canonicalJsonWithRaw, sha256 } from '../../server/src/core/canonical';
import { artifactText } from '../../server/src/store/base';
import { PathEscapeError, resolveInside } from '../../server/src/util/safePath';
import { rmTemp, tally, tempDir } from './helpers/common';

const SEED = Number(process.env.AMTP_FUZZ_SEED ?? 20240808);
const runs = (n: number) => ({ seed: SEED, numRuns: Math.round(n * Number(process.env.AMTP_FUZZ_SCALE ?? 1)) });

/** Counts one property's runs in the report. fast-check throws on the first counterexample. */
function check<T>(category: string, prop: fc.IProperty<T> | fc.IAsyncProperty<T>, n: number): Promise<void> | void {
  const p = prop as fc.IProperty<T>;
  const res = fc.assert(p, runs(n)) as unknown;
  const done = () => tally(category, { tried: runs(n).numRuns });
  return res instanceof Promise ? res.then(done) : done();
}

// Text that looks like what models send: fences, whitespace, JSON, prose, BOMs, CRLF.
const FRAGMENTS = [
  '```',
  '```json',
  '```JSON',
  '```js',
  '\n',
  '\r\n',
  ' ',
  '\t',
  '\uFEFF',
  '{',
  '}',
  '[',
  ']',
  '"',
  '{"a":1}',
  'json',
  'Here:',
  '`',
  '``',
  '\u00a0',
  '\u2028',
];
const modelText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.array(fc.oneof(fc.constantFrom(...FRAGMENTS), fc.string({ maxLength: 8 })), { maxLength: 30 }).map((a) => a.join('')),
);
const fence = (j: string, lang: string, nl: string) => '```' + lang + nl + j + nl + '```';

describe('hostile 2: fuzzing (fast-check, seed ' + SEED + ')', function () {
  this.timeout(120_000);

  describe('sanitize v1.0.0', () => {
    it('never throws; the output is a trimmed substring of the input', () =>
      check(
        '2 fuzz sanitize',
        fc.property(modelText, (s) => {
          const out = sanitize(s);
          assert.ok(s.includes(out));
          assert.equal(out, out.trim());
        }),
        3000,
      ));

    it('removes at most one leading fence and one trailing fence, and nothing but fences and whitespace', () =>
      check(
        '2 fuzz sanitize',
        fc.property(modelText, (s) => {
          const out = sanitize(s);
          // Find where `out` sits: the sanitizer only cuts a prefix and a suffix.
          const at = out === '' ? -1 : s.indexOf(out, firstNonSpace(s) >= 0 ? Math.min(firstNonSpace(s), s.length) : 0);
          if (out === '') return; // everything was fences/whitespace (or one fence): checked below
          const prefix = s.slice(0, at);
          const suffix = s.slice(at + out.length);
          assert.match(prefix, /^\s*(?:```(?:json)?[ \t]*\r?\n?)?\s*$/, `prefix ${JSON.stringify(prefix)}`);
          assert.match(suffix, /^\s*(?:```)?\s*$/, `suffix ${JSON.stringify(suffix)}`);
        }),
        3000,
      ));

    it('an empty output means the input was only whitespace and at most one fence at each end', () =>
      check(
        '2 fuzz sanitize',
        fc.property(modelText, (s) => {
          if (sanitize(s) !== '') return;
          assert.match(s, /^\s*(?:```(?:json)?[ \t]*\r?\n?)?\s*(?:```)?\s*$/, JSON.stringify(s));
        }),
        3000,
      ));

    it('unwraps any JSON document fenced in every accepted way, byte for byte', () =>
      check(
        '2 fuzz sanitize',
        fc.property(fc.jsonValue(), fc.constantFrom('json', ''), fc.constantFrom('\n', '\r\n'), fc.boolean(), (v, lang, nl, pretty) => {
          const j = JSON.stringify(v, null, pretty ? 2 : undefined);
          assert.equal(sanitize(fence(j, lang, nl)), j);
          assert.deepEqual(JSON.parse(sanitize(fence(j, lang, nl))), JSON.parse(j));
        }),
        2000,
      ));

    it('never touches bare JSON (fixed point), so sanitize is idempotent on JSON text', () =>
      check(
        '2 fuzz sanitize',
        fc.property(fc.jsonValue(), (v) => {
          const j = JSON.stringify(v);
          assert.equal(sanitize(j), j);
          assert.equal(sanitize(sanitize(j)), sanitize(j));
        }),
        2000,
      ));

    it('is idempotent exactly when its output has no fence left at either end (it is NOT idempotent in general)', () => {
      const counterexample = '```json\n```json\n{}\n```\n```';
      assert.notEqual(sanitize(sanitize(counterexample)), sanitize(counterexample), 'one fence per call, by design');
      return check(
        '2 fuzz sanitize',
        fc.property(modelText, (s) => {
          const once = sanitize(s);
          const fenceLeft = /^```/.test(once) || /```$/.test(once);
          if (!fenceLeft) assert.equal(sanitize(once), once);
        }),
        3000,
      );
    });
  });

  describe('canonical JSON (RFC 8785)', () => {
    const shuffleKeys = (v: unknown, r: () => number): unknown => {
      if (Array.isArray(v)) return v.map((x) => shuffleKeys(x, r));
      if (v && typeof v === 'object') {
        const entries = Object.entries(v as Record<string, unknown>).sort(() => r() - 0.5);
        return Object.fromEntries(entries.map(([k, x]) => [k, shuffleKeys(x, r)]));
      }
      return v;
    };

    it('round-trips stably: canonical(parse(canonical(x))) === canonical(x), and keeps the data', () =>
      check(
        '2 fuzz canonical',
        fc.property(fc.jsonValue(), (v) => {
          const c = canonicalJson(v);
          assert.equal(canonicalJson(JSON.parse(c)), c);
          assert.deepEqual(JSON.parse(c), JSON.parse(JSON.stringify(v)));
        }),
        2000,
      ));

    it('does not depend on key order (so artifact ids do not either)', () =>
      check(
        '2 fuzz canonical',
        fc.property(fc.dictionary(fc.string(), fc.jsonValue()), fc.integer(), (v, seed) => {
          let s = seed;
          const r = () => (s = (s * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
          const shuffled = shuffleKeys(v, r);
          assert.equal(canonicalJson(shuffled), canonicalJson(v));
          const meta = { sanitizer: 'v1.0.0' as const, provider: 'p', model: 'm', seed: 1, promptHash: 'f'.repeat(64), attempt: 1 };
          assert.equal(artifactText('r_1', 'crawler_output', shuffled, meta).id, artifactText('r_1', 'crawler_output', v, meta).id);
        }),
        1000,
      ));

    it("splicing a member's canonical text gives the same bytes as canonicalizing the whole", () =>
      check(
        '2 fuzz canonical',
        fc.property(fc.dictionary(fc.string(), fc.jsonValue()), fc.string(), fc.jsonValue(), (rest, key, member) => {
          const whole = { ...rest, [key]: member };
          assert.equal(canonicalJsonWithRaw(whole, key, canonicalJson(member)), canonicalJson(whole));
        }),
        1000,
      ));

    it('hash of the canonical text is stable across parse/serialize cycles', () =>
      check(
        '2 fuzz canonical',
        fc.property(fc.jsonValue(), (v) => {
          assert.equal(sha256(canonicalJson(JSON.parse(JSON.stringify(v, null, 1)))), sha256(canonicalJson(v)));
        }),
        500,
      ));
  });

  describe('generated-code literals: model text always becomes one string literal', () => {
    it('jsString(s) parses as exactly one JS string literal whose value is s', () =>
      check(
        '2 fuzz literals',
        fc.property(fc.string({ unit: 'binary', maxLength: 80 }), (s) => {
          const sf = ts.createSourceFile('x.js', `x(${jsString(s)});\n`, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
          assert.equal((sf as unknown as { parseDiagnostics: unknown[] }).parseDiagnostics.length, 0);
          const call = (sf.statements[0] as ts.ExpressionStatement).expression as ts.CallExpression;
          assert.equal(sf.statements.length, 1);
          assert.equal(call.arguments.length, 1);
          assert.ok(ts.isStringLiteral(call.arguments[0]));
          assert.equal((call.arguments[0] as ts.StringLiteral).text, s);
        }),
        2000,
      ));

    it('a rendered test file keeps any title one string literal and any project name inside the one header comment line', () =>
      check(
        '2 fuzz literals',
        fc.property(fc.string({ unit: 'binary', maxLength: 60 }), fc.string({ unit: 'binary', maxLength: 30 }), (title, name) => {
          const id = 'tc_0123456789ab';
          const cases = {
            schema_version: '1',
            depth_level: 'standard',
            project: {
              name,
              language: 'javascript',
              module_system: 'commonjs',
              typescript: false,
              test_setup: { framework: 'none', test_dirs: ['test'], config_files: [] },
            },
            cases: [
              {
                id,
                title,
                target: { file: 'index.js', symbol: 'add' },
                kind: 'example',
                priority: 'P0',
                preconditions: [],
                steps: [],
                expected: [],
                rationale: 'r',
                oracle: {
                  kind: 'equals',
                  language: 'javascript',
                  call: 'add(1, 2)',
                  expected: '3',
                  bindings: [{ local: 'add', import: 'named', name: 'add' }],
                },
              },
            ],
          } as unknown as TestCases;
          const [file] = engineerTests(cases, 'node-test').files;
          const sf = ts.createSourceFile('x.test.js', file.content, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
          assert.equal((sf as unknown as { parseDiagnostics: unknown[] }).parseDiagnostics.length, 0);
          const names: string[] = [];
          const visit = (n: ts.Node): void => {
            if (ts.isCallExpression(n) && ts.isIdentifier(n.expression) && n.expression.text === 'it') {
              assert.ok(ts.isStringLiteral(n.arguments[0]));
              names.push((n.arguments[0] as ts.StringLiteral).text);
            }
            ts.forEachChild(n, visit);
          };
          visit(sf);
          assert.deepEqual(names, [title]);
          assert.ok(file.content.includes(`// ${id}\n`), 'the case id in the comment that ends the first line');
          const lines = file.content.split('\n');
          assert.ok(lines[0].startsWith('// Generated by AMTP from documented behaviour of '));
          assert.equal(lines[1], "const { describe, it } = require('node:test');");
        }),
        300,
      ));

    it('pyString(s) is one Python str constant whose value is s (checked by CPython ast)', async function () {
      const samples = fc.sample(
        fc.string({ unit: 'grapheme', maxLength: 60 }).map((s) => s + '"""\'\\'),
        { seed: SEED, numRuns: 500 },
      );
      samples.push('"""\nimport os\n"""', "'''", '\\', '\\"', '\u2028', '\x00', '\r\n');
      const dir = await tempDir('fuzz-py-');
      try {
        await fsp.writeFile(path.join(dir, 'in.json'), JSON.stringify(samples.map((s) => [s, pyString(s)])));
        const script =
          'import ast,json,sys\nbad=0\nfor want,src in json.load(open(sys.argv[1],encoding="utf-8")):\n  t=ast.parse(src,mode="eval")\n  ok=isinstance(t.body,ast.Constant) and t.body.value==want\n  bad+=0 if ok else 1\n  ok or print(repr(want),src)\nprint("BAD",bad)\n';
        const res = spawnSync('python3', ['-c', script, path.join(dir, 'in.json')], { encoding: 'utf8' });
        if (res.error) return this.skip();
        assert.match(res.stdout, /BAD 0/, res.stdout + res.stderr);
        tally('2 fuzz literals', { tried: samples.length });
      } finally {
        await rmTemp(dir);
      }
    });
  });

  describe('MCP tool arguments: random paths never read outside the root and never crash the server', () => {
    let parent: string;
    let root: string;
    const OUTSIDE = `OUTSIDE-SECRET-${process.pid}-7f3a`;
    before(async () => {
      parent = await tempDir('fuzz-mcp-');
      root = path.join(parent, 'ws');
      await fsp.mkdir(path.join(root, 'sub'), { recursive: true });
      await fsp.writeFile(path.join(parent, 'outside-secret-file.txt'), `${OUTSIDE}\n`);
      await fsp.writeFile(path.join(root, 'inner.txt'), 'inside\n');
      await fsp.writeFile(path.join(root, 'sub', 'a.js'), 'export const a = 1;\n');
      await fsp.symlink('../outside-secret-file.txt', path.join(root, 'link-out'));
      await fsp.symlink(parent, path.join(root, 'dirlink'));
      await fsp.symlink('/etc/passwd', path.join(root, 'sub', 'passwd'));
      await fsp.link(path.join(parent, 'outside-secret-file.txt'), path.join(root, 'hard'));
    });
    after(() => rmTemp(parent));

    const SEGMENTS = [
      '..',
      '.',
      '',
      '%2e%2e',
      '%2E%2E',
      '..%2f',
      '%2e%2e%2f',
      '..\\',
      '..\\..',
      'C:',
      'c:\\',
      '\\\\server\\share',
      '/',
      '/etc',
      '/etc/passwd',
      'outside-secret-file.txt',
      'link-out',
      'dirlink',
      'hard',
      'inner.txt',
      'sub',
      'a.js',
      'passwd',
      '\u0000',
      '．．',
      '\u2025',
      'ws',
      '~',
      '...',
      '..;',
      '..\u0000',
      'sub/..',
      '\u202e',
      'file:///etc/passwd',
      '/tmp',
      os.tmpdir(),
    ];
    const hostilePath = fc.oneof(
      fc
        .array(fc.oneof(fc.constantFrom(...SEGMENTS), fc.string({ unit: 'binary', maxLength: 6 })), { minLength: 1, maxLength: 6 })
        .chain((segs) =>
          fc.tuple(fc.constantFrom('/', '\\', '//'), fc.constantFrom('', '/', './', '\\')).map(([sep, lead]) => lead + segs.join(sep)),
        ),
      fc.string({ unit: 'binary', maxLength: 40 }),
      fc.constantFrom(
        'hard',
        'link-out',
        'dirlink/outside-secret-file.txt',
        'sub/passwd',
        '../outside-secret-file.txt',
        'dirlink',
        'sub/../hard',
      ),
    );

    it('resolveInside: refuses or resolves inside the real root, never elsewhere', () =>
      check(
        '2 fuzz mcp paths',
        fc.asyncProperty(hostilePath, async (p) => {
          try {
            const abs = await resolveInside(root, p);
            const real = await fsp.realpath(abs).catch(() => abs);
            assert.ok(real === root || real.startsWith(root + path.sep), `${JSON.stringify(p)} resolved to ${real}`);
          } catch (e) {
            assert.ok(
              e instanceof PathEscapeError || ['ENAMETOOLONG', 'ELOOP', 'EACCES'].includes((e as NodeJS.ErrnoException).code ?? ''),
              `${JSON.stringify(p)}: ${String(e)}`,
            );
          }
        }),
        2000,
      ));

    it('repo.read_file and repo.tree: a result never carries outside content; failures are ToolErrors', () =>
      check(
        '2 fuzz mcp paths',
        fc.asyncProperty(hostilePath, fc.option(fc.integer({ min: -5, max: 5 })), async (p, line) => {
          for (const call of [
            () =>
              readWorkspaceFile(root, { path: p, ...(line !== null ? { startLine: line, endLine: line + 2 } : {}) }).then((r) =>
                JSON.stringify(r),
              ),
            () => treeTool(root, { path: p }, {}).then((r) => r.text),
          ]) {
            try {
              const text = await call();
              assert.ok(!text.includes(OUTSIDE), `${JSON.stringify(p)} leaked outside content`);
              assert.ok(!text.includes('outside-secret-file.txt'), `${JSON.stringify(p)} listed the outside folder`);
              assert.ok(!text.includes('root:x:0:0'), `${JSON.stringify(p)} read /etc/passwd`);
            } catch (e) {
              assert.ok(
                e instanceof ToolError || e instanceof PathEscapeError || (e as NodeJS.ErrnoException).code,
                `${JSON.stringify(p)}: ${String(e)}`,
              );
            }
          }
        }),
        1500,
      ));

    it('repo.search: random include/exclude globs never reach outside content', () =>
      check(
        '2 fuzz mcp paths',
        fc.property(fc.array(hostilePath, { maxLength: 3 }), fc.array(hostilePath, { maxLength: 2 }), (include, exclude) => {
          for (const query of [OUTSIDE, 'root:x:0:0', 'inside']) {
            try {
              const r = searchWorkspace(root, { query, include, exclude }, {});
              assert.ok(
                !JSON.stringify(r).includes(OUTSIDE) && !JSON.stringify(r).includes('root:x:0:0'),
                `include ${JSON.stringify(include)} leaked`,
              );
            } catch (e) {
              assert.ok(e instanceof ToolError, String(e));
            }
          }
        }),
        400,
      ));

    it('over the MCP protocol: arguments of any type get an error result, and the server keeps answering', async () => {
      const ws = await connectInProcess(root);
      try {
        const anyArg = fc.oneof(
          hostilePath,
          fc.integer(),
          fc.constant(null),
          fc.boolean(),
          fc.array(hostilePath, { maxLength: 3 }),
          fc.dictionary(fc.string({ maxLength: 5 }), hostilePath, { maxKeys: 3 }),
        );
        const tools = ['repo_read_file', 'repo_tree', 'repo_search', 'repo_write_file', 'repo.read_file', 'nope'];
        const keys = [
          'path',
          'query',
          'startLine',
          'endLine',
          'maxBytes',
          'encoding',
          'include',
          'exclude',
          'regex',
          'depth',
          'limit',
          '__proto__',
          'constructor',
        ];
        await check(
          '2 fuzz mcp protocol',
          fc.asyncProperty(
            fc.constantFrom(...tools),
            fc.dictionary(fc.constantFrom(...keys), anyArg, { maxKeys: 4 }),
            async (name, args) => {
              try {
                const r = (await ws.client.callTool({ name, arguments: args })) as {
                  content?: { text?: string }[];
                  structuredContent?: unknown;
                };
                const text = JSON.stringify(r);
                assert.ok(!text.includes(OUTSIDE) && !text.includes('root:x:0:0'), `${name} ${JSON.stringify(args)} leaked`);
              } catch (e) {
                // The SDK answers malformed calls with a JSON-RPC error (McpError); nothing else may escape.
                assert.equal((e as Error).constructor.name, 'McpError', String(e));
              }
            },
          ),
          400,
        );
        const ok = (await ws.client.callTool({ name: 'repo_read_file', arguments: { path: 'inner.txt' } })) as {
          content: { text: string }[];
        };
        assert.equal(ok.content[0].text, 'inside\n', 'the server still answers');
      } finally {
        await ws.close();
      }
    });
  });

  describe('CLI argument parser', () => {
    const TOKENS = [
      'generate',
      'crawl',
      'runs',
      'resume',
      'approve',
      'replay',
      'verify-determinism',
      'mcp',
      'help',
      '--help',
      '-h',
      '--framework',
      'jest',
      'cobol',
      '--depth',
      'deep',
      '--provider',
      'openai',
      'evil',
      '--model',
      '--seed',
      '12',
      '1e3',
      '-1',
      'NaN',
      '--temperature',
      'Infinity',
      '0.1',
      '--max-attempts',
      '--yes',
      '-y',
      '--reject',
      '--note',
      '--record',
      '--out',
      '--pinned',
      '--json',
      '--json=1',
      '--yes=no',
      '--',
      '-',
      '--unknown',
      '-x',
      '-yh',
      '--version',
      '-V',
      '--commit',
      '--risk',
      'tests.run=low',
      '--__proto__',
      '--constructor',
      '--toString',
      '../..',
      '/etc/passwd',
      '\u0000',
      'r_1',
    ];
    // Names of Object.prototype members as the command are bug B1 (below); they are left out here so
    // this property guards everything else in CI.
    const notProto = (argv: string[]) => !(argv[0] && argv[0] in Object.prototype);
    it('parseCli never throws anything but UsageError, and what it accepts is valid', () =>
      check(
        '2 fuzz cli args',
        fc.property(
          fc.array(fc.oneof(fc.constantFrom(...TOKENS), fc.string({ unit: 'binary', maxLength: 12 })), { maxLength: 8 }).filter(notProto),
          (argv) => {
            try {
              const p = parseCli(argv);
              assert.ok(
                ['help', 'version', 'generate', 'crawl', 'runs', 'resume', 'approve', 'replay', 'verify-determinism', 'mcp'].includes(
                  p.command,
                ),
              );
              for (const [k, allowed] of Object.entries({
                framework: ['auto', 'jest', 'vitest', 'mocha', 'node-test', 'pytest'],
                depth: ['smoke', 'standard', 'deep'],
                provider: ['offline', 'openai'],
              })) {
                const v = (p.values as Record<string, unknown>)[k];
                if (v !== undefined) assert.ok(allowed.includes(v as string), `${k}=${String(v)}`);
              }
              if (p.values.seed !== undefined) assert.match(p.values.seed, /^-?\d+$/);
              assert.equal(Object.getPrototypeOf(p.values) === null || Object.getPrototypeOf(p.values) === Object.prototype, true);
            } catch (e) {
              assert.ok(e instanceof UsageError, `${JSON.stringify(argv)} threw ${String(e)}`);
            }
          },
        ),
        5000,
      ));

    it('[B1 fixed] a command named like an Object.prototype member is a UsageError (args.ts uses `command in ALLOWED`)', async () => {
      for (const argv of [['valueOf'], ['constructor', 'x'], ['__proto__', '--json'], ['toString', '--yes'], ['hasOwnProperty']]) {
        assert.throws(() => parseCli(argv), UsageError, JSON.stringify(argv));
      }
    });
  });
});

function firstNonSpace(s: string): number {
  const m = /\S/.exec(s);
  return m ? m.index : -1;
}
