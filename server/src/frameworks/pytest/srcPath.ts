// In a `src/` layout the package is importable only with src/ on sys.path. A project that runs its
// tests as `python3 -m pytest` without installing itself needs pytest to put it there. Of the two
// ways, pytest's `pythonpath = src` needs pytest 7 and an edit of the person's own config file
// (pyproject.toml, pytest.ini, setup.cfg or tox.ini); a `conftest.py` beside AMTP's test files is a
// new file, written under the same approval as the tests, that works with every pytest Debian
// ships (6.0 on, any import mode) and whichever config file the project has. So AMTP writes the
// conftest, unless the folder has one of its own: that one is never overwritten, and the run
// command keeps `PYTHONPATH=src` instead.
import { posix } from 'node:path';
import type { Project, SupportFile } from '../types';

/** The conftest.py that puts root/src on sys.path, for tests in `testDir` (root-relative). */
export function srcConftest(testDir: string): SupportFile {
  const up = testDir === '.' || testDir === '' ? [] : testDir.split('/').map(() => "'..'");
  const path = ['os.path.dirname(os.path.abspath(__file__))', ...up, "'src'"].join(', ');
  const content = [
    '"""Written by AMTP: puts the project\'s src/ folder on sys.path, so `python3 -m pytest` imports the',
    'package from its source without installing it (what pytest 7\'s `pythonpath = src` setting does)."""',
    'import os',
    'import sys',
    '',
    `_SRC = os.path.normpath(os.path.join(${path}))`,
    'if _SRC not in sys.path:',
    '    sys.path.insert(0, _SRC)',
    '',
  ].join('\n');
  return { path: posix.join(testDir === '' ? '.' : testDir, 'conftest.py').replace(/^\.\//, ''), content };
}

/** The conftest AMTP writes for these tests, or undefined: no target under src/, no test file, or the folder has its own. */
export function srcConftestFor(project: Project, testPaths: string[], targets: string[]): SupportFile | undefined {
  if (!testPaths.length || !targets.some((t) => t.startsWith('src/'))) return undefined;
  const file = srcConftest(posix.dirname(testPaths[0]));
  const own = new Set(project.test_setup.config_files.map((f) => posix.normalize(f)));
  return own.has(file.path) ? undefined : file;
}
