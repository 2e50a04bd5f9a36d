// Docs and comments cite files that exist: a rename that leaves a stale path behind fails here.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');
const CITED = /(?<![\w./-])((?:server\/src|client\/src|test|schemas|scripts|bench|docs|examples|media)\/[\w./-]*[\w-](?:\.[A-Za-z0-9]+)?)/g;

function files(dir: string, keep: (f: string) => boolean): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const rel = path.posix.join(dir, e.name);
    if (e.isDirectory()) {
      if (!['node_modules', 'fixtures', '.work'].includes(e.name)) out.push(...files(rel, keep));
    } else if (keep(rel)) out.push(rel);
  }
  return out;
}

/** Files AMTP writes into a person's project (test/x.amtp.test.js, test/amtp.jest.config.cjs) are examples, not ours. */
const GENERATED_EXAMPLE = /(?:^|\/)(?:[\w-]+\.)?amtp[.-]/;

/** A cited path exists as written, or as a glob's folder (test/unit/**), or without a trailing `.`. */
function exists(cited: string): boolean {
  if (GENERATED_EXAMPLE.test(cited)) return true;
  // The benches' git-ignored work folder is made when they run; a clean checkout has none.
  if (cited === 'bench/.work' || cited.startsWith('bench/.work/')) return true;
  const clean = cited.replace(/\/\*.*$/, '').replace(/[.]$/, '');
  return fs.existsSync(path.join(ROOT, clean));
}

describe('references', () => {
  const sources = [
    'README.md',
    'CHANGELOG.md',
    ...files('docs', (f) => f.endsWith('.md')),
    ...files('server/src', (f) => f.endsWith('.ts') && !f.endsWith('generated.ts')),
    ...files('client/src', (f) => f.endsWith('.ts')),
  ];

  it('every file that docs and source comments cite exists', () => {
    const missing: string[] = [];
    for (const file of sources) {
      const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
      // In source files only comments count; the code's own imports are checked by the compiler.
      const prose = file.endsWith('.ts') ? (text.match(/\/\/.*$|\/\*[\s\S]*?\*\//gm) ?? []).join('\n') : text;
      for (const m of prose.matchAll(CITED)) if (!exists(m[1])) missing.push(`${file}: ${m[1]}`);
    }
    assert.deepEqual(missing, []);
  });

  it('no comment or doc cites a design document or plan step that is not in the repository', () => {
    const stale: string[] = [];
    for (const file of sources) {
      const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
      for (const m of text.matchAll(/\bDESIGN\.md\b|\bStep \d+(?:\/\d+)?\b/g)) stale.push(`${file}: ${m[0]}`);
    }
    assert.deepEqual(stale, []);
  });

  it('the check can fail', () => {
    assert.equal(exists('server/src/no/such/file.ts'), false);
    assert.equal(exists('server/src/core/run.ts'), true);
    assert.equal(exists('test/unit/**/*.test.ts'), true);
  });
});
