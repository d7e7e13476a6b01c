import type { RunSettings } from '../../../records/journal/records.ts'
import { parseShard } from '../../../play/runner/select-scenarios.ts'
import { InputError, type ExitCode } from '../../../base/shared/errors.ts'
import { list, parseCommandArgs, positiveInteger, positiveNumber } from '../args.ts'
import { CACHE_MODES, type CacheMode } from '../../../adapters/model-client/model-cache.ts'
import type { CliContext } from '../context.ts'
import { RUN_DEFAULTS } from '../../../app/pipeline/defaults.ts'
import { runAgents } from '../../../app/pipeline/run-agents.ts'

export async function runCommand(ctx: CliContext, argv: readonly string[]): Promise<ExitCode> {
  const { values, positionals } = parseCommandArgs('run', argv, {
    k: { type: 'string', short: 'k' },
    parallel: { type: 'string' },
    scenarios: { type: 'string', multiple: true },
    tags: { type: 'string', multiple: true },
    'turn-timeout': { type: 'string' },
    smoke: { type: 'boolean' },
    review: { type: 'boolean' },
    'no-review': { type: 'boolean' },
    shard: { type: 'string' },
    cache: { type: 'string' },
    'judge-samples': { type: 'string' },
    'budget-usd': { type: 'string' },
    config: { type: 'string' },
    results: { type: 'string' },
    verbose: { type: 'boolean' },
  })
  if (positionals.length === 0) throw new InputError('convy-ci run: name the agent(s) to run, e.g. `convy-ci run echo` (see convy-ci run --help)')
  const settings: RunSettings = {
    k: positiveInteger('-k', values.k, RUN_DEFAULTS.k, 1000),
    parallel: positiveInteger('--parallel', values.parallel, RUN_DEFAULTS.parallel, 1000),
    turnTimeoutSeconds: positiveNumber('--turn-timeout', values['turn-timeout'], RUN_DEFAULTS.turnTimeoutSeconds),
    scenarioGlobs: list(values.scenarios),
    tags: list(values.tags),
    smoke: values.smoke ?? false,
    shard: values.shard === undefined ? null : parseShard(values.shard),
    budgetUsd: values['budget-usd'] === undefined ? null : positiveNumber('--budget-usd', values['budget-usd'], 0),
    cache: parseCacheMode(values.cache),
    ...(values.review || values['no-review'] ? { review: reviewChoice(values.review, values['no-review']) } : {}),
  }
  // Recorded only when asked: a run without it reads exactly as before.
  if (values['judge-samples'] !== undefined) settings.judgeSamples = positiveInteger('--judge-samples', values['judge-samples'], 1, 15)

  // The dialogue goes to stdout as it happens; a live progress line would be drawn over it.
  const watch = values.verbose ? ctx.printers.dialogue(ctx.stdout, { parallel: settings.parallel, k: settings.k }) : undefined
  const { exitCode } = await runAgents(watch ? { ...ctx, interactive: false } : ctx, { agents: positionals, settings, config: values.config, results: values.results, watch })
  return exitCode
}

function reviewChoice(review: boolean | undefined, noReview: boolean | undefined): boolean {
  if (review && noReview) throw new InputError('convy-ci run: --review and --no-review contradict each other; give one')
  return review === true
}

function parseCacheMode(text: string | undefined): CacheMode {
  if (text === undefined) return 'off'
  if (!(CACHE_MODES as readonly string[]).includes(text)) throw new InputError(`--cache ${text}: expected one of ${CACHE_MODES.join(', ')}`)
  return text as CacheMode
}
