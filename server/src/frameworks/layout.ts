// Where a test file goes and how it reaches the module under test.
import { posix } from 'node:path';
import type { TestCase } from '../contracts/types';
import type { FrameworkRenderer, Project } from './types';

/** The project's first concrete test folder, else the ecosystem default. */
export function testDir(project: Project, renderer: FrameworkRenderer): string {
  const dir = project.test_setup.test_dirs.map((d) => d.replace(/\\/g, '/').replace(/^\.\//, '').replace(/\/$/, '')).find((d) => d && !/[*?{]/.test(d) && !d.startsWith('..'));
  return dir ?? (renderer.language === 'python' ? 'tests' : 'test');
}

/**
 * `<dir>/<name>` following the project's naming pattern (`*.spec.ts`, `test_*.py`), with `.amtp`
 * in the name so a generated file never lands on a hand-written one.
 */
export function testFileName(target: string, project: Project, renderer: FrameworkRenderer): string {
  const stem = stemOf(target, project);
  const pattern = project.test_setup.naming_pattern?.split(/[,\s]+/).find((p) => (p.match(/\*/g) ?? []).length === 1 && patternFits(p, renderer, project));
  if (pattern) return pattern.replace('*', renderer.language === 'python' ? `${stem}_amtp` : `${stem}.amtp`);
  return renderer.language === 'python' ? `test_${stem}_amtp.py` : `${stem}.amtp.test${renderer.extension(project)}`;
}

function patternFits(pattern: string, renderer: FrameworkRenderer, project: Project): boolean {
  if (renderer.language === 'python') return pattern.endsWith('.py');
  if (!/\.[cm]?[jt]sx?$/.test(pattern)) return false;
  // A TypeScript project's `.ts` pattern suits every JS framework we write TS for; JS projects keep JS.
  return /\.[cm]?tsx?$/.test(pattern) === renderer.extension(project).includes('ts');
}

function stemOf(target: string, project: Project): string {
  const parts = target.replace(/\\/g, '/').split('/');
  let base = parts.pop()!.replace(/\.[^.]+$/, '');
  if (base === 'index' || base === '__init__' || base === 'main') base = parts.pop() ?? project.name;
  if (base === 'src' || base === 'lib') base = project.name;
  return base.replace(/^@[^/]+\//, '').replace(/[^A-Za-z0-9_-]+/g, '_') || 'module';
}

/** Relative specifier from the test file to the target; ESM TypeScript imports `x.ts` as `x.js`. */
export function importPathFor(c: TestCase, testPath: string, renderer: FrameworkRenderer, project: Project): string {
  const spec = c.target.import_specifier;
  // `#internal` subpath imports resolve inside the package itself, so they are safe to keep.
  if (spec && spec.startsWith('#')) return spec;
  let rel = posix.relative(posix.dirname(testPath), c.target.file.replace(/\\/g, '/').replace(/^\.\//, ''));
  if (!rel.startsWith('.')) rel = `./${rel}`;
  if (/\.[cm]?tsx?$/.test(rel)) {
    const esmTs = project.module_system === 'esm' || renderer.id === 'vitest';
    rel = esmTs ? rel.replace(/\.ts$/, '.js').replace(/\.mts$/, '.mjs').replace(/\.cts$/, '.cjs').replace(/\.tsx$/, '.js') : rel.replace(/\.[cm]?tsx?$/, '');
  }
  return rel;
}
