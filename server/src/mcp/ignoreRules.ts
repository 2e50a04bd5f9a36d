import ignore, { type Ignore } from 'ignore';

/** Skipped by name anywhere in the tree unless a caller opts out: VCS, deps, build output, caches, AMTP's own state. */
export const DEFAULT_SKIP_DIRS = new Set([
  '.git',
  '.hg',
  '.svn',
  'node_modules',
  'bower_components',
  'jspm_packages',
  'dist',
  'build',
  'out',
  'coverage',
  '.nyc_output',
  '.next',
  '.nuxt',
  '.svelte-kit',
  '.turbo',
  '.parcel-cache',
  '.cache',
  '__pycache__',
  '.venv',
  'venv',
  '.tox',
  '.nox',
  '.mypy_cache',
  '.pytest_cache',
  '.ruff_cache',
  '.eggs',
  'site-packages',
  'target',
  '.gradle',
  '.idea',
  '.amtp',
]);

export const IGNORE_FILES = ['.gitignore', '.amtpignore'];

interface Level {
  /** directory of the ignore file, relative to the root, '' for the root, else ending in '/' */
  base: string;
  ig: Ignore;
}

/**
 * The stack of ignore files that apply to one directory. Git semantics: a deeper file may
 * re-include what a shallower one excluded, and nothing inside an excluded directory is seen.
 */
export class IgnoreStack {
  private constructor(private readonly levels: readonly Level[]) {}

  static empty(): IgnoreStack {
    return new IgnoreStack([]);
  }

  /** Returns a stack extended with the rules of `texts` found in directory `base` (or this stack if none). */
  with(base: string, texts: string[]): IgnoreStack {
    if (texts.length === 0) return this;
    const rules = texts.join('\n');
    if (!rules.trim()) return this;
    return new IgnoreStack([...this.levels, { base, ig: ignore({ allowRelativePaths: true }).add(rules) }]);
  }

  /** `rel` is root-relative; directories are tested with a trailing slash so `build/` rules match. */
  ignores(rel: string, isDir: boolean): boolean {
    let ignored = false;
    for (const level of this.levels) {
      const local = rel.slice(level.base.length) + (isDir ? '/' : '');
      const r = level.ig.test(local);
      if (r.ignored) ignored = true;
      else if (r.unignored) ignored = false;
    }
    return ignored;
  }

  get size(): number {
    return this.levels.length;
  }
}
