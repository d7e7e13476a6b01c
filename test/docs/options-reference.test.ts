import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, test } from 'node:test'
import { parse } from 'yaml'
import { ROOT } from './runnable.ts'
import { REFERENCE_FILES } from '../../src/entry/options/reference.ts'
import { OPTIONS, optionsOf } from '../../src/entry/options/table.ts'
import { COMMAND_NAMES, type AnyOption } from '../../src/entry/options/option.ts'
import { readCommandArgs } from '../../src/entry/cli/args.ts'
import { readActionInputs } from '../../src/entry/options/action-inputs.ts'
import { COMMAND_HELP } from '../../src/entry/cli/help.ts'

// Issue 35 item 4: each option is declared once (src/entry/options/), and what people read of it —
// action.yml's inputs, the docs' tables, --help — is written from the table, so a default cannot
// differ between a page and the code. These tests hold the files to the table and the stated
// defaults to what the parsers do.

const read = (file: string) => readFileSync(join(ROOT, file), 'utf8')
const all = Object.entries(OPTIONS) as [string, AnyOption][]

/** The rows of the markdown tables between `<!-- options: NAME -->` markers: name → [first cell, default cell]. */
function tables(text: string): Map<string, string[][]> {
  const found = new Map<string, string[][]>()
  for (const [, name, body] of text.matchAll(/<!-- options: ([\w -]+) -->\n([\s\S]*?)<!-- \/options -->/g)) {
    const rows = body!
      .split('\n')
      .filter((line) => line.startsWith('| ') && !line.startsWith('| ---'))
      .slice(1)
      .map((line) => line.split(/(?<!\\)\|/).slice(1, -1).map((c) => c.trim()))
    found.set(name!, rows)
  }
  return found
}

const unquote = (cell: string) => /^`(.*)`$/.exec(cell)?.[1]?.replace(/\\\|/g, '|') ?? null

describe('the option table', () => {
  test('action.yml and the docs are what `npm run options` writes from the table', () => {
    for (const [file, make] of Object.entries(REFERENCE_FILES)) {
      const text = read(file)
      assert.equal(make(text), text, `${file} differs from the option table: run npm run options`)
    }
  })

  test('no command takes two options by one flag, and no input is declared twice', () => {
    for (const command of COMMAND_NAMES) {
      const flags = optionsOf(command).flatMap(([, o]) => [o.cli!.flag, o.cli!.negation].filter((f) => f !== undefined))
      const shorts = optionsOf(command).flatMap(([, o]) => (o.cli!.short ? [o.cli!.short] : []))
      assert.equal(new Set(flags).size, flags.length, `${command}: ${flags.join(' ')}`)
      assert.equal(new Set(shorts).size, shorts.length, `${command}: ${shorts.join(' ')}`)
    }
    const inputs = all.flatMap(([, o]) => (o.action ? [o.action.input] : []))
    assert.equal(new Set(inputs).size, inputs.length)
    assert.ok(inputs.length >= 30 && all.filter(([, o]) => o.cli).length >= 40, 'the table holds the options')
  })

  test('every default a docs table states for a flag is what the command reads when the flag is absent', () => {
    const local = tables(read('docs/local.md'))
    assert.equal(local.size, 11, 'a table per command but init')
    let checked = 0
    for (const [command, rows] of local) {
      const { values } = readCommandArgs(command as (typeof COMMAND_NAMES)[number], [])
      const byLabel = new Map(optionsOf(command as (typeof COMMAND_NAMES)[number]).map(([id, o]) => [o.cli!.flag, { id, o }]))
      for (const [label, stated] of rows) {
        const flag = /^`-{1,2}(?:no-)?([\w-]+)/.exec(label!)?.[1]
        const entry = byLabel.get(flag!) ?? [...byLabel.values()].find(({ o }) => o.cli!.negation === `no-${flag}` || o.cli!.negation === flag)
        assert.ok(entry, `${command}: ${label} is no option of the table`)
        const value = (values as Record<string, unknown>)[entry.id]
        const quoted = unquote(stated!)
        if (quoted !== null) {
          const parsed = entry.o.kind.parse(quoted)
          assert.ok(parsed.ok, `${command} ${label}: the stated default ${quoted} does not parse`)
          assert.deepEqual(value, parsed.value, `${command} ${label}: docs/local.md says ${quoted}, the command reads ${String(value)}`)
          checked++
        } else if (!entry.o.kind.switch) {
          // A default in words ("the run's own", "off") is no value: the command decides, and reads nothing.
          assert.equal(value, undefined, `${command} ${label}: docs/local.md states "${stated}" but the command reads ${String(value)}`)
        }
      }
    }
    assert.ok(checked >= 15, `only ${checked} stated defaults checked`)
  })

  test("every default docs/action.md and action.yml state for an input is what the action reads when it is empty", () => {
    const values = readActionInputs((name) => (name === 'agent' ? 'bot' : '')) as Record<string, unknown>
    const action = parse(read('action.yml')) as { inputs: Record<string, { default?: string; required?: boolean }> }
    const rows = tables(read('docs/action.md')).get('action inputs')!
    assert.deepEqual(rows.map((r) => unquote(r[0]!)), Object.keys(action.inputs), 'the table and action.yml list the same inputs')
    let checked = 0
    for (const [label, stated] of rows) {
      const input = unquote(label!)!
      const [id, o] = all.find(([, x]) => x.action?.input === input)!
      const yml = action.inputs[input]!
      const quoted = unquote(stated!)
      if (input === 'github-token' || input === 'agent') continue
      if (quoted !== null) {
        const parsed = o.kind.parse(quoted)
        assert.ok(parsed.ok)
        assert.deepEqual(values[id], parsed.value, `docs/action.md says ${input} defaults to ${quoted}; the action reads ${JSON.stringify(values[id])}`)
        assert.equal(yml.default, quoted, `action.yml's default of ${input}`)
        checked++
      } else {
        assert.equal(yml.default, '', `${input}: a default in words in the docs, none in action.yml`)
      }
    }
    assert.ok(checked >= 15, `only ${checked} stated defaults checked`)
  })

  test('--help states each flag of a command with its default', () => {
    for (const command of COMMAND_NAMES) {
      const help = COMMAND_HELP[command]!
      for (const [, o] of optionsOf(command)) {
        const cli = o.cli!
        const named = cli.negation && cli.default === true ? `--${cli.negation}` : cli.flag.length === 1 ? `-${cli.flag} ` : `--${cli.flag}`
        assert.ok(help.includes(named), `convy-ci ${command} --help lacks ${named}`)
        if (cli.default !== undefined && !o.kind.switch) assert.ok(help.includes(o.kind.show(cli.default)), `convy-ci ${command} --help lacks the default of ${named}`)
      }
    }
  })
})
