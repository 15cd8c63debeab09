// ESLint flat config: the recommended sets of ESLint, typescript-eslint, and,
// for the element and its browser tests, eslint-plugin-lit and eslint-plugin-wc
// (as GitHub's elements, Shoelace and the Lit starter do). Formatting is
// Prettier's job (npm run format), not ESLint's.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import lit from 'eslint-plugin-lit';
import wc from 'eslint-plugin-wc';
import globals from 'globals';

export default tseslint.config(
  {
    ignores: [
      'dist/',
      'node_modules/',
      'coverage/',
      'reports/',
      '.stryker-tmp/',
      'custom-elements.json',
      'src/shared/schema.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2022, sourceType: 'module', globals: { ...globals.node } },
    rules: {
      // `_name` marks a parameter kept for its position (a listener's signature).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      // Empty catch blocks are written on purpose with a comment saying why.
      'no-empty': ['error', { allowEmptyCatch: true }],
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      'prefer-const': 'error',
    },
  },
  {
    // Browser code: the element, its tests, the demo's pages.
    files: ['src/element/**', 'src/index.ts', 'test/browser/**', 'demo/**'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    files: ['src/element/**/*.ts', 'src/index.ts', 'test/browser/**/*.ts'],
    ...lit.configs['flat/recommended'],
  },
  {
    files: ['src/element/**/*.ts', 'src/index.ts', 'test/browser/**/*.ts'],
    ...wc.configs['flat/best-practice'],
    rules: {
      ...wc.configs['flat/best-practice'].rules,
      // LitElement always defines connectedCallback/disconnectedCallback: the guard is for bare HTMLElement subclasses.
      'wc/guard-super-call': 'off',
    },
  },
  // Imports go one way: locales -> element -> shared; api (the platform client) -> shared; http -> shared;
  // emulator -> http -> shared; server -> api, http -> shared. Nothing imports the package's own
  // entry points from inside src.
  ...Object.entries({
    shared: ['api', 'element', 'emulator', 'http', 'locales', 'server'],
    element: ['api', 'emulator', 'http', 'locales', 'server'],
    locales: ['api', 'emulator', 'http', 'server', 'shared'],
    api: ['element', 'emulator', 'http', 'locales', 'server'],
    http: ['api', 'element', 'emulator', 'locales', 'server'],
    emulator: ['api', 'element', 'locales', 'server'],
    server: ['element', 'emulator', 'locales'],
  }).map(([folder, banned]) => ({
    files: [`src/${folder}/**/*.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: `^(?:\\.\\./)+(?:${banned.join('|')})/`,
              message: `src/${folder} does not import from src/${banned.join(', src/')}: see docs/architecture.md.`,
            },
          ],
        },
      ],
    },
  })),
  {
    // Tests use chai's property assertions (`expect(x).to.be.true`).
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-unused-expressions': 'off' },
  },
);
