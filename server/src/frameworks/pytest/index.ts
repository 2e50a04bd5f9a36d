// pytest, all of it: the renderer (render.ts, srcPath.ts for a src/ layout), the runner, the failure-text parser,
// shared setup into fixtures (sharedSetup.ts).
import type { FrameworkDescriptor } from '../descriptor';
import { parsePytest } from './failure';
import { pytest } from './render';
import { pytestRunner } from './runner';
import { pytestFixtures } from './sharedSetup';

export const descriptor: FrameworkDescriptor = {
  id: 'pytest',
  renderer: pytest,
  conventions:
    'pytest: plain `def test_...()` functions with `assert`; files tests/test_*.py; pytest.raises for errors; compare a non-literal doctest result by repr(); run `python3 -m pytest FILES`.',
  runner: pytestRunner,
  parseFailure: parsePytest,
  sharedSetup: pytestFixtures,
  layout: { esmImportsAlways: false },
  detection: {
    // pyproject.toml, setup.cfg and tox.ini sections and Python dependencies: the crawler's pythonConfigVotes
    configFiles: [/(^|\/)pytest\.ini$/, /(^|\/)conftest\.py$/],
    configHint: /pytest|conftest/,
    script: /\bpytest\b/,
    defaultPatterns: ['**/test_*.py', '**/*_test.py'],
    packages: [],
  },
};
