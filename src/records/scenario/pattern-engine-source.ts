import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'

/**
 * The pattern engine (re2js) as the text of its CommonJS build. Patterns are matched in a worker thread
 * as well as here, and a worker started from a string (`eval: true`) can import nothing: the action's
 * bundle runs with no node_modules and the CLI's from chunks, so the engine travels to the worker as
 * text. The build (scripts/build.mjs) replaces this module with the text itself; from source (tests,
 * benches) it is read from node_modules.
 */
export function patternEngineSource(): string {
  return readFileSync(createRequire(import.meta.url).resolve('re2js'), 'utf8')
}
