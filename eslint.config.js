import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import { LAYERS, layersAbove } from './scripts/layers.mjs'

const ACTIONS_TOOLKIT = { group: ['@actions/*'], message: 'Only src/entry/action, src/entry/cli and src/adapters/github may use @actions/*.' }
// One schema API everywhere: zod's method API, loaded by a single import, costs every run its start-up.
const ZOD = { group: ['zod', 'zod/*'], message: 'Import zod from src/base/shared/zod.ts: zod/mini, with its English messages set.' }
// A package's private files change in any release: only its public entry points are imported.
const PRIVATE_PATHS = { regex: '^(@[^/]+/)?[^./@][^/]*/(lib|dist|internal|src)(/|$)', message: "Import a package through its public entry points, never its private files (lib/, dist/, internal/, src/)." }
// A layer imports its own layer and those below it (scripts/layers.mjs).
const above = (layer) =>
  layersAbove(layer).map((higher) => ({
    group: [`**/${higher.name}/**`],
    message: `src/${layer.name} is below src/${higher.name} (scripts/layers.mjs): it may not import it. Move what both need down, or pass it in as a parameter.`,
  }))
const restricted = (...patterns) => ({ 'no-restricted-imports': ['error', { patterns: [PRIVATE_PATHS, ...patterns] }] })
const TOOLKIT_USERS = ['src/entry/cli/**', 'src/entry/action/**', 'src/adapters/github/**']

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
  // Every layer: no import from a layer above it; outside the entry layers and the GitHub adapter,
  // no toolkit and no process (domain code takes what it needs as parameters).
  ...LAYERS.map((layer) => ({
    files: [`src/${layer.name}/**/*.ts`],
    ignores: TOOLKIT_USERS,
    rules: {
      ...restricted(ACTIONS_TOOLKIT, ZOD, ...above(layer)),
      'no-restricted-globals': ['error', { name: 'process', message: 'Domain code takes what it needs as parameters; only src/entry/cli and src/entry/action read process.' }],
    },
  })),
  {
    // The package's entry is the library's entry point, as entry/cli/main.ts is the CLI's: run() reads
    // the calling process (cwd, env, pid) there and passes it down. Only that file, not entry/library/.
    files: ['src/index.ts'],
    rules: restricted(ACTIONS_TOOLKIT, ZOD),
  },
  {
    // publish/ is what both entry points' use cases call to post a run, so it sits below pipeline/ too.
    files: ['src/app/publish/**/*.ts'],
    rules: restricted(ACTIONS_TOOLKIT, ZOD, ...above(LAYERS[1]), { group: ['**/pipeline/*'], message: 'src/app/publish is called from src/app/pipeline and src/entry/action; it never imports src/app/pipeline.' }),
  },
  {
    files: ['src/adapters/github/**/*.ts'],
    rules: restricted(ZOD, ...above(LAYERS.find((l) => l.name === 'adapters'))),
  },
  {
    // The two entry points share what they run through app/, never through each other.
    files: ['src/entry/cli/**/*.ts'],
    rules: restricted(ZOD, { group: ['**/action/*'], message: 'src/entry/cli never imports src/entry/action: share it through src/app or a layer below.' }),
  },
  {
    files: ['src/entry/action/**/*.ts'],
    rules: restricted(ZOD, { group: ['**/cli/*'], message: 'src/entry/action never imports src/entry/cli: share it through src/app or a layer below.' }),
  },
  {
    files: ['src/base/shared/zod.ts'],
    rules: restricted(ACTIONS_TOOLKIT),
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
)
