// Generated files a maintainer would merge: one import statement per module, and no import left
// behind when the verifier removes the tests that used it (issue 27 item 5).
import { strict as assert } from 'node:assert';
import type { OracleBinding } from '../../server/src/contracts/types';
import { bindingStatements, strictAssert } from '../../server/src/frameworks/jsFile';
import { print } from '../../server/src/frameworks/jsNodes';
import { removeTests } from '../../server/src/verifier/testFile';

const b = (local: string, kind: OracleBinding['import'], name?: string): OracleBinding => ({
  local,
  import: kind,
  ...(name ? { name } : {}),
});
const printed = (bindings: OracleBinding[], esm: boolean) => print(bindingStatements(bindings, '../index.js', esm), false).trim();

describe('one import statement per module', () => {
  it('CommonJS: named exports and the default in one destructuring require', () => {
    assert.equal(
      printed([b('valid', 'named'), b('c', 'named', 'coerce'), b('dflt', 'default'), b('valid', 'named')], false),
      "const { default: dflt, valid, coerce: c } = require('../index.js');",
    );
  });

  it('CommonJS: with the module value bound, named exports are read from it, not required again', () => {
    assert.equal(
      printed([b('semver', 'module'), b('valid', 'named')], false),
      "const semver = require('../index.js');\nconst { valid } = semver;",
    );
  });

  it('ESM: default and named in one import; a namespace takes the named exports from itself', () => {
    assert.equal(printed([b('m', 'module'), b('a', 'named'), b('bb', 'named', 'b')], true), "import m, { a, b as bb } from '../index.js';");
    assert.equal(printed([b('ns', 'namespace'), b('a', 'named')], true), "import * as ns from '../index.js';\nconst { a } = ns;");
    assert.equal(printed([], true), '');
  });
});

describe("node's strict assert", () => {
  // by its bare name: loaders from before the `node:` scheme (esm@3, in mitt@3's mocha config) resolve every require themselves
  it('CommonJS and ESM read assert.strict from `assert`', () => {
    assert.equal(print([strictAssert(false)], false).trim(), "const assert = require('assert').strict;");
    assert.equal(print([strictAssert(true)], false).trim(), "import { strict as assert } from 'assert';");
  });
});

describe('removing tests removes the imports only they used', () => {
  const file = [
    "const { describe, it } = require('node:test');",
    "const assert = require('node:assert/strict');",
    "const path = require('node:path'); // the person's, unused before: stays",
    "const semver = require('../index.js');",
    'const { valid, coerce } = semver;',
    '',
    "describe('semver (AMTP)', () => {",
    "  it('tc_000000000001: valid', () => {",
    "    assert.equal(valid('1.2.3'), '1.2.3');",
    '  });',
    '',
    "  it('tc_000000000002: coerce', () => {",
    "    assert.equal(coerce('v2').version, '2.0.0');",
    '  });',
    '});',
    '',
  ].join('\n');

  it('a name no remaining test reads leaves its destructuring; a statement with none left goes whole', () => {
    const out = removeTests('test/semver.amtp.test.js', file, ['tc_000000000002']);
    assert.match(out, /^const \{ valid \} = semver;$/m);
    assert.match(out, /^const semver = require\('\.\.\/index\.js'\);$/m);
    assert.match(out, /^const path = require\('node:path'\);/m);
    const none = removeTests('test/semver.amtp.test.js', file, ['tc_000000000001', 'tc_000000000002']);
    assert.doesNotMatch(none, /index\.js|valid|coerce|assert/);
    // the person's unused import and the framework's names the describe still uses stay
    assert.match(none, /^const path = require\('node:path'\);/m);
    assert.match(none, /^const \{ describe \} = require\('node:test'\);$/m);
  });
});
