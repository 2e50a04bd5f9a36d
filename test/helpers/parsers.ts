// Loaded by every mocha run (--require): the tests call AMTP's code in-process, after the Python
// grammar and the JavaScript parser are loaded, as each process's entry point (cli/main.ts, server.ts)
// loads them before any command runs. A process that did not load them is checked in
// test/unit/pyGrammar.test.ts and test/unit/jsParserLoad.test.ts.
import { loadPython } from '../../server/src/frameworks/pyGrammar';
import { loadJsParser } from '../../server/src/util/jsParser';

export const mochaHooks = {
  async beforeAll(): Promise<void> {
    await Promise.all([loadPython(), loadJsParser()]);
  },
};
