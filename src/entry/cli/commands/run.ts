import type { RunSettings } from '../../../records/journal/records.ts'
import { InputError, type ExitCode } from '../../../base/shared/errors.ts'
import { readCommandArgs } from '../args.ts'
import type { CliContext } from '../context.ts'
import { runAgents } from '../../../app/pipeline/run-agents.ts'

export async function runCommand(ctx: CliContext, argv: readonly string[]): Promise<ExitCode> {
  const { values, given, positionals } = readCommandArgs('run', argv)
  if (positionals.length === 0) throw new InputError('convy-ci run: name the agent(s) to run, e.g. `convy-ci run echo` (see convy-ci run --help)')
  const settings: RunSettings = {
    k: values.attempts,
    parallel: values.parallel,
    turnTimeoutSeconds: values.turnTimeout,
    scenarioGlobs: values.scenarios ?? [],
    tags: values.tags ?? [],
    smoke: values.smoke ?? false,
    shard: values.shard ?? null,
    budgetUsd: values.budgetUsd ?? null,
    cache: values.cache,
    // Unset, convy.yml's models.review decides.
    ...(values.review === undefined ? {} : { review: values.review }),
  }
  // Recorded only when asked: a run without it reads exactly as before.
  if (given.has('judgeSamples')) settings.judgeSamples = values.judgeSamples
  // The dialogue goes to stdout as it happens; a live progress line would be drawn over it.
  const watch = values.verbose ? ctx.printers.dialogue(ctx.stdout, { parallel: settings.parallel, k: settings.k }) : undefined
  const { exitCode } = await runAgents(watch ? { ...ctx, interactive: false } : ctx, { agents: positionals, settings, config: values.config, results: values.results, watch })
  return exitCode
}
