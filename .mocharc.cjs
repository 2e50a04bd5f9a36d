// `npm test`'s mocha settings. A .cjs file so the Python grammar hook is named by its absolute path:
// the projects integration tests create below test-output/ find this file too (mocha looks upward)
// and run their own mocha from their own folder.
const path = require('node:path');

module.exports = {
  require: ['tsx/cjs', path.join(__dirname, 'test/helpers/parsers.ts')],
  extension: ['ts'],
  spec: ['test/unit/**/*.test.ts', 'test/integration/**/*.test.ts'],
  timeout: 60000,
  exit: true,
};
