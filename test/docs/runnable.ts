import { cp, mkdtemp, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { runCli } from '../../src/entry/cli/cli.ts'
import type { CliContext } from '../../src/entry/cli/context.ts'
import { processWriter } from '../../src/entry/cli/writer.ts'
import { toConvyError } from '../../src/base/shared/errors.ts'
import { terminalPrinters } from '../../src/entry/printers/index.ts'

// The command blocks of README and docs/ that are marked `<!-- runnable -->`, played as a user types
// them, with the output they show compared with the output they make.

export const ROOT = fileURLToPath(new URL('../../', import.meta.url))

/** One `$ command` of a block and the output shown under it. */
export interface Step {
  command: string
  shown: string
}

export interface Block {
  file: string
  line: number
  /** Words whose lines may differ from run to run (a flaky scenario on purpose): compared by count only. */
  varies: string[]
  /** Folders of the repository copied into the block's working folder first. */
  copies: string[]
  steps: Step[]
  /** Where the block's text sits in its file, to rewrite it. */
  start: number
  end: number
}

const MARKER = /<!-- runnable(?:;([^>]*))? -->\n```console\n([\s\S]*?)```/g

export function runnableBlocks(file: string, text: string): Block[] {
  return [...text.matchAll(MARKER)].map((match) => {
    const options = Object.fromEntries((match[1] ?? '').split(';').map((o) => o.split(':').map((s) => s.trim())).filter((o) => o[0]))
    const list = (key: string) => (options[key] ?? '').split(',').map((s: string) => s.trim()).filter(Boolean)
    const steps: Step[] = []
    for (const line of match[2]!.split('\n').slice(0, -1)) {
      if (line.startsWith('$ ')) steps.push({ command: line.slice(2), shown: '' })
      else if (steps.length > 0) steps.at(-1)!.shown += `${line}\n`
    }
    const bodyStart = match.index + match[0].indexOf('```console\n') + '```console\n'.length
    return {
      file, line: text.slice(0, match.index).split('\n').length, varies: list('varies'), copies: list('copies'), steps,
      start: bodyStart, end: bodyStart + match[2]!.length,
    }
  })
}

/** The output as a reader compares it: run ids, times and the temporary folder are not the point. */
export function normalise(text: string, cwd: string): string {
  return text
    .replaceAll(`${cwd}/`, '')
    .replace(/\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d_[0-9a-f]{4}/g, '<run>')
    .replace(/\b\d+(\.\d+)? (ms|s)\b/g, '<time>')
    .replace(/[ \t]+/g, ' ')
    .replace(/─+/g, '─')
    .replace(/ +$/gm, '')
    .trimEnd()
}

/** Lines with a word that varies leave the comparison, but not their number. */
export function withoutVarying(text: string, varies: readonly string[]): { text: string; varying: number } {
  const lines = text.split('\n')
  const keep = lines.filter((line) => !varies.some((word) => line.includes(word)))
  return { text: keep.join('\n'), varying: lines.length - keep.length }
}

export interface Played {
  code: number
  output: string
}

/** `npx convy-ci …`, `npm run <script>` and `cd`, in this process; `2>&1` shows stderr too, in order. */
export async function playBlock(block: Block, env: Record<string, string> = {}): Promise<{ cwd: string; played: Played[] }> {
  const root = await mkdtemp(join(tmpdir(), 'convy-runnable-'))
  for (const folder of block.copies) await cp(join(ROOT, folder), join(root, folder), { recursive: true, filter: (from) => !/\/(results|node_modules)(\/|$)/.test(from) })
  const pkg = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
  let cwd = root
  const played: Played[] = []
  for (const step of block.steps) {
    let command = step.command.replace(/\s+#.*$/, '')
    const both = command.endsWith(' 2>&1')
    if (both) command = command.slice(0, -' 2>&1'.length)
    const words = command.split(/\s+/)
    if (words[0] === 'cd') {
      cwd = resolve(cwd, words[1]!)
      played.push({ code: 0, output: '' })
      continue
    }
    let argv: string[]
    if (words[0] === 'npx' && words[1] === 'convy-ci') argv = words.slice(2)
    else if (words[0] === 'npm' && words[1] === 'run' && pkg.scripts[words[2]!]?.startsWith('node dist/cli.js ')) argv = pkg.scripts[words[2]!]!.split(/\s+/).slice(2)
    else throw new Error(`${block.file}:${block.line}: "${step.command}" is not a command this test can play`)
    played.push(await cli(argv, cwd, env, both))
  }
  return { cwd: root, played }
}

async function cli(argv: string[], cwd: string, env: Record<string, string>, both: boolean): Promise<Played> {
  let output = ''
  const ctx: CliContext = {
    cwd,
    env,
    stdout: { write: (t) => void (output += t) },
    stderr: { write: (t) => void (both ? (output += t) : undefined) },
    interactive: false,
    printers: terminalPrinters,
    signal: new AbortController().signal,
    canStripTypes: false,
    now: () => new Date(),
    writer: processWriter,
  }
  try {
    return { code: await runCli(ctx, argv), output }
  } catch (error) {
    const convyError = toConvyError(error)
    if (both) output += `error: ${convyError.message}\n`
    return { code: convyError.exitCode, output }
  }
}

/** The exit code a command line promises with a trailing `# exit N` (0 without one). */
export function promisedCode(command: string): number {
  return Number(/#\s*exit (\d+)\s*$/.exec(command)?.[1] ?? 0)
}

/** Writes what the commands printed under them (CONVY_UPDATE_DOCS=1): the script that keeps docs true. */
export async function rewrite(file: string, blocks: { block: Block; outputs: string[] }[]): Promise<void> {
  let text = await readFile(file, 'utf8')
  for (const { block, outputs } of [...blocks].sort((a, b) => b.block.start - a.block.start)) {
    const body = block.steps.map((step, i) => `$ ${step.command}\n${outputs[i]!}`).join('')
    text = text.slice(0, block.start) + body + text.slice(block.end)
  }
  await writeFile(file, text)
}
