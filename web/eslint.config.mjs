// eslint.config.mjs -- the linter of web/ (web/check runs it): the
// recommended rules of ESLint and typescript-eslint, with types (so a
// promise left floating or a value of type any is caught), on the client,
// its tests and the end-to-end tests.  Formatting is prettier's
// (.prettierrc.json), not a lint rule.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'dist/',
      '.build-test/',
      '.build-e2e/',
      'test-results/',
      'node_modules/',
      'tools/',
      '.build-wasm-test/',
      'wasm/*.mjs',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        project: [
          './tsconfig.json',
          './tsconfig.test.json',
          './tsconfig.e2e.json',
          './tsconfig.wasm.json',
          './tsconfig.wasm-test.json',
          './tsconfig.sw.json',
        ],
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      // node's test(): a promise the runner itself awaits
      '@typescript-eslint/no-floating-promises': [
        'error',
        { allowForKnownSafeCalls: [{ from: 'package', name: ['test'], package: 'node:test' }] },
      ],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  { files: ['*.mjs', 'vite.config.ts'], ...tseslint.configs.disableTypeChecked },
);
