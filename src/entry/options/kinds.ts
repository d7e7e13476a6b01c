import type { Shard } from '../../records/journal/records.ts'

/**
 * The kinds of value an option takes. A kind parses the text a flag or an input was given and says,
 * when it is wrong, what was expected in words a newcomer reads without the docs ("expected an amount
 * of dollars above 0"). The caller puts the option's own name in front (`--budget-usd -1: …`,
 * `input budget-usd "-1": …`), so one kind serves the CLI and the action with the same message.
 */
export type Parsed<T> = { ok: true; value: T } | { ok: false; expected: string }

export interface Kind<T> {
  /** The value as the reference tables and the help name it: `n`, `dollars`, `worse|failing|never`. */
  readonly metavar: string
  /** A CLI flag that takes no value (`--smoke`); the action reads it as `true` or `false`. */
  readonly switch?: true
  /** A list: the CLI flag may be repeated, and every value (of the flag or the input) splits on commas and white space. */
  readonly list?: true
  parse(text: string): Parsed<T>
  /** The value as the docs, the help and action.yml write it. */
  show(value: T): string
}

const ok = <T>(value: T): Parsed<T> => ({ ok: true, value })
const expected = <T>(words: string): Parsed<T> => ({ ok: false, expected: `expected ${words}` })
const plain = (value: unknown) => String(value)

/** A number as people write it: digits, a point, a sign; never '', '0x10' or '1e3'. */
function numberOf(text: string): number | null {
  return /^[+-]?(\d+(\.\d*)?|\.\d+)$/.test(text.trim()) ? Number(text) : null
}

export const text = (metavar = 'text'): Kind<string> => ({ metavar, parse: ok, show: plain })

/** A name that starts artifact names or names an agent: letters, digits, ".", "_" and "-". */
export const name = (metavar: string, why: string): Kind<string> => ({
  metavar,
  parse: (t) => (/^[A-Za-z0-9][A-Za-z0-9_.-]*$/.test(t) ? ok(t) : { ok: false, expected: why }),
  show: plain,
})

export function oneOf<const V extends readonly string[]>(values: V): Kind<V[number]> {
  return {
    metavar: values.join('|'),
    parse: (t) => ((values as readonly string[]).includes(t) ? ok(t as V[number]) : expected(`one of ${values.join(', ')}`)),
    show: plain,
  }
}

/** A whole number from min to max; `noun` words the message for counts of something ("runs"). */
export function whole(min: number, max: number, noun?: string): Kind<number> {
  const words = noun ? `a number of ${noun} from ${min} to ${max}` : `a whole number from ${min} to ${max}`
  return {
    metavar: 'n',
    parse: (t) => {
      const value = numberOf(t)
      return value !== null && Number.isInteger(value) && value >= min && value <= max ? ok(value) : expected(words)
    },
    show: plain,
  }
}

/** A number above 0 of `unit` (seconds, days, dollars): the unit is in the message, so --budget-usd never asks for seconds. */
export function above0(unit: 'seconds' | 'days' | 'dollars', metavar: string): Kind<number> {
  const words = unit === 'dollars' ? 'an amount of dollars above 0' : `a number of ${unit} above 0`
  return {
    metavar,
    parse: (t) => {
      const value = numberOf(t)
      return value !== null && value > 0 ? ok(value) : expected(words)
    },
    show: plain,
  }
}

/** A number, 0 or more, of `unit`, with an example of what a value means. */
export function atLeast0(unit: string, metavar: string, example: string): Kind<number> {
  return {
    metavar,
    parse: (t) => {
      const value = numberOf(t)
      return value !== null && value >= 0 ? ok(value) : expected(`${unit}, 0 or more (${example})`)
    },
    show: plain,
  }
}

export const percentage = (): Kind<number> => atLeast0('a percentage', 'pct', '50: fail on a significant change of 1.5 × or more')

export const milliseconds = (): Kind<number> => atLeast0('a number of milliseconds', 'ms', '50: changes of answer time under 50 ms are never told')

/** Cohen's κ, from -1 to 1. */
export const kappa = (): Kind<number> => ({
  metavar: 'κ',
  parse: (t) => {
    const value = numberOf(t)
    return value !== null && value >= -1 && value <= 1 ? ok(value) : expected('a κ from -1 to 1')
  },
  show: plain,
})

/** A flag without a value on the CLI; `true` or `false` as the action reads a boolean input (YAML 1.2 core schema, as core.getBooleanInput). */
export const flag = (): Kind<boolean> => ({
  metavar: 'true|false',
  switch: true,
  parse: (t) => (/^(true|True|TRUE)$/.test(t) ? ok(true) : /^(false|False|FALSE)$/.test(t) ? ok(false) : expected('true or false')),
  show: plain,
})

/** Values separated by commas (and, in an action input, spaces or new lines): `--tags a,b` equals `--tags a --tags b`. */
export const list = (metavar: string): Kind<string[]> => ({
  metavar,
  list: true,
  parse: (t) => ok(t.split(/[\s,]+/).filter(Boolean)),
  show: (v) => v.join(','),
})

/** The agents of convy.yml to run: a list of names, at least one. */
export const agents = (): Kind<string[]> => ({
  metavar: 'agent',
  list: true,
  parse: (t) => {
    const names = t.split(/[\s,]+/).filter(Boolean)
    if (names.length === 0) return { ok: false, expected: 'name at least one agent' }
    return names.every((n) => /^[A-Za-z0-9][A-Za-z0-9_.-]*$/.test(n)) ? ok([...new Set(names)]) : { ok: false, expected: 'agent names use letters, digits, ".", "_" and "-"' }
  },
  show: (v) => v.join(','),
})

export const shard = (): Kind<Shard> => ({
  metavar: 'i/n',
  parse: (t) => {
    const match = /^(\d+)\/(\d+)$/.exec(t.trim())
    const index = Number(match?.[1])
    const total = Number(match?.[2])
    return match && index >= 1 && total >= 1 && index <= total ? ok({ index, total }) : expected('I/N with 1 ≤ I ≤ N, e.g. 1/4')
  },
  show: (s) => `${s.index}/${s.total}`,
})

export const httpUrl = (): Kind<string> => ({
  metavar: 'url',
  parse: (t) => {
    try {
      return /^https?:$/.test(new URL(t).protocol) ? ok(t) : expected('an http(s) URL')
    } catch {
      return expected('an http(s) URL')
    }
  },
  show: plain,
})

export type BaselineChoice = { kind: 'auto' } | { kind: 'none' } | { kind: 'run'; runId: number }

export const baselineChoice = (): Kind<BaselineChoice> => ({
  metavar: 'auto|none|run id',
  parse: (t) =>
    t === 'auto' || t === 'none' ? ok({ kind: t }) : /^\d+$/.test(t) ? ok({ kind: 'run', runId: Number(t) }) : expected('auto, none, or the id of a workflow run'),
  show: (c) => (c.kind === 'run' ? String(c.runId) : c.kind),
})

/** A workflow as GitHub's API takes it: its file name, or its numeric id. */
export const workflow = (): Kind<string | number> => ({
  metavar: 'file or id',
  parse: (t) => ok(/^\d+$/.test(t) ? Number(t) : t),
  show: plain,
})

export const pullRequest = (): Kind<number> => ({
  metavar: 'number',
  parse: (t) => (/^\d+$/.test(t) && Number.isSafeInteger(Number(t)) && Number(t) >= 1 ? ok(Number(t)) : expected("the pull request's number")),
  show: plain,
})

export const commitSha = (): Kind<string> => ({
  metavar: 'commit',
  parse: (t) => (/^[0-9a-f]{40}(?:[0-9a-f]{24})?$/i.test(t) ? ok(t) : expected("a full commit SHA (40 hex digits), the pull request's head commit")),
  show: plain,
})
