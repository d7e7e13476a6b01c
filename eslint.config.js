import js from '@eslint/js'
import tseslint from 'typescript-eslint'

const ACTIONS_TOOLKIT = { group: ['@actions/*'], message: 'Only src/action, src/cli and src/github may use @actions/*.' }
// Everything below the entry layers is called by both of them, so it imports neither.
const ENTRY_LAYERS = [{ group: ['**/cli/*', '**/action/*'], message: 'Only the entry layers import src/cli or src/action; move what both need into src/pipeline or a domain folder.' }]
// One schema API everywhere: zod's method API, loaded by a single import, costs every run its start-up.
const ZOD = { group: ['zod', 'zod/*'], message: 'Import zod from src/shared/zod.ts: zod/mini, with its English messages set.' }

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
      'no-restricted-imports': ['error', { patterns: [ACTIONS_TOOLKIT, ...ENTRY_LAYERS, ZOD] }],
      'no-restricted-globals': ['error', { name: 'process', message: 'Domain code takes what it needs as parameters; only src/cli and src/action read process.' }],
    },
  },
  {
    // The package's entry is the library's entry point, as cli/main.ts is the CLI's: run() reads the
    // calling process (cwd, env, pid) there and passes it down. Only that file, not library/.
    files: ['src/index.ts'],
    rules: { 'no-restricted-globals': 'off' },
  },
  {
    // publish/ is what both entry points' use cases call to post a run, so it sits below pipeline/ too.
    files: ['src/publish/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [ACTIONS_TOOLKIT, ...ENTRY_LAYERS, ZOD, { group: ['**/pipeline/*'], message: 'src/publish is called from src/pipeline and src/action; it never imports src/pipeline.' }] },
      ],
    },
  },
  {
    files: ['src/github/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [...ENTRY_LAYERS, ZOD] }] },
  },
  {
    // The two entry points share what they run through pipeline/, never through each other.
    files: ['src/cli/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [ZOD, { group: ['**/action/*'], message: 'src/cli never imports src/action: share it through src/pipeline or a domain folder.' }] }] },
  },
  {
    files: ['src/action/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [ZOD, { group: ['**/cli/*'], message: 'src/action never imports src/cli: share it through src/pipeline or a domain folder.' }] }] },
  },
  {
    files: ['src/shared/zod.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [ACTIONS_TOOLKIT, ...ENTRY_LAYERS] }] },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
)
