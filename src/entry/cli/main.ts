import './runtime-tuning.ts'
import { ExitCode, Interrupted, InputErrors, toConvyError } from '../../base/shared/errors.ts'
import { forTerminal } from '../../base/shared/invisible.ts'
import { runCli } from './cli.ts'
import type { CliContext } from './context.ts'
import { processWriter } from './writer.ts'
import { typedLines } from './typed-lines.ts'
import { terminalPrinters } from '../printers/index.ts'

// The only place that touches the process: argv, environment, streams, signals, the exit code.
const controller = new AbortController()
let signals = 0
const onSignal = (signal: NodeJS.Signals) => {
  signals++
  if (signals > 1) {
    // A second Ctrl+C: leave now. Finished attempts are on disk already.
    process.exit(ExitCode.Interrupted)
  }
  process.stderr.write(`\n${signal}: stopping; finished attempts are kept (press Ctrl+C again to quit at once)\n`)
  controller.abort(new Interrupted(`interrupted by ${signal}`))
}
process.on('SIGINT', onSignal)
process.on('SIGTERM', onSignal)

const features = process.features as { typescript?: string | false }

const ctx: CliContext = {
  cwd: process.cwd(),
  env: process.env,
  stdout: process.stdout,
  stderr: process.stderr,
  interactive: Boolean(process.stderr.isTTY) && process.env.CI !== 'true',
  signal: controller.signal,
  canStripTypes: features.typescript === 'strip' || features.typescript === 'transform',
  printers: terminalPrinters,
  now: () => new Date(),
  writer: processWriter,
  // Only `chat` reads stdin; other commands never open it, so it cannot hold the process open.
  readLines: () => typedLines(process.stdin),
}

runCli(ctx, process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code
  },
  (error: unknown) => {
    const convyError = toConvyError(error)
    const lines = convyError instanceof InputErrors ? convyError.problems.map((p) => `error: ${p.message}`) : [`error: ${convyError.message}`]
    // Messages quote file names and agents' words: no control character reaches the terminal raw.
    process.stderr.write(`${lines.map(forTerminal).join('\n')}\n`)
    if (!(convyError.exitCode === ExitCode.BadInput) && process.env.CONVY_DEBUG && error instanceof Error) process.stderr.write(`${error.stack}\n`)
    process.exitCode = convyError.exitCode
  },
)
