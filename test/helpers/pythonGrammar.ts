// Loaded by every mocha run (--require): the tests call AMTP's code in-process, after the Python
// grammar is loaded, as each process's entry point (cli/main.ts, server.ts) loads it before any
// command runs. A process that did not load it is checked in test/unit/pyGrammar.test.ts.
import { loadPython } from '../../server/src/frameworks/pyGrammar';

export const mochaHooks = {
  async beforeAll(): Promise<void> {
    await loadPython();
  },
};
