// Lint rules, including the layering rules in the README: the folder says which runtime a
// file may use, and imports across that line are errors.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import i18next from 'eslint-plugin-i18next';
import regexp from 'eslint-plugin-regexp';

const nodeBuiltins = ['node:*', 'fs', 'path', 'os', 'child_process', 'http', 'https', 'net', 'crypto', 'stream', 'url', 'util', 'events'];

export default tseslint.config(
  { ignores: ['node_modules/**', 'out/**', 'dist/**', 'release/**', 'test-results/**', 'playwright-report/**', 'e2e/artifacts/**', '.tmp/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    // Every regular expression runs in linear time on any input: a pattern that can backtrack
    // super-linearly (nested or adjacent overlapping quantifiers) is an error, not a warning.
    plugins: { regexp },
    rules: {
      'regexp/no-super-linear-backtracking': 'error',
      'regexp/no-super-linear-move': 'error',
    },
  },
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  {
    files: ['shared/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [...nodeBuiltins, 'electron', 'react', 'react-dom', '../main/*', '../renderer/*', '../app/*'] }],
    },
  },
  {
    files: ['main/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['electron', 'react', 'react-dom', '../renderer/*', '../../renderer/*', '../app/*', '../../app/*'] }],
    },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks, i18next },
    rules: {
      ...reactHooks.configs.recommended.rules,
      // No hard-coded UI text: JSX text and the attributes people read go through t().
      'i18next/no-literal-string': [
        'error',
        {
          mode: 'jsx-only',
          'jsx-attributes': { include: ['title', 'aria-label', 'aria-description', 'aria-roledescription', 'placeholder', 'alt', 'label', 'help', 'hint', 'message', 'heading', 'summary', 'empty', 'confirm'] },
        },
      ],
      'no-restricted-imports': ['error', { patterns: [...nodeBuiltins, 'electron', '../main/*', '../../main/*', '../app/*', '../../app/*'] }],
    },
  },
  {
    files: ['app/web/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: ['electron'] }] },
  },
);
