import type { Framework, FrameworkChoice } from '../core/frameworks';
import { ava } from './ava';
import { jest } from './jest';
import { mocha } from './mocha';
import { nodeTap } from './nodeTap';
import { nodeTest } from './nodeTest';
import { pytest } from './pytest';
import type { FrameworkRenderer, Project } from './types';
import { vitest } from './vitest';

export const RENDERERS: Record<Framework, FrameworkRenderer> = {
  jest,
  vitest,
  mocha,
  'node-test': nodeTest,
  pytest,
  ava,
  'node-tap': nodeTap,
};

/** `auto` takes the framework the crawler detected; with none, node:test for JS and pytest for Python. */
export function resolveFramework(choice: FrameworkChoice, project: Project): Framework {
  if (choice !== 'auto') return choice;
  const detected = project.test_setup.framework;
  if (detected === 'unittest') return 'pytest'; // pytest runs unittest suites too, and plain asserts read better
  if (detected !== 'none') return detected;
  return project.language === 'python' || project.module_system === 'python' ? 'pytest' : 'node-test';
}

/** Convention text for LLM prompts, kept next to the renderers so both say the same thing. */
export function frameworkConventions(framework: Framework): string {
  switch (framework) {
    case 'jest':
      return [
        'jest: describe/it/expect. CommonJS projects: `require` the module, jest globals, files *.test.js.',
        'ESM JavaScript: `.mjs` files with `import`, run with NODE_OPTIONS=--experimental-vm-modules.',
        "TypeScript: `.test.ts` files importing { describe, it, expect } from '@jest/globals'.",
        'Deep equality: toEqual; NaN: toBeNaN; errors: capture and compare the error name.',
      ].join('\n');
    case 'vitest':
      return "vitest: import { describe, it, expect } from 'vitest' (globals are off by default); ESM `import` syntax in every project; files *.test.ts|js; run `npx vitest run FILES`.";
    case 'mocha':
      return 'mocha: describe/it globals with node:assert/strict (assert.strictEqual, assert.deepStrictEqual); `require` in CommonJS, `import` in ESM (.mjs); TypeScript via `--node-option import=tsx`.';
    case 'node-test':
      return "node:test: import { describe, it } from 'node:test' and assert from 'node:assert/strict'; CommonJS uses require; run `node --test FILES` (TypeScript on Node 20: `node --import tsx --test`).";
    case 'ava':
      return "ava: import test from 'ava' (CommonJS: const test = require('ava')); flat test('title', (t) => { ... }) with no describe; t.is, t.deepEqual, t.true, t.throws on the test's t; run `npx ava FILES`.";
    case 'node-tap':
      return "node-tap: import { test } from 'tap' (CommonJS: const { test } = require('tap')); flat test('title', async (t) => { ... }) always async; t.equal (strict), t.strictSame, t.ok, t.throws on the test's t; run `npx tap --disable-coverage FILES`.";
    case 'pytest':
      return 'pytest: plain `def test_...()` functions with `assert`; files tests/test_*.py; pytest.raises for errors; compare a non-literal doctest result by repr(); run `python3 -m pytest FILES`.';
  }
}

/**
 * How this project's test files import its sources and how strictly they compile: the same rule
 * importPathFor (layout.ts) follows for the import lines AMTP writes, and the runner's type check.
 */
export function projectConventions(framework: Framework, project: Project): string {
  const lines: string[] = [];
  if (project.language === 'typescript' || project.typescript) {
    const esm = project.module_system === 'esm' || framework === 'vitest';
    lines.push(
      esm
        ? "Source modules are imported with a `.js` extension ('../src/x.js' for src/x.ts), as the files' import lines show."
        : "Source modules are imported without an extension ('../src/x' for src/x.ts), as the files' import lines show.",
    );
  }
  const tc = project.test_setup.typecheck;
  if (tc?.checked)
    lines.push(
      `The runner type-checks each test file (${tc.evidence})${tc.strict ? ' under tsconfig strict' : ''}: one type error fails every test of the file. Give each argument its parameter's declared type; pass a deliberately wrong value through \`as unknown as T\`.`,
    );
  else if (tc) lines.push(`The runner does not type-check test files (${tc.evidence}).`);
  return lines.join('\n');
}

export type { FrameworkRenderer, Project } from './types';
