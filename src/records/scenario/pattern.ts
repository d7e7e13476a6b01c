import type { RE2JS } from 're2js'
import { patternEngineSource } from './pattern-engine-source.ts'

/**
 * A `regex:` check's pattern, run by RE2's algorithm (re2js, plain JavaScript) instead of the
 * built-in backtracking engine: matching takes time linear in the answer's length whatever the
 * pattern, so `(a+)+$` cannot hang a run. The price is RE2's syntax: no lookaround, no
 * backreferences. Patterns are compiled when the scenario is loaded, so such a pattern is an input
 * error naming its file and line, never a surprise mid-run.
 *
 * Linear in the answer, but the factor is the pattern's compiled size: counted repeats are written
 * out (`x{2,1000}` is a thousand steps, and counts nested in counts multiply), and every step may be
 * alive at every character. `x{2,1000}y{2,1000}z{2,1000}` took 36 s on a 1 MiB answer. So a pattern
 * is refused past MAX_PATTERN_STEPS, and a large answer is matched off the event loop with a
 * deadline (play/judge/check-worker.ts).
 */
export interface Pattern {
  test(text: string): boolean
  /** The compiled program's size: what one character of the answer may cost. */
  readonly steps: number
}

/**
 * Ample for what checks are written with (`order #\d{5}`, `.{0,200}`), and 1/6 of the pattern that
 * took 36 s on 1 MiB; a pattern near the limit still costs about 30 ns a character per step, which is
 * why large answers are matched in a worker.
 */
export const MAX_PATTERN_STEPS = 1000

export class PatternSyntaxError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'PatternSyntaxError'
  }
}

export type PatternEngine = typeof RE2JS

let engine: PatternEngine | undefined

/** Evaluates the engine's CommonJS text (the same text a check worker evaluates). */
export function evaluatePatternEngine(source: string): PatternEngine {
  const module = { exports: {} as { RE2JS: PatternEngine } }
  // The engine is a dependency's own published build, evaluated as its `require` would: not input.
  new Function('module', 'exports', source)(module, module.exports)
  return module.exports.RE2JS
}

/**
 * Loads the engine, once: what compilePattern needs first. Only runs with `regex:` checks pay for it
 * (re2js is about a sixth of the code a run would otherwise compile before its first request).
 */
export async function loadPatterns(): Promise<void> {
  engine ??= evaluatePatternEngine(patternEngineSource())
}

/** Case-insensitive, as checks have always matched (`new RegExp(value, 'iu')` before). */
export function compilePattern(source: string): Pattern {
  const { compiled, steps } = compileBounded(source, 'compilePattern')
  return { test: (text) => compiled.matcher(text).find(), steps }
}

/** RE2's syntax compiled case-insensitive, refused past MAX_PATTERN_STEPS: what both kinds of pattern share. */
function compileBounded(source: string, caller: string): { compiled: RE2JS; steps: number } {
  if (engine === undefined) throw new Error(`${caller} before loadPatterns()`)
  let compiled: RE2JS
  try {
    compiled = engine.compile(source, engine.CASE_INSENSITIVE)
  } catch (error) {
    const detail = error instanceof Error ? error.message.replace(/^error parsing regexp: /, '') : String(error)
    throw new PatternSyntaxError(`${detail} (patterns run in linear time, as in RE2: lookaround and backreferences are not supported)`)
  }
  const steps = compiled.matcher('').programSize()
  if (steps > MAX_PATTERN_STEPS) {
    throw new PatternSyntaxError(
      `it compiles to ${steps} steps, past the limit of ${MAX_PATTERN_STEPS}: counted repeats are written out, so \`x{2,1000}\` is a thousand steps and counts inside counts multiply; write \`+\` or \`*\`, or a smaller count`,
    )
  }
  return { compiled, steps }
}

/** A pattern that finds where it matches: convy.yml's `redact:` (records/config/redact.ts). */
export interface SpanPattern {
  /** Every non-empty match, left to right, as [start, end) in the text's UTF-16 units. */
  spans(text: string): [number, number][]
  /** True when it matches the empty text: such a pattern would mask between every two characters. */
  readonly matchesEmpty: boolean
  readonly steps: number
}

/** As compilePattern (case-insensitive, RE2's syntax, the same bound on steps), finding every match. */
export function compileSpanPattern(source: string): SpanPattern {
  const { compiled, steps } = compileBounded(source, 'compileSpanPattern')
  return {
    steps,
    matchesEmpty: compiled.matches(''),
    spans(text) {
      const found: [number, number][] = []
      const matcher = compiled.matcher(text)
      while (matcher.find()) if (matcher.end() > matcher.start()) found.push([matcher.start(), matcher.end()])
      return found
    },
  }
}
