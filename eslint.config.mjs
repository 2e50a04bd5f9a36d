// ESLint for the TypeScript sources and tests: the recommended JS and typescript-eslint rules
// (syntax-only, so a lint of the whole tree takes seconds), plus the few rules this code base keeps.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      '.demo/**',
      'bench/.work/**',
      'examples/**',
      'dist/**',
      'node_modules/**',
      'out/**',
      'test-output/**',
      '.vscode-test/**',
      'test/fixtures/**',
      'server/src/contracts/generated.ts',
      'server/src/contracts/precompiled*',
      '**/*.cjs',
      'media/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.mjs'],
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: 'module',
      globals: {
        process: 'readonly',
        console: 'readonly',
        Buffer: 'readonly',
        __dirname: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        setImmediate: 'readonly',
        URL: 'readonly',
        AbortController: 'readonly',
        AbortSignal: 'readonly',
        TextDecoder: 'readonly',
        TextEncoder: 'readonly',
        fetch: 'readonly',
        structuredClone: 'readonly',
        performance: 'readonly',
        queueMicrotask: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // `typeof import('x')` types the modules AMTP requires lazily (startup time), so those stay allowed.
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false }],
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      'no-constant-condition': ['error', { checkLoops: false }],
      // The sanitizer and the runners' output parsers match control characters on purpose.
      'no-control-regex': 'off',
    },
  },
);
