import type { RE2JS } from 're2js'

/**
 * A `regex:` check's pattern, run by RE2's algorithm (re2js, plain JavaScript) instead of the
 * built-in backtracking engine: matching takes time linear in the answer's length whatever the
 * pattern, so `(a+)+$` cannot hang a run. The price is RE2's syntax: no lookaround, no
 * backreferences. Patterns are compiled when the scenario is loaded, so such a pattern is an input
 * error naming its file and line, never a surprise mid-run.
 */
export interface Pattern {
  test(text: string): boolean
}

export class PatternSyntaxError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'PatternSyntaxError'
  }
}

let engine: typeof RE2JS | undefined

/**
 * Loads the engine, once: what compilePattern needs first. Only runs with `regex:` checks pay for it
 * (re2js is about a sixth of the code a run would otherwise compile before its first request).
 */
export async function loadPatterns(): Promise<void> {
  engine ??= (await import('re2js')).RE2JS
}

/** Case-insensitive, as checks have always matched (`new RegExp(value, 'iu')` before). */
export function compilePattern(source: string): Pattern {
  if (engine === undefined) throw new Error('compilePattern before loadPatterns()')
  let compiled: RE2JS
  try {
    compiled = engine.compile(source, engine.CASE_INSENSITIVE)
  } catch (error) {
    const detail = error instanceof Error ? error.message.replace(/^error parsing regexp: /, '') : String(error)
    throw new PatternSyntaxError(`${detail} (patterns run in linear time, as in RE2: lookaround and backreferences are not supported)`)
  }
  return { test: (text) => compiled.matcher(text).find() }
}
