import { promptRecord } from '../../play/judge/prompt-record.ts'
import { findRun, readAttempts, readManifest } from '../../records/journal/read-run.ts'
import { RUN_FORMAT, type RunManifest } from '../../records/journal/records.ts'
import { RunJournal } from '../../records/journal/run-journal.ts'
import { newRunId } from '../../records/journal/run-folder.ts'
import { agentRecord, checkModels, prepareAgent, prepareModels } from '../../play/runner/prepare.ts'
import type { PlannedAttempt } from '../../play/runner/select-scenarios.ts'
import { InputError, type ExitCode } from '../../base/shared/errors.ts'
import { createMask } from '../../base/shared/secrets.ts'
import { CONVY_VERSION } from '../../base/shared/version.ts'
import { ciInfo } from '../../adapters/github/ci-info.ts'
import type { PipelineContext } from './context.ts'
import { execute } from './execute.ts'
import { runWorldOf } from './run-world.ts'
import { endpointIdentity } from '../../base/shared/url-secrets.ts'
import { openProject } from './project.ts'
import { restoreScenarios } from './restore-scenarios.ts'

export interface ReplayRequest {
  /** The recorded run: its id, its 4-hex part or its folder. */
  run: string
  /** Ask the judge (true), or decide the checks alone, for free (false). */
  judging: boolean
  /** Default: the recorded run's. */
  parallel?: number | undefined
  turnTimeoutSeconds?: number | undefined
  /** Each attempt's dialogue on stdout as it is played again (replay --verbose). */
  verbose?: boolean | undefined
  config?: string | undefined
  results?: string | undefined
}

/**
 * Plays a recorded run again against the agent as it is now, sending every attempt's user lines as
 * they were recorded: no simulated user is called. With --judge (the default) only the judge is
 * asked; --no-judge decides the checks alone, for free. The result is a new run, comparable with the
 * old one: how a CI failure is reproduced exactly, or a new build measured on yesterday's dialogues.
 */
export async function replayRun(ctx: PipelineContext, request: ReplayRequest): Promise<ExitCode> {
  const judging = request.judging
  const project = await openProject(ctx, request)
  const recorded = await findRun(project.resultsDir, request.run)
  const recordedManifest = await readManifest(recorded.dir)
  // Played from what the scenario files say where run.json's copies were masked; its copies are what the replay records.
  const original = { ...recordedManifest, scenarios: await restoreScenarios(project, recordedManifest.scenarios, ctx.stderr) }

  const scenarios = new Map(original.scenarios.map((s) => [s.id, s]))
  const todo: PlannedAttempt[] = []
  for await (const attempt of readAttempts(recorded.dir)) {
    const scenario = scenarios.get(attempt.scenario)
    if (!scenario) continue
    todo.push({ scenario, attempt: attempt.attempt, userLines: attempt.turns.filter((t) => t.role === 'user').map((t) => t.text) })
  }
  if (todo.length === 0) throw new InputError(`run ${original.id} has no recorded attempts to replay`)
  todo.sort((a, b) => (a.scenario.id === b.scenario.id ? a.attempt - b.attempt : a.scenario.id < b.scenario.id ? -1 : 1))

  const agent = await prepareAgent(project.config, original.agent.name, project.env, { canStripTypes: ctx.canStripTypes })
  // The replay asks no simulated user; it asks the judge only where claims are to be decided.
  const played = todo.map((p) => ({ ...p.scenario, user: undefined, script: p.userLines as string[] }))
  const models = prepareModels(project.config, project.env, judging ? played : [], false)
  await checkModels(models)
  // Each replayed attempt is set up and torn down again, as its original was.
  const world = await runWorldOf(project, agent, original.scenarios, ctx.canStripTypes)

  const startedAt = ctx.now()
  const manifest: RunManifest = {
    format: RUN_FORMAT,
    id: newRunId(agent.name, startedAt),
    agent: agentRecord(agent),
    convyVersion: CONVY_VERSION,
    models: { user: null, judge: models.judge?.model ?? null, judgeEndpoint: models.judge ? endpointIdentity(models.resolved.baseURL) : null, fingerprint: models.resolved.fingerprint, prices: models.resolved.config.prices },
    prompts: promptRecord({ judge: models.judge !== null, user: false }),
    settings: {
      ...original.settings,
      parallel: request.parallel ?? original.settings.parallel,
      turnTimeoutSeconds: request.turnTimeoutSeconds ?? original.settings.turnTimeoutSeconds,
      shard: null,
      smoke: false,
      // Recorded lines answer nothing the agent says now: there is no simulated user to review.
      review: false,
    },
    scenarios: recordedManifest.scenarios,
    startedAt: startedAt.toISOString(),
    finishedAt: null,
    state: 'running',
    ci: ciInfo(ctx.env),
    replayOf: original.id,
  }
  ctx.stderr.write(`replaying ${original.id}: ${todo.length} attempts with their recorded user lines${judging ? '' : ', checks only'}\n`)
  const journal = await RunJournal.create(project.resultsDir, manifest, ctx.writer(`convy-ci replay ${original.id}`))
  try {
    const watch = request.verbose ? ctx.printers.dialogue(ctx.stdout, { parallel: manifest.settings.parallel, k: manifest.settings.k }) : undefined
    // The dialogue takes the terminal: the live progress line would write over it.
    return (await execute(watch ? { ...ctx, interactive: false } : ctx, {
      journal,
      todo,
      total: todo.length,
      agent,
      models,
      resultsDir: project.resultsDir,
      mask: createMask([...agent.secrets, ...models.resolved.secrets, ...world.secrets], project.config.redact),
      judging,
      watch,
      world,
    })).exitCode
  } finally {
    await journal.release()
  }
}
