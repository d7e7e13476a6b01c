import { RE2JS } from 're2js'

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

/** Case-insensitive, as checks have always matched (`new RegExp(value, 'iu')` before). */
export function compilePattern(source: string): Pattern {
  let compiled: RE2JS
  try {
    compiled = RE2JS.compile(source, RE2JS.CASE_INSENSITIVE)
  } catch (error) {
    const detail = error instanceof Error ? error.message.replace(/^error parsing regexp: /, '') : String(error)
    throw new PatternSyntaxError(`${detail} (patterns run in linear time, as in RE2: lookaround and backreferences are not supported)`)
  }
  return { test: (text) => compiled.matcher(text).find() }
}
