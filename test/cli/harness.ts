import { readFile, readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { runCli } from '../../src/entry/cli/cli.ts'
import type { CliContext } from '../../src/entry/cli/context.ts'
import { processWriter } from '../../src/entry/cli/writer.ts'
import { toConvyError } from '../../src/base/shared/errors.ts'
import { terminalPrinters } from '../../src/entry/printers/index.ts'

export { makeProject } from '../support/project.ts'

export interface CliResult {
  code: number
  stdout: string
  stderr: string
}

/** Runs the CLI in this process, as main.ts would, with output captured and errors turned into exit codes. */
export async function runInProcess(argv: string[], options: { cwd: string; env?: Record<string, string>; signal?: AbortSignal; input?: readonly string[] }): Promise<CliResult> {
  let stdout = ''
  let stderr = ''
  const ctx: CliContext = {
    cwd: options.cwd,
    env: options.env ?? {},
    stdout: { write: (t) => void (stdout += t) },
    stderr: { write: (t) => void (stderr += t) },
    interactive: false,
    signal: options.signal ?? new AbortController().signal,
    canStripTypes: false,
    printers: terminalPrinters,
    now: () => new Date(),
    writer: processWriter,
    readLines: () => lines(options.input ?? []),
  }
  try {
    return { code: await runCli(ctx, argv), stdout, stderr }
  } catch (error) {
    const convyError = toConvyError(error)
    return { code: convyError.exitCode, stdout, stderr: `${stderr}error: ${convyError.message}\n` }
  }
}

/** The one run folder under results/<agent>/. */
export async function onlyRun(projectDir: string, agent: string): Promise<string> {
  const runs = await readdir(join(projectDir, 'results', agent))
  if (runs.length !== 1) throw new Error(`expected one run of ${agent}, found ${runs.length}`)
  return join(projectDir, 'results', agent, runs[0]!)
}

export async function readJsonLines(file: string): Promise<Record<string, unknown>[]> {
  const text = await readFile(file, 'utf8')
  return text.trimEnd().split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>)
}

/** Every file under a folder, as text: to prove a secret was written nowhere. */
export async function allText(dir: string): Promise<string> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true })
  const texts = await Promise.all(entries.filter((e) => e.isFile()).map((e) => readFile(join(e.parentPath, e.name), 'utf8')))
  return texts.join('\n')
}

/** Typed lines, as the terminal would give them to `chat`. */
async function* lines(typed: readonly string[]): AsyncIterable<string> {
  for (const line of typed) yield line
}

/** convy.yml for the fake model server (CONVY_BASE_URL) and the fake HTTP bot (BOT_URL) as support_bot. */
export { FAKE_MODELS_AND_BOT_YML } from '../support/convy-yml.ts'

/** A scenario whose user asks about a topic and stops, with one claim for the judge about that topic. */
export const topicScenario = (topic: string) => `user: Ask about your ${topic}, then stop.
judge:
  - The agent answered about the ${topic}
max_turns: 2
`
