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

/** A source file cited in a comment by a relative path or a bare name: `../case.ts`, `goal.ts`, `pipeline/agentStage.ts`. */
const CITED_TS = /(?<![\w./@-])((?:\.\.?\/)*(?:[\w-]+\/)*[\w-]+(?:\.[\w-]+)*\.ts)\b/g;

/** Names that stand for any project's files in examples (src/x.ts, a user's typings, tests and configs), not for ours. */
const EXAMPLE_TS = /(?:^|\/)[a-z]\.ts$|\.d\.ts$|\.test\.ts$|config\.ts$|amtp/;

/**
 * A cited TypeScript file exists relative to the citing file's folder, to server/src or client/src,
 * or to the repository: a name without a folder is a file beside the citing one.
 */
function resolves(citing: string, cited: string): boolean {
  if (EXAMPLE_TS.test(cited)) return true;
  const dir = path.posix.dirname(citing);
  return [path.posix.join(dir, cited), path.posix.join('server/src', cited), path.posix.join('client/src', cited), cited].some(
    (p) => !p.startsWith('..') && fs.existsSync(path.join(ROOT, p)),
  );
}

function staleCitations(file: string, text: string): string[] {
  const comments = (text.match(/\/\/.*$|\/\*[\s\S]*?\*\//gm) ?? []).join('\n');
  return [...comments.matchAll(CITED_TS)].filter((m) => !resolves(file, m[1])).map((m) => `${file}: ${m[1]}`);
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

  it('every source file a comment cites by a relative path or a bare name resolves from the citing file', () => {
    const stale = sources.filter((f) => f.endsWith('.ts')).flatMap((f) => staleCitations(f, fs.readFileSync(path.join(ROOT, f), 'utf8')));
    assert.deepEqual(stale, []);
  });

  it('no comment or doc cites a design document or plan step that is not in the repository', () => {
    const stale: string[] = [];
    for (const file of sources) {
      const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
      for (const m of text.matchAll(/\bDESIGN\.md\b|\bStep \d+(?:\/\d+)?\b/g)) stale.push(`${file}: ${m[0]}`);
    }
    assert.deepEqual(stale, []);
  });

  it('the check can fail: moved files cited by path, by a bare name, or relative to the citing file', () => {
    assert.deepEqual(
      staleCitations(
        'server/src/llm/errors.ts',
        '// The retry policy keys on their kind (pipeline/agentStage.ts).\n/* goal.ts and frameworks/runner.ts and ../verifier/nope.ts */\nconst x = "runner.ts";',
      ),
      [
        'server/src/llm/errors.ts: pipeline/agentStage.ts',
        'server/src/llm/errors.ts: goal.ts',
        'server/src/llm/errors.ts: ../verifier/nope.ts',
      ],
    );
    assert.deepEqual(staleCitations('server/src/verifier/stage.ts', '// keeps tests (verify.ts); ../pipeline/retry.ts; src/x.ts'), []);
    assert.equal(exists('server/src/no/such/file.ts'), false);
    assert.equal(exists('server/src/core/run.ts'), true);
    assert.equal(exists('test/unit/**/*.test.ts'), true);
  });
});
