import { ExitCode, InputError } from '../../base/shared/errors.ts'
import { didYouMean } from '../../base/input/did-you-mean.ts'
import { CONVY_VERSION } from '../../base/shared/version.ts'
import type { CliContext } from './context.ts'
import { COMMAND_NAMES } from '../options/option.ts'

type Command = (ctx: CliContext, argv: readonly string[]) => Promise<ExitCode>

// Commands are imported when called, so `--version` and `--help` start without loading the runner,
// the model client and the YAML parser; the help (written from the option table) only when asked.
const COMMANDS: Record<string, () => Promise<Command>> = {
  init: async () => (await import('./commands/init.ts')).initCommand,
  run: async () => (await import('./commands/run.ts')).runCommand,
  resume: async () => (await import('./commands/resume.ts')).resumeCommand,
  report: async () => (await import('./commands/report.ts')).reportCommand,
  compare: async () => (await import('./commands/compare.ts')).compareCommand,
  replay: async () => (await import('./commands/replay.ts')).replayCommand,
  rejudge: async () => (await import('./commands/rejudge.ts')).rejudgeCommand,
  'judge-check': async () => (await import('./commands/judge-check.ts')).judgeCheckCommand,
  merge: async () => (await import('./commands/merge.ts')).mergeCommand,
  baseline: async () => (await import('./commands/baseline.ts')).baselineCommand,
  publish: async () => (await import('./commands/publish.ts')).publishCommand,
  chat: async () => (await import('./commands/chat.ts')).chatCommand,
}

/** Dispatches argv to a command. Errors are thrown; main.ts turns them into a message and an exit code. */
export async function runCli(ctx: CliContext, argv: readonly string[]): Promise<ExitCode> {
  const [name, ...rest] = argv
  if (name === undefined || name === '-h' || name === '--help' || name === 'help') {
    const { COMMAND_HELP, MAIN_HELP } = await import('./help.ts')
    ctx.stdout.write(name === 'help' && rest[0] && COMMAND_HELP[rest[0]] ? COMMAND_HELP[rest[0]]! : MAIN_HELP)
    return ExitCode.Ok
  }
  if (name === '-v' || name === '--version') {
    ctx.stdout.write(`${CONVY_VERSION}\n`)
    return ExitCode.Ok
  }
  if (rest.includes('-h') || rest.includes('--help')) {
    const help = (await import('./help.ts')).COMMAND_HELP[name]
    if (help) {
      ctx.stdout.write(help)
      return ExitCode.Ok
    }
  }
  const command = COMMANDS[name]
  if (!command) {
    const hint = didYouMean(name, [...COMMAND_NAMES])
    throw new InputError(`unknown command "${name}"${hint ? ` — did you mean "${hint}"?` : ''} (see convy-ci --help)`)
  }
  return (await command())(ctx, rest)
}
