import type { RunSettings } from '../../../records/journal/records.ts'
import { InputError, type ExitCode } from '../../../base/shared/errors.ts'
import { readCommandArgs } from '../args.ts'
import type { CliContext } from '../context.ts'
import { runAgents } from '../../../app/pipeline/run-agents.ts'
import { ADAPTIVE_DEFAULTS } from '../../../app/pipeline/defaults.ts'
import { historyBesideRuns } from '../../../app/pipeline/history-plan.ts'
import type { RunRequest } from '../../../app/pipeline/run-agents.ts'
import { ACTION_DEFAULT_ATTEMPTS } from '../../options/run-options.ts'

export async function runCommand(ctx: CliContext, argv: readonly string[]): Promise<ExitCode> {
  const { values, given, positionals } = readCommandArgs('run', argv)
  if (positionals.length === 0) throw new InputError('convy-ci run: name the agent(s) to run, e.g. `convy-ci run echo` (see convy-ci run --help)')
  const adaptive = adaptiveChoice(values, given)
  const settings: RunSettings = {
    // An adaptive run's first round is 3 attempts unless -k says otherwise.
    k: adaptive && !given.has('attempts') ? ADAPTIVE_DEFAULTS.k : values.attempts,
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
  const attemptsByHistory = values.attemptsByHistory ? byHistoryBesideRuns(ctx, adaptive !== undefined) : undefined
  const { exitCode } = await runAgents(watch ? { ...ctx, interactive: false } : ctx, { agents: positionals, settings, config: values.config, results: values.results, watch, adaptive, attemptsByHistory })
  return exitCode
}

/**
 * --attempts-by-history: each agent's history.json beside its runs plans its attempts, as the action
 * plans a baseline run's; never fewer than the action's default attempts (nor more than -k for a
 * stable scenario). A history that cannot be read is a warning, and the run plays -k.
 */
function byHistoryBesideRuns(ctx: CliContext, adaptive: boolean): RunRequest['attemptsByHistory'] {
  if (adaptive) throw new InputError('convy-ci run: --attempts-by-history plans a baseline run; --adaptive plays a pull request\'s run against one. Use one of them')
  return {
    floor: ACTION_DEFAULT_ATTEMPTS,
    historyOf: async (agent, resultsDir) => {
      const { history, problems, file } = await historyBesideRuns(resultsDir, agent)
      for (const problem of problems) ctx.stderr.write(`warning: ${problem}; ${agent} plays -k attempts per scenario\n`)
      if (!history && problems.length === 0) ctx.stderr.write(`warning: --attempts-by-history: no ${file} (convy-ci baseline --history N writes it); ${agent} plays -k attempts per scenario\n`)
      return history
    },
    onPlan: (agent, plan) => {
      if (plan) ctx.stderr.write(`${agent}: ${plan.summary}\n`)
    },
  }
}

/** --adaptive needs --baseline; --baseline and --max-attempts mean nothing without --adaptive. */
function adaptiveChoice(values: { adaptive?: boolean | undefined; adaptiveBaseline?: string | undefined; maxAttempts: number }, given: ReadonlySet<string>): { baseline: string; maxAttempts: number } | undefined {
  if (!values.adaptive) {
    if (given.has('adaptiveBaseline') || given.has('maxAttempts')) throw new InputError(`convy-ci run: ${given.has('adaptiveBaseline') ? '--baseline' : '--max-attempts'} is for --adaptive; add --adaptive (see convy-ci run --help)`)
    return undefined
  }
  if (values.adaptiveBaseline === undefined) throw new InputError('convy-ci run --adaptive: name the run to compare with, --baseline <run> (its id, its 4-hex part or its folder)')
  return { baseline: values.adaptiveBaseline, maxAttempts: values.maxAttempts }
}
