import type { Kind } from './kinds.ts'

/** The CLI's commands, in the order `convy-ci --help` lists them. */
export const COMMAND_NAMES = ['init', 'run', 'resume', 'replay', 'rejudge', 'judge-check', 'report', 'compare', 'merge', 'baseline', 'publish', 'chat'] as const
export type CommandName = (typeof COMMAND_NAMES)[number]

/** How an option is given on the command line. */
export interface CliFacet<T> {
  /** The flag without its dashes: `budget-usd` is `--budget-usd`. Several options may share a flag if no command takes two of them. */
  flag: string
  /** A one-letter alias (`-k`). */
  short?: string
  /** A switch whose default is true or undecided also takes `--<negation>` (`no-check`), which sets it false. */
  negation?: string
  /** The commands that take it, in no particular order (the help lists options in the table's order). */
  commands: readonly CommandName[]
  /** The value's name in the help (`<dollars>`); the kind's by default. */
  metavar?: string
  /**
   * One line of help, wrapped when printed. `{default}` stands for the default as the reference shows
   * it; without it the help ends with "(default …)" wherever there is a default. For a switch with a
   * negation whose default is true, the help says what the negation does.
   */
  help: string
  /** The value when the flag is not given; absent: undefined, and the command decides (say so in defaultText). */
  default?: T
  /** The default in words where it is not a value ("results/ beside convy.yml", "the run's own"). */
  defaultText?: string
}

/** How an option is given to the action, as an input of action.yml. */
export interface ActionFacet<T> {
  input: string
  /** action.yml's description: what the Marketplace and an editor show. */
  description: string
  /** The cell of docs/action.md's table, where it says more than the description (links, figures). */
  docs?: string
  /** The value when the input is empty or absent. */
  default?: T
  /** The default in words (docs/action.md's table) where it is not a value: "all", "the default branch". */
  defaultText?: string
  /** action.yml's default where it is an expression GitHub fills in (`${{ github.token }}`). */
  yamlDefault?: string
  /** The input is required; the message says what to give. */
  required?: string
}

/** One option, declared once: its kind, and how the CLI, the action and convy.yml name it. */
export interface OptionDeclaration<T = unknown> {
  kind: Kind<T>
  cli?: CliFacet<T>
  action?: ActionFacet<T>
  /** convy.yml's key that sets the same thing, where there is one (the flag or input wins). */
  config?: string
}

/**
 * An option with its types kept: the commands that take it (C), whether the CLI has a default (CD),
 * whether the action reads it (IA) and has a default (AD). The phantom field is never set; it carries
 * the types to the values that readCommandArgs and readActionInputs return.
 */
export interface Option<T, C extends CommandName, CD extends boolean, IA extends boolean, AD extends boolean> extends OptionDeclaration<T> {
  readonly types?: { value: T; commands: C; cliDefault: CD; inAction: IA; actionDefault: AD }
}

type HasDefault<F> = F extends { default: unknown } ? true : false

/** Declares an option. The generic parameters keep what the CLI's and the action's readers return typed. */
export function option<
  T,
  const C extends readonly CommandName[] = [],
  const F extends object = { none: true },
  const A extends object = { none: true },
>(declaration: {
  kind: Kind<T>
  cli?: F & CliFacet<T> & { commands: C }
  action?: A & ActionFacet<T>
  config?: string
}): Option<T, C[number], HasDefault<F>, A extends { input: string } ? true : false, HasDefault<A>> {
  return declaration as unknown as Option<T, C[number], HasDefault<F>, A extends { input: string } ? true : false, HasDefault<A>>
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyOption = Option<any, CommandName, boolean, boolean, boolean>
