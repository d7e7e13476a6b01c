import { findRun, readAttempts } from '../../records/journal/read-run.ts'
import { RunJournal } from '../../records/journal/run-journal.ts'
import type { RunManifest } from '../../records/journal/records.ts'
import type { Attempt } from '../../records/journal/records.ts'
import { missingReplays } from '../../play/runner/replay-user-errors.ts'
import { harnessCostUsd } from '../../records/journal/attempt-facts.ts'
import { checkModels, prepareAgent, prepareModels, type PreparedAgent, type PreparedModels } from '../../play/runner/prepare.ts'
import { planAttempts } from '../../play/runner/select-scenarios.ts'
import { InputError, ResumeRefused, type ExitCode } from '../../base/shared/errors.ts'
import { createMask } from '../../base/shared/secrets.ts'
import type { PipelineContext } from './context.ts'
import { execute } from './execute.ts'
import { finishRun } from './finish-run.ts'
import { openProject, type Project } from './project.ts'
import { restoreScenarios } from './restore-scenarios.ts'
import { runWorldOf, withWorld } from './run-world.ts'
import { adaptiveRounds, loadAdaptiveBaseline } from './adaptive-rounds.ts'
import { attemptCeiling, plannedAttempts } from '../../records/journal/adaptive-record.ts'

export interface ResumeRequest {
  /** The run: its id, its 4-hex part or its folder. */
  run: string
  /** A new budget for the whole run, when the old one stopped it. */
  budgetUsd?: number | undefined
  /** Each attempt's dialogue on stdout as it is played (resume --verbose). */
  verbose?: boolean | undefined
  config?: string | undefined
  results?: string | undefined
}

/**
 * Plays exactly the attempts a run is missing, with the run's own settings and scenario copies. It
 * refuses when what would answer differs from what answered before: another agent configuration or
 * module, other model settings, another model; and when another process holds the run. A run with
 * nothing missing that was never marked finished (killed at its very end) is finished.
 */
export async function resumeRun(ctx: PipelineContext, request: ResumeRequest): Promise<ExitCode> {
  const project = await openProject(ctx, request)
  const location = await findRun(project.resultsDir, request.run)
  // The lock comes before reading what is recorded: another writer may be adding attempts until then.
  const journal = await RunJournal.open(location.dir, ctx.writer(`convy-ci resume ${request.run}`), location.id)
  try {
    return await resumeLocked(ctx, journal, project, request)
  } finally {
    await journal.release()
  }
}

async function resumeLocked(ctx: PipelineContext, journal: RunJournal, project: Project, { budgetUsd, verbose }: ResumeRequest): Promise<ExitCode> {
  // run.json keeps its masked copies; the attempts left are played from what the scenario files say.
  const manifest = { ...journal.current, scenarios: await restoreScenarios(project, journal.current.scenarios, ctx.stderr) }
  if (manifest.replayOf) throw new ResumeRefused(`run ${manifest.id} is a replay of ${manifest.replayOf}; replay that run again instead`)

  const done = new Set<string>()
  let spentUsd = 0
  // The user_error attempts and the replays, to find the replays a run that reviews still owes.
  const replaying: Attempt[] = []
  const recorded: Attempt[] = []
  for await (const attempt of readAttempts(journal.dir)) {
    done.add(key(attempt.scenario, attempt.attempt))
    if (manifest.settings.adaptive) recorded.push(attempt)
    spentUsd += harnessCostUsd(attempt) ?? 0
    if (attempt.verdict === 'user_error' || attempt.replayOf !== undefined) replaying.push(attempt)
  }
  const owed = manifest.settings.review ? missingReplays(replaying, new Map(manifest.scenarios.map((s) => [s.id, s])), attemptCeiling(manifest.settings)) : []
  // An adaptive run continues the same rounds: what its current rounds lack, then the rounds that
  // ended before it stopped but were not yet decided.
  const rounds = manifest.settings.adaptive ? adaptiveRounds(journal, await resumedBaseline(project.resultsDir, manifest.settings.adaptive.baseline, manifest.id), manifest.scenarios) : undefined
  const lacking = rounds ? [...rounds.start(recorded), ...(await rounds.settleComplete())] : null
  const fixed = rounds ? null : planAttempts(manifest.scenarios, (id) => plannedAttempts(manifest, id), manifest.settings.shard)
  const todo = [...(lacking ?? fixed!.filter((p) => !done.has(key(p.scenario.id, p.attempt)))), ...owed]
  // An adaptive run's plan so far: what is recorded of its rounds and what they still lack.
  const planned = { length: fixed ? fixed.length : recorded.filter((a) => a.attempt <= attemptCeiling(manifest.settings)).length + lacking!.length }
  if (todo.length === 0) {
    if (manifest.state === 'finished') throw new ResumeRefused(`run ${manifest.id} has all ${planned.length} attempts recorded; nothing to resume`)
    // Stopped after its last attempt, before it was marked finished: nothing to play, only the end to write.
    ctx.stderr.write(`finishing ${manifest.id}: all ${planned.length} attempts are recorded; it was ${manifest.state}\n`)
    return (await finishRun(ctx, { journal, resultsDir: project.resultsDir, agentName: manifest.agent.name, total: planned.length, interrupted: false, stoppedForBudget: false })).exitCode
  }

  const prepared = await prepareAgent(project.config, manifest.agent.name, project.env, { canStripTypes: ctx.canStripTypes })
  const models = prepareModels(project.config, project.env, manifest.scenarios, manifest.settings.smoke, { cache: manifest.settings.cache ?? 'off', review: manifest.settings.review ?? false })
  // The attempts it plays are set up again, with the world as it is read now (its ${VAR}s, its modules).
  const world = await runWorldOf(project, prepared, manifest.scenarios, ctx.canStripTypes)
  const agent = withWorld(prepared, world)
  refuseIfChanged(manifest, agent, models)
  await checkModels(models, manifest.settings.cache ?? 'off')

  ctx.stderr.write(`resuming ${manifest.id}: ${todo.length} of ${planned.length} attempts to play\n`)
  await journal.setState('running')
  if (budgetUsd !== undefined) await journal.updateSettings({ budgetUsd })
  const watch = verbose ? ctx.printers.dialogue(ctx.stdout, { parallel: manifest.settings.parallel, k: manifest.settings.k }) : undefined
  // The dialogue takes the terminal: the live progress line would write over it.
  return (await execute(watch ? { ...ctx, interactive: false } : ctx, {
    journal,
    todo,
    total: planned.length,
    agent,
    models,
    resultsDir: project.resultsDir,
    mask: createMask([...agent.secrets, ...models.resolved.secrets, ...world.secrets], project.config.redact),
    spentBeforeUsd: spentUsd,
    watch,
    world,
    rounds,
  })).exitCode
}

/** The baseline an adaptive run compares with; gone, the run cannot go on deciding its rounds. */
async function resumedBaseline(resultsDir: string, baseline: string, run: string) {
  try {
    return await loadAdaptiveBaseline(resultsDir, baseline)
  } catch (error) {
    if (error instanceof InputError) throw new ResumeRefused(`cannot resume ${run}: it plays adaptive rounds against run ${baseline}, which is not in ${resultsDir} any more (${error.message})`)
    throw error
  }
}

function refuseIfChanged(manifest: RunManifest, agent: PreparedAgent, models: PreparedModels): void {
  const changes: string[] = []
  if (agent.fingerprint !== manifest.agent.fingerprint) changes.push(`the configuration${agent.kind === 'module' ? ' or module' : ''} of agent "${agent.name}" changed`)
  if (models.resolved.fingerprint !== manifest.models.fingerprint) changes.push('the models section of convy.yml changed')
  if ((models.user?.model ?? null) !== manifest.models.user && manifest.models.user !== null) changes.push(`the simulated user's model is now ${models.user?.model ?? 'unset'} (was ${manifest.models.user})`)
  if ((models.judge?.model ?? null) !== manifest.models.judge && manifest.models.judge !== null) changes.push(`the judge's model is now ${models.judge?.model ?? 'unset'} (was ${manifest.models.judge})`)
  if (changes.length) {
    throw new ResumeRefused(`cannot resume ${manifest.id}: ${changes.join('; ')} since it started. Its attempts would not be comparable; start a new run instead.`)
  }
}

function key(scenario: string, attempt: number): string {
  return `${scenario}\u0000${attempt}`
}
