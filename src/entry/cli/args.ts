import { parseArgs, type ParseArgsConfig } from 'node:util'
import { allProblems, InputError } from '../../base/shared/errors.ts'
import { didYouMean } from '../../base/input/did-you-mean.ts'
import { optionsOf, type CommandValues, type OptionId } from '../options/table.ts'
import type { AnyOption, CommandName } from '../options/option.ts'

export interface CommandArgs<C extends CommandName> {
  /** Each option the command takes, by its id in the table: parsed, checked, its default where it has one. */
  values: CommandValues<C>
  /** The options given on the command line (a default alone is not "given"). */
  given: ReadonlySet<OptionId>
  positionals: string[]
}

/** `-k` for a one-letter flag, `--parallel` otherwise: how a message names the flag. */
const flagLabel = (flag: string) => (flag.length === 1 ? `-${flag}` : `--${flag}`)

/**
 * A command's flags, read by the option table (src/entry/options/): every wrong value is reported at
 * once, naming the flag, what was given and what was expected; an unknown flag gets a did-you-mean.
 * All of it is exit 2 before anything runs.
 */
export function readCommandArgs<C extends CommandName>(command: C, argv: readonly string[]): CommandArgs<C> {
  const table = optionsOf(command)
  const config: NonNullable<ParseArgsConfig['options']> = {}
  for (const [, o] of table) {
    const cli = o.cli!
    config[cli.flag] = { type: o.kind.switch ? 'boolean' : 'string', ...(o.kind.list ? { multiple: true } : {}), ...(cli.short ? { short: cli.short } : {}) }
    if (cli.negation) config[cli.negation] = { type: 'boolean' }
  }
  const raw = parse(command, negativeValuesJoined(argv, config), config)
  const values: Record<string, unknown> = {}
  const given = new Set<OptionId>()
  const problems: InputError[] = []
  for (const [id, o] of table) {
    const read = readOne(command, o, raw.values)
    if (read.problem) problems.push(read.problem)
    if (read.given) given.add(id as OptionId)
    values[id] = read.given ? read.value : o.cli!.default
  }
  if (problems.length) throw allProblems(problems)
  return { values: values as CommandValues<C>, given, positionals: raw.positionals }
}

type RawValues = Record<string, string | boolean | (string | boolean)[] | undefined>

function readOne(command: string, o: AnyOption, raw: RawValues): { given: boolean; value?: unknown; problem?: InputError } {
  const cli = o.cli!
  const label = flagLabel(cli.flag)
  if (o.kind.switch) {
    const yes = raw[cli.flag] === true
    const no = cli.negation !== undefined && raw[cli.negation] === true
    if (yes && no) return { given: false, problem: new InputError(`convy-ci ${command}: ${label} and --${cli.negation} contradict each other; give one`) }
    return yes || no ? { given: true, value: yes } : { given: false }
  }
  const texts = raw[cli.flag]
  if (texts === undefined) return { given: false }
  const all = (Array.isArray(texts) ? texts : [texts]).map(String)
  const parsed = all.map((text) => ({ text, result: o.kind.parse(text) }))
  const wrong = parsed.find((p) => !p.result.ok)
  if (wrong && !wrong.result.ok) return { given: true, problem: new InputError(`${label} ${wrong.text}: ${wrong.result.expected}`) }
  const ok = parsed.map((p) => (p.result.ok ? p.result.value : undefined))
  // A repeated list flag adds up (`--tags a --tags b`); any other flag given twice keeps the last.
  return { given: true, value: o.kind.list ? ok.flat() : ok.at(-1) }
}

/** parseArgs with errors that say which command and how to get help, exit 2. */
function parse(command: string, argv: readonly string[], options: NonNullable<ParseArgsConfig['options']>) {
  try {
    return parseArgs({ args: [...argv], options, allowPositionals: true, strict: true }) as { values: RawValues; positionals: string[] }
  } catch (error) {
    const unknown = /^Unknown option '(-{1,2}[^']+)'/.exec((error as Error).message)?.[1]
    if (unknown) {
      const hint = didYouMean(unknown.replace(/^-+/, ''), Object.keys(options))
      throw new InputError(`convy-ci ${command}: unknown option ${unknown}${hint ? ` — did you mean --${hint}?` : ''} (see convy-ci ${command} --help)`)
    }
    throw new InputError(`convy-ci ${command}: ${(error as Error).message.replace(/\. To specify a positional argument.*$/s, '')} (see convy-ci ${command} --help)`)
  }
}

/**
 * `--budget-usd -1` reads as the flag and its value, so the value's own check answers ("expected an
 * amount of dollars above 0"); parseArgs alone would call the -1 an ambiguous option.
 */
function negativeValuesJoined(argv: readonly string[], options: NonNullable<ParseArgsConfig['options']>): string[] {
  const out: string[] = []
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    const next = argv[i + 1]
    const name = /^--([^=]+)$/.exec(arg)?.[1] ?? Object.entries(options).find(([, o]) => o.short !== undefined && arg === `-${o.short}`)?.[0]
    if (name !== undefined && options[name]?.type === 'string' && next !== undefined && /^-\d|^-\.\d/.test(next)) {
      out.push(`--${name}=${next}`)
      i++
    } else out.push(arg)
  }
  return out
}
