// Writes characterization cases as a node:test file. Every title starts with CHAR_PREFIX so the
// tree view, the verifier and a reader can tell a pinned current behaviour from a documented one.
import { CHAR_PREFIX } from '../frameworks/header';
import { isScalar, jsLiteral } from './values';
import type { CharCase } from './characterize';

export { CHAR_PREFIX };

function callText(c: CharCase): string {
  // An empty path is the module itself (module.exports = function …).
  const target = `mod${c.path.map((k) => (/^[A-Za-z_$][\w$]*$/.test(k) ? `.${k}` : `[${JSON.stringify(k)}]`)).join('')}`;
  return `${target}(${c.args.map(jsLiteral).join(', ')})`;
}

export function charTitle(c: CharCase): string {
  const call = callText(c).replace(/^mod\./, '');
  const shown = call.length > 80 ? `${call.slice(0, 77)}...` : call;
  return `${CHAR_PREFIX}${shown} ${c.oracle.kind === 'throws' ? `throws ${c.oracle.errorName}` : 'returns the observed value'}`;
}

function body(c: CharCase): string {
  const call = callText(c);
  const o = c.oracle;
  if (o.kind === 'throws')
    return `await assert.rejects(async () => ${call}, (e) => e instanceof Error ? e.name === ${JSON.stringify(o.errorName)} && e.message === ${JSON.stringify(o.message)} : true);`;
  const fn = isScalar(o.value) ? 'strictEqual' : 'deepStrictEqual';
  return `assert.${fn}(await ${call}, ${jsLiteral(o.value)});`;
}

/** A node:test file for one module; `importPath` is relative to the test file. `esm` picks import over require. */
export function renderNodeTest(cases: readonly CharCase[], importPath: string, esm: boolean): string {
  const head = esm
    ? `import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport * as mod from ${JSON.stringify(importPath)};\n`
    : `const { test } = require('node:test');\nconst assert = require('node:assert/strict');\nconst mod = require(${JSON.stringify(importPath)});\n`;
  const tests = cases.map((c) => `test(${JSON.stringify(charTitle(c))}, async () => {\n  ${body(c)}\n});\n`);
  return `// Characterization tests written by AMTP: they pin what the code does today, not documented behaviour.\n${head}\n${tests.join('\n')}`;
}
