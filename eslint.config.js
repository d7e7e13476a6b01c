import js from '@eslint/js'
import tseslint from 'typescript-eslint'

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', '**/results/**', '**/.convy/**', 'docs/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': [
        'error',
        // node:test's test() and describe() return promises the runner itself awaits.
        { allowForKnownSafeCalls: [{ from: 'package', package: 'node:test', name: ['test', 'describe', 'it', 'suite'] }] },
      ],
      '@typescript-eslint/return-await': ['error', 'in-try-catch'],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-imports': 'off',
    },
  },
  {
    // Domain code takes its dependencies as parameters: only the entry layers touch the toolkit.
    files: ['src/**/*.ts'],
    ignores: ['src/cli/**', 'src/action/**', 'src/github/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['@actions/*'], message: 'Only src/action, src/cli and src/github may use @actions/*.' }] }],
      'no-restricted-globals': ['error', { name: 'process', message: 'Domain code takes what it needs as parameters; only src/cli and src/action read process.' }],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
)
