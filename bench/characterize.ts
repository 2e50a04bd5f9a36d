// Characterization on real packages: `npx tsx bench/characterize.ts <pkg dir> <entry> <target>...`
// (a target is `name:arity` or `default:arity`). Characterizes the entry, writes node:test files into
// a copy, runs them 3 times, and reports c8 statement coverage of an import-only test vs the
// characterization tests ("beyond import" = the difference). Used for the figures in
// docs/characterization.md; needs no network (the package is unpacked beforehand with `npm pack`).
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { characterizeModule } from '../server/src/characterize/characterize';
import { renderNodeTest } from '../server/src/characterize/render';

const C8 = resolve(__dirname, '..', 'node_modules', '.bin', 'c8');

function statements(dir: string, testFile: string): string {
  execFileSync(C8, ['--reporter=json-summary', '--report-dir', 'cov', '--exclude', '*.test.*', process.execPath, '--test', testFile], {
    cwd: dir,
    stdio: 'pipe',
  });
  const total = JSON.parse(readFileSync(join(dir, 'cov', 'coverage-summary.json'), 'utf8')).total;
  return `${total.statements.covered}/${total.statements.total} statements, ${total.branches.covered}/${total.branches.total} branches`;
}

async function main(): Promise<void> {
  const [src, entry, ...specs] = process.argv.slice(2);
  const dir = mkdtempSync(join(tmpdir(), 'amtp-char-bench-'));
  cpSync(resolve(src), dir, { recursive: true });
  const pkg = join(dir, 'package.json');
  const esm = entry.endsWith('.mjs') || (existsSync(pkg) && JSON.parse(readFileSync(pkg, 'utf8')).type === 'module');
  // The crawler gives each symbol its source; here the entry file stands in for it (its literals seed inputs).
  const source = readFileSync(join(dir, entry), 'utf8');
  const targets = specs.map((s) => {
    const [name, arity] = s.split(':');
    return { path: name === '.' ? [] : name.split('.'), arity: Number(arity), source };
  });
  const started = Date.now();
  const m = await characterizeModule(join(dir, entry), dir, targets);
  const ms = Date.now() - started;
  const imp = esm
    ? `import * as mod from './${entry}';\nimport { test } from 'node:test';\ntest('loads', () => {});\n`
    : `require('./${entry}');\nrequire('node:test').test('loads', () => {});\n`;
  const ext = esm ? 'mjs' : 'cjs';
  writeFileSync(join(dir, `import.test.${ext}`), imp);
  writeFileSync(join(dir, `char.test.${ext}`), renderNodeTest(m.cases, `./${entry}`, esm));
  const runs = [0, 1, 2].map(() => {
    try {
      execFileSync(process.execPath, ['--test', `char.test.${ext}`], { cwd: dir, stdio: 'pipe' });
      return 'pass';
    } catch {
      return 'fail';
    }
  });
  console.log(
    JSON.stringify(
      {
        dir,
        cases: m.cases.length,
        stable: m.stable,
        unstable: m.unstable,
        unusable: m.unusable,
        characterizeMs: ms,
        runs,
        importOnly: statements(dir, `import.test.${ext}`),
        withCharacterization: statements(dir, `char.test.${ext}`),
      },
      null,
      1,
    ),
  );
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
