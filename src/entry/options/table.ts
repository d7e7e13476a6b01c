import { GATE_OPTIONS } from './gate-options.ts'
import { GITHUB_OPTIONS } from './github-options.ts'
import type { AnyOption, CommandName } from './option.ts'
import { PROJECT_OPTIONS, RUN_OPTIONS } from './run-options.ts'

/**
 * Every option of the CLI and the action, declared once (README.md): the commands' parsers, their
 * --help, the action's inputs, action.yml's inputs block and the reference tables in docs/ all read
 * it. The order is the order of the help and of action.yml.
 */
export const OPTIONS = { ...RUN_OPTIONS, ...GITHUB_OPTIONS, ...GATE_OPTIONS, ...PROJECT_OPTIONS }

export type OptionId = keyof typeof OPTIONS
type Table = typeof OPTIONS

/** The options a command takes, by id, in the table's order. */
export function optionsOf(command: CommandName): [string, AnyOption][] {
  return (Object.entries(OPTIONS) as [string, AnyOption][]).filter(([, o]) => o.cli?.commands.includes(command))
}

/** The options the action reads, by id, in the table's order. */
export function actionOptions(): [string, AnyOption][] {
  return (Object.entries(OPTIONS) as [string, AnyOption][]).filter(([, o]) => o.action)
}

// The values readers return: the kind's value, or undefined where there is no default.
type Types<O> = NonNullable<O extends { types?: infer X } ? X : never>
type Value<O, D extends 'cliDefault' | 'actionDefault'> = Types<O> extends { value: infer T } ? (Types<O>[D & keyof Types<O>] extends true ? T : T | undefined) : never

/** What `readCommandArgs(command, argv)` returns for `command`, by option id. */
export type CommandValues<C extends CommandName> = {
  -readonly [K in keyof Table as C extends Types<Table[K]>['commands'] ? K : never]: Value<Table[K], 'cliDefault'>
}

/** What the action's inputs read to, by option id. */
export type ActionValues = {
  -readonly [K in keyof Table as Types<Table[K]>['inAction'] extends true ? K : never]: Value<Table[K], 'actionDefault'>
}
