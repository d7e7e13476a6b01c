import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

/**
 * Node's arguments for a child process that runs the CLI from src/ (src/entry/cli/main.ts).
 *
 * Under scripts/run-tests.mjs this file runs compiled, and src/ beside it, compiled in the same run
 * (node_modules/.cache/convy-tests/): the child runs that main.js. Run from its TypeScript through
 * tsx (`node --import tsx --test test/x.test.ts`), the child takes tsx too, whose loader and
 * compiling cost each child about 1.5 CPU seconds more.
 */
export function srcCliArgs(): string[] {
  // import.meta.resolve answers from where this module really is (compile-tests.mjs points only
  // import.meta.url, .filename and .dirname at the .ts): the compiled tree's main.js when compiled;
  // under tsx, main.ts or a main.js that is not there.
  const compiled = fileURLToPath(import.meta.resolve('../../src/entry/cli/main.js'))
  if (compiled.endsWith('.js') && existsSync(compiled)) return [compiled]
  // The child runs from the project folder, where tsx cannot be found by name.
  return ['--import', import.meta.resolve('tsx'), fileURLToPath(new URL('../../src/entry/cli/main.ts', import.meta.url))]
}
