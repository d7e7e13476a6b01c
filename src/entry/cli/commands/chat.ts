import { InputError, type ExitCode } from '../../../base/shared/errors.ts'
import { parseCommandArgs, positiveNumber } from '../args.ts'
import type { CliContext } from '../context.ts'
import { chat } from '../../../app/pipeline/chat.ts'
import { RUN_DEFAULTS } from '../../../app/pipeline/defaults.ts'
import { terminalChatPrinter } from '../chat-printer.ts'

/** `convy-ci chat <agent> [--scenario id]`: you play the user, line by line on standard input. */
export async function chatCommand(ctx: CliContext, argv: readonly string[]): Promise<ExitCode> {
  const { values, positionals } = parseCommandArgs('chat', argv, {
    scenario: { type: 'string' },
    save: { type: 'string' },
    'turn-timeout': { type: 'string' },
    config: { type: 'string' },
  })
  if (positionals.length !== 1) throw new InputError('convy-ci chat: name one agent, e.g. `convy-ci chat support_bot` (see convy-ci chat --help)')
  if (!ctx.readLines) throw new InputError('convy-ci chat: needs lines to read on standard input')
  const turnTimeoutSeconds = positiveNumber('--turn-timeout', values['turn-timeout'], RUN_DEFAULTS.turnTimeoutSeconds)
  return chat(ctx, { agent: positionals[0]!, scenario: values.scenario, save: values.save, turnTimeoutSeconds, config: values.config, lines: ctx.readLines, printer: terminalChatPrinter(ctx.stdout, ctx.stderr) })
}
