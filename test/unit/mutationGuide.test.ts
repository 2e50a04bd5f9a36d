// The guide (server/src/mutation/guide.ts): a module's mutants and instrumented text with its switch,
// for the offline search; surviving mutants per function as diffs with the function's source, for the
// LLM rounds. The instrumented text is loaded here in a child process and switched, as a sandbox would.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { instrumentModules, MUTANT_SWITCH, survivorsByFunction } from '../../server/src/mutation/guide';
import type { SurvivingMutant } from '../../server/src/core/mutation';

const JS = `'use strict';
function area(w, h) {
  return w * h;
}
class Shape {
  grow(by) {
    const next = this.size + by;
    return next;
  }
}
module.exports = { area, Shape };
`;

const PY = `def area(w, h):
    return w * h


class Shape:
    def grow(self, by):
        return self.size + by
`;

describe('mutation guide', function () {
  this.timeout(60_000);
  let ws: string;
  before(() => {
    ws = mkdtempSync(join(tmpdir(), 'amtp-guide-'));
    mkdirSync(join(ws, 'src'));
    writeFileSync(join(ws, 'src/area.js'), JS);
    writeFileSync(join(ws, 'src/area.py'), PY);
  });
  after(() => rmSync(ws, { recursive: true, force: true }));

  it('gives each module its mutants and an instrumented text whose switch turns one on in a child process', async () => {
    const { modules, failed } = await instrumentModules(ws, ['src/area.js', 'src/area.py']);
    assert.deepEqual(failed, []);
    assert.deepEqual(
      modules.map((m) => [m.file, m.language]),
      [
        ['src/area.js', 'js'],
        ['src/area.py', 'python'],
      ],
    );
    const js = modules[0];
    const times = js.mutants.find((m) => m.original === 'w * h' && m.replacement === 'w / h')!;
    assert.deepEqual(times.start, { line: 3, column: 10 });
    const file = join(ws, 'instrumented.js');
    writeFileSync(file, js.code);
    const load = (active: string) =>
      spawnSync(
        process.execPath,
        [
          '-e',
          `${MUTANT_SWITCH.js.global} = { ${MUTANT_SWITCH.js.active}: ${JSON.stringify(active)} }; console.log(require(${JSON.stringify(file)}).area(6, 3))`,
        ],
        {
          encoding: 'utf8',
        },
      ).stdout.trim();
    assert.equal(load('none'), '18');
    assert.equal(load(times.id), '2');
    const py = modules[1];
    const pyTimes = py.mutants.find((m) => m.original === 'w * h' && m.replacement === 'w / h')!;
    const r = spawnSync(
      'python3',
      [
        '-c',
        `import builtins\nbuiltins.__amtp_mutation__ = {"active": ${JSON.stringify(pyTimes.id)}, "test": None, "hits": 0, "limit": None, "static": {}, "perTest": {}}\nexec(${JSON.stringify(py.code)})\nprint(area(6, 3))`,
      ],
      { encoding: 'utf8' },
    );
    assert.equal(r.stdout.trim(), '2.0', r.stderr);
  });

  it("groups surviving mutants by function, each a unified diff of that function with the file's line numbers", () => {
    const survivor = (
      id: string,
      file: string,
      line: number,
      column: number,
      end: number,
      original: string,
      replacement: string,
    ): SurvivingMutant => ({
      id,
      file,
      mutator: 'ArithmeticOperator',
      original,
      replacement,
      start: { line, column },
      end: { line, column: end },
      status: 'survived',
      coveredBy: ['tc_000000000001'],
    });
    const groups = survivorsByFunction(ws, [
      survivor('2', 'src/area.js', 7, 18, 32, 'this.size + by', 'this.size - by'),
      survivor('1', 'src/area.js', 3, 10, 15, 'w * h', 'w / h'),
      survivor('9', 'src/area.py', 7, 16, 30, 'self.size + by', 'self.size - by'),
    ]);
    assert.deepEqual(
      groups.map((g) => [g.file, g.function, g.startLine, g.endLine]),
      [
        ['src/area.js', 'area', 2, 4],
        ['src/area.js', 'Shape.grow', 6, 9],
        ['src/area.py', 'Shape.grow', 6, 7],
      ],
    );
    assert.equal(groups[0].source, 'function area(w, h) {\n  return w * h;\n}');
    assert.equal(
      groups[1].mutants[0].diff,
      [
        '--- a/src/area.js',
        '+++ b/src/area.js',
        '@@ -6,4 +6,4 @@',
        '   grow(by) {',
        '-    const next = this.size + by;',
        '+    const next = this.size - by;',
        '     return next;',
        '   }',
        '',
      ].join('\n'),
    );
    assert.match(groups[2].mutants[0].diff, /^- {8}return self\.size \+ by$/m);
    assert.match(groups[2].mutants[0].diff, /^\+ {8}return self\.size - by$/m);
  });
});
