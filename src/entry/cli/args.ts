import { parseArgs, type ParseArgsConfig } from 'node:util'
import { InputError } from '../../base/shared/errors.ts'
import { didYouMean } from '../../base/input/did-you-mean.ts'

type Options = NonNullable<ParseArgsConfig['options']>

/** parseArgs with errors that say which command and how to get help, exit 2. */
export function parseCommandArgs<O extends Options>(command: string, argv: readonly string[], options: O) {
  try {
    return parseArgs({ args: [...argv], options, allowPositionals: true, strict: true })
  } catch (error) {
    const unknown = /^Unknown option '(-{1,2}[^']+)'/.exec((error as Error).message)?.[1]
    if (unknown) {
      const hint = didYouMean(unknown.replace(/^-+/, ''), Object.keys(options))
      throw new InputError(`convy-ci ${command}: unknown option ${unknown}${hint ? ` — did you mean --${hint}?` : ''} (see convy-ci ${command} --help)`)
    }
    throw new InputError(`convy-ci ${command}: ${(error as Error).message.replace(/\. To specify a positional argument.*$/s, '')} (see convy-ci ${command} --help)`)
  }
}

export function positiveInteger(name: string, text: string | undefined, fallback: number, max = 100_000): number {
  if (text === undefined) return fallback
  const value = Number(text)
  if (!Number.isInteger(value) || value < 1 || value > max) throw new InputError(`${name} ${text}: expected a whole number from 1 to ${max}`)
  return value
}

export function positiveNumber(name: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback
  const value = Number(text)
  if (!Number.isFinite(value) || value <= 0) throw new InputError(`${name} ${text}: expected a number of seconds above 0`)
  return value
}

/** `--fail-on-slower PCT` and `--fail-on-costlier PCT`: off (null) unless given; a percentage, 0 or more. */
export function percentLimit(name: string, text: string | undefined): number | null {
  if (text === undefined) return null
  const value = Number(text)
  if (text.trim() === '' || !Number.isFinite(value) || value < 0) throw new InputError(`${name} ${text}: expected a percentage, 0 or more (50: fail on a significant change of 1.5 × or more)`)
  return value
}

/** Repeatable options also take comma-separated lists: `--tags a,b` equals `--tags a --tags b`. */
export function list(values: readonly string[] | undefined): string[] {
  return (values ?? []).flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean)
}
