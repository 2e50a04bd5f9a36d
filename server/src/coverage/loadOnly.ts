// The load-only run for "coverage beyond import" (server/src/coverage/beyondImport.ts): the same
// runner, the same files, with a name filter that matches no test, so the test files and the modules
// they import are loaded and nothing else runs. One token serves every runner: it is a regex for
// jest -t, vitest -t, mocha --grep and node --test-name-pattern, and an identifier for pytest -k.
export const LOAD_ONLY_GREP = 'amtp_load_only_0c1d9e';
