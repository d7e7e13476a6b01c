import type { AnyOption, CommandName } from './option.ts'
import { actionOptions, optionsOf } from './table.ts'

/**
 * What the option table writes for people: the lines of a command's --help, action.yml's inputs
 * block, and the reference tables of docs/ (between marker comments, so the prose around them stays
 * hand-written). `npm run options` writes the files; test/docs/options-reference.test.ts fails when
 * they differ from what the table makes.
 */

/** How the help and the docs name a flag: `--budget-usd <dollars>`, `--review, --no-review`, `--no-check`. */
export function flagLabel(o: AnyOption, angle = true): string {
  const cli = o.cli!
  const dashed = cli.flag.length === 1 ? `-${cli.flag}` : `--${cli.flag}`
  if (o.kind.switch) {
    if (!cli.negation) return dashed
    return cli.default === true ? `--${cli.negation}` : `${dashed}, --${cli.negation}`
  }
  const metavar = cli.metavar ?? o.kind.metavar
  return `${dashed} ${angle ? `<${metavar}>` : metavar}`
}

/** The CLI default as the help and the docs state it; null where a flag has none to state. */
export function cliDefault(o: AnyOption): { text: string; isValue: boolean } | null {
  const cli = o.cli!
  if (cli.defaultText !== undefined) return { text: cli.defaultText, isValue: false }
  if (cli.default === undefined || o.kind.switch) return null
  return { text: o.kind.show(cli.default), isValue: true }
}

/** The help text with its default: `{default}` in place, else "(default …)" at the end. */
function helpWithDefault(o: AnyOption, inTable: boolean): string {
  const shown = cliDefault(o)
  const help = o.cli!.help
  if (help.includes('{default}')) return help.replaceAll('{default}', shown?.text ?? '')
  if (!shown || inTable) return help
  return `${help} (default${shown.isValue ? '' : ':'} ${shown.text})`
}

const WIDTH = 104
const COLUMN = 27

function wrap(words: string, width: number): string[] {
  const lines: string[] = []
  let line = ''
  for (const word of words.split(' ')) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line)
      line = word
    } else line = line ? `${line} ${word}` : word
  }
  if (line) lines.push(line)
  return lines
}

/** A command's "Options:" lines for --help: the flag, then its help wrapped at the 27th column. */
export function optionHelp(command: CommandName): string {
  const out: string[] = []
  for (const [, o] of optionsOf(command)) {
    const label = `  ${flagLabel(o)}`
    const lines = wrap(helpWithDefault(o, false), WIDTH - COLUMN)
    if (label.length < COLUMN - 1) out.push(`${label.padEnd(COLUMN)}${lines[0]}`)
    else out.push(label, `${' '.repeat(COLUMN)}${lines[0]}`)
    for (const line of lines.slice(1)) out.push(`${' '.repeat(COLUMN)}${line}`)
  }
  return out.join('\n')
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/</g, '&lt;').replace(/>/g, '&gt;')
const code = (text: string) => `\`${text.replace(/\|/g, '\\|')}\``

/** A command's reference table for docs/: flag, default, what it does. */
export function commandTable(command: CommandName): string {
  const rows = optionsOf(command).map(([, o]) => {
    const shown = cliDefault(o)
    const def = shown === null ? '' : shown.isValue ? code(shown.text) : cell(shown.text)
    return `| ${code(flagLabel(o, false))} | ${def} | ${cell(helpWithDefault(o, true))} |`
  })
  return ['| flag | default | |', '| --- | --- | --- |', ...rows].join('\n')
}

/** The action's default as docs/action.md states it. */
export function actionDefault(o: AnyOption): string {
  const action = o.action!
  if (action.required) return '(required)'
  if (action.yamlDefault !== undefined) return code(action.yamlDefault)
  if (action.defaultText !== undefined) return action.defaultText
  return action.default === undefined ? '' : code(o.kind.show(action.default))
}

/** docs/action.md's table of inputs. */
export function actionInputsTable(): string {
  const rows = actionOptions().map(([, o]) => `| ${code(o.action!.input)} | ${actionDefault(o)} | ${o.action!.docs ?? o.action!.description} |`)
  return ['| input | default | |', '| --- | --- | --- |', ...rows].join('\n')
}

/** A default as action.yml writes it: plain where YAML reads it as the same text, quoted otherwise. */
function yamlScalar(text: string): string {
  return /^[A-Za-z][A-Za-z0-9_.-]*$/.test(text) && !/^(true|false|yes|no|on|off|null|y|n)$/i.test(text) ? text : `'${text.replace(/'/g, "''")}'`
}

/** action.yml's `inputs:` block, each description folded at 110 columns. */
export function actionYmlInputs(): string {
  const lines = ['inputs:']
  for (const [, o] of actionOptions()) {
    const action = o.action!
    lines.push(`  ${action.input}:`, '    description: >-', ...wrap(action.description, 110).map((l) => `      ${l}`))
    if (action.required) lines.push('    required: true')
    else lines.push(`    default: ${action.yamlDefault ?? (action.default === undefined ? "''" : yamlScalar(o.kind.show(action.default)))}`)
  }
  return lines.join('\n')
}

/** `text` with what lies between `<!-- options: NAME -->` and `<!-- /options -->` replaced by `content`. */
export function betweenMarkers(text: string, name: string, content: string): string {
  const open = `<!-- options: ${name} -->`
  const start = text.indexOf(open)
  const end = start === -1 ? -1 : text.indexOf('<!-- /options -->', start)
  if (start === -1 || end === -1) throw new Error(`no "${open}" … "<!-- /options -->" markers`)
  return `${text.slice(0, start + open.length)}\n${content}\n${text.slice(end)}`
}

/** action.yml with its inputs block replaced: everything from `inputs:` to `outputs:`. */
export function withActionInputs(actionYml: string): string {
  const start = actionYml.indexOf('\ninputs:\n')
  const end = actionYml.indexOf('\noutputs:\n')
  if (start === -1 || end === -1) throw new Error('action.yml has no inputs: … outputs: blocks')
  return `${actionYml.slice(0, start + 1)}${actionYmlInputs()}\n${actionYml.slice(end)}`
}

/** The commands whose options docs/local.md lists, each in its own table. */
const LOCAL_COMMANDS: readonly CommandName[] = ['run', 'resume', 'replay', 'rejudge', 'judge-check', 'report', 'compare', 'merge', 'baseline', 'publish', 'chat']

/**
 * The files the table writes, each as a function of its current text: README.md's table of run's
 * flags, action.yml's inputs block, docs/action.md's inputs and publish tables, docs/local.md's table
 * per command.
 */
export const REFERENCE_FILES: Record<string, (text: string) => string> = {
  'README.md': (text) => betweenMarkers(text, 'run', commandTable('run')),
  'action.yml': withActionInputs,
  'docs/action.md': (text) => betweenMarkers(betweenMarkers(text, 'action inputs', actionInputsTable()), 'publish', commandTable('publish')),
  'docs/local.md': (text) => LOCAL_COMMANDS.reduce((t, command) => betweenMarkers(t, command, commandTable(command)), text),
}
