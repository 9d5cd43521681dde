// One lint profile for every package.
import js from '@eslint/js';
import unicorn from 'eslint-plugin-unicorn';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/dist-app/**',
      '**/node_modules/**',
      'data/**',
      'coverage/**',
      'test-results/**',
      'playwright-report/**',
      'bench-results/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: { ...globals.node, ...globals.browser },
      parserOptions: {
        project: './tsconfig.spec.json',
        tsconfigRootDir: import.meta.dirname,
      },
    },
    plugins: { unicorn },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      'max-params': ['error', 3],
      'unicorn/filename-case': ['error', { case: 'kebabCase' }],
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@linkconfig/*/src/*', '@linkconfig/*/dist/*'],
              message: 'Import other packages through their barrel only.',
            },
          ],
        },
      ],
    },
  },
  {
    // The contracts sit below the engine: the engine may use the schemas, never the other way round, so
    // the two modules cannot form a cycle. (File-level cycles are caught by `npm run lint:cycles`.)
    files: ['shared/src/schemas/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@linkconfig/*/src/*', '@linkconfig/*/dist/*'],
              message: 'Import other packages through their barrel only.',
            },
            {
              group: ['../expression', '../expression/*', '**/expression/**'],
              message:
                'Schemas must not import the expression engine (the engine imports the schemas).',
            },
          ],
        },
      ],
    },
  },
  {
    // Plain JS files (configs, scripts) are linted without type information.
    files: ['**/*.js', '**/*.mjs'],
    extends: [tseslint.configs.disableTypeChecked],
  },
);
