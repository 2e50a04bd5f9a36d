// The tests that run generated pytest files need a python3 with pytest: .ci/run installs Debian's
// python3-pytest. Without it those tests fail saying so; they never skip (a skipped test proves nothing).
import { strict as assert } from 'node:assert';
import { pythonWithPytest } from '../../server/src/frameworks/run/python';
import { REPO } from './workspaces';

export function requirePytest(): string {
  const python = pythonWithPytest(REPO);
  if (!python) assert.fail('no python3 with pytest here: install python3-pytest (apt-get install python3-pytest), as .ci/run does');
  return python;
}
