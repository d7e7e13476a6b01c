import { InputError, type ExitCode } from '../../../base/shared/errors.ts'
import { readCommandArgs } from '../args.ts'
import type { CliContext } from '../context.ts'
import { chat } from '../../../app/pipeline/chat.ts'
import { terminalChatPrinter } from '../chat-printer.ts'

/** `convy-ci chat <agent> [--scenario id]`: you play the user, line by line on standard input. */
export async function chatCommand(ctx: CliContext, argv: readonly string[]): Promise<ExitCode> {
  const { values, positionals } = readCommandArgs('chat', argv)
  if (positionals.length !== 1) throw new InputError('convy-ci chat: name one agent, e.g. `convy-ci chat support_bot` (see convy-ci chat --help)')
  if (!ctx.readLines) throw new InputError('convy-ci chat: needs lines to read on standard input')
  return chat(ctx, { agent: positionals[0]!, scenario: values.scenario, save: values.save, turnTimeoutSeconds: values.turnTimeout, config: values.config, lines: ctx.readLines, printer: terminalChatPrinter(ctx.stdout, ctx.stderr) })
}
