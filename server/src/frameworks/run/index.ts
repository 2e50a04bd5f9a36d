// The runner of each framework (frameworks/core FRAMEWORKS): how to invoke it and read its report.
import type { Framework } from '../../core/frameworks';
import { avaRunner } from './ava';
import { jestRunner, vitestRunner } from './jestLike';
import { mochaRunner } from './mocha';
import { nodeTapRunner } from './nodeTap';
import { nodeTestRunner } from './nodeTest';
import { pytestRunner } from './pytest';
import type { FrameworkRunner } from './runnerTypes';

export const RUNNERS: Record<Framework, FrameworkRunner> = {
  jest: jestRunner,
  vitest: vitestRunner,
  mocha: mochaRunner,
  'node-test': nodeTestRunner,
  pytest: pytestRunner,
  ava: avaRunner,
  'node-tap': nodeTapRunner,
};
