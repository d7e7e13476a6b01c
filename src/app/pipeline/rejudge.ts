import { canRejudge, rejudgeAttempt, type Rejudging } from '../../play/judge/rejudge-attempt.ts'
import type { Scenario } from '../../records/scenario/scenario.ts'
import { promptRecord } from '../../play/judge/prompt-record.ts'
import { sampledJudge } from '../../play/judge/sampled-judge.ts'
import { findRun, readAttempts, readManifest } from '../../records/journal/read-run.ts'
import type { Attempt, RunManifest } from '../../records/journal/records.ts'
import { RunJournal } from '../../records/journal/run-journal.ts'
import { newRunId } from '../../records/journal/run-folder.ts'
import { checkModels, prepareModels } from '../../play/runner/prepare.ts'
import { selectScenarios } from '../../play/runner/select-scenarios.ts'
import { InputError } from '../../base/shared/errors.ts'
import { createMask } from '../../base/shared/secrets.ts'
import { CONVY_VERSION } from '../../base/shared/version.ts'
import { ciInfo } from '../../adapters/github/ci-info.ts'
import type { PipelineContext } from './context.ts'
import { finishRun, type Executed } from './finish-run.ts'
import { openProject } from './project.ts'
import { endpointIdentity } from '../../base/shared/url-secrets.ts'

/** Judgements per attempt when `rejudge` is not told: the smallest odd number with a majority that can outvote one flip. */
export const REJUDGE_SAMPLES = 3

export interface RejudgeRequest {
  /** The recorded run: its id, its 4-hex part or its folder. */
  run: string
  samples: number
  /** Only these scenarios (globs); default all. */
  scenarioGlobs?: readonly string[]
  /** Default: the recorded run's. */
  parallel?: number | undefined
  config?: string | undefined
  results?: string | undefined
}

/**
 * Asks the judge again, `samples` times each, about every recorded dialogue of a run: no agent and no
 * simulated user is called. The result is a new run (`rejudgeOf`) whose claims carry their votes, so
 * its report shows how often the judge disagreed with itself, and a comparison with the original
 * shows which verdicts the judge alone moved. Attempts the judge did not decide (agent errors, fatal
 * checks, cut-off dialogues) are kept as recorded.
 */
export async function rejudgeRun(ctx: PipelineContext, request: RejudgeRequest): Promise<Executed> {
  const project = await openProject(ctx, request)
  const recorded = await findRun(project.resultsDir, request.run)
  const original = await readManifest(recorded.dir)
  const scenarios = selectScenarios(original.scenarios, { globs: request.scenarioGlobs ?? [], tags: [] })
  const byId = new Map(scenarios.map((s) => [s.id, s]))
  const attempts: Attempt[] = []
  for await (const attempt of readAttempts(recorded.dir)) if (byId.has(attempt.scenario)) attempts.push(attempt)
  if (attempts.length === 0) throw new InputError(`run ${original.id} has no recorded attempts to judge again`)
  attempts.sort((a, b) => (a.scenario === b.scenario ? a.attempt - b.attempt : a.scenario < b.scenario ? -1 : 1))

  // The judge only: the dialogues are recorded, so no simulated user is prepared or checked.
  const models = prepareModels(project.config, project.env, scenarios.map((s) => ({ ...s, user: undefined, script: [] })), false)
  if (!models.judge) throw new InputError(`run ${original.id}: none of its scenarios has claims for the judge (judge:), so there is nothing to judge again`)
  await checkModels(models)

  const manifest = rejudgeManifest(ctx, original, scenarios, { judge: models.judge.model, judgeEndpoint: endpointIdentity(models.resolved.baseURL), fingerprint: models.resolved.fingerprint, prices: models.resolved.config.prices }, request)
  const judged = attempts.filter((a) => canRejudge(a, byId.get(a.scenario)!)).length
  ctx.stderr.write(`judging ${original.id} again: ${judged} of ${attempts.length} attempts, ${request.samples} time${request.samples === 1 ? '' : 's'} each\n`)
  const journal = await RunJournal.create(project.resultsDir, manifest, ctx.writer(`convy-ci rejudge ${original.id}`))
  try {
    const rejudging = { judge: sampledJudge(models.judge, request.samples), mask: createMask(models.resolved.secrets, project.config.redact), signal: ctx.signal, prices: manifest.models.prices, now: ctx.now }
    try {
      await judgeAgain(attempts, byId, rejudging, manifest.settings.parallel, (again) => journal.append(again))
    } catch (error) {
      if (!ctx.signal.aborted) throw error
    } finally {
      await journal.close()
    }
    return await finishRun(ctx, { journal, resultsDir: project.resultsDir, agentName: original.agent.name, total: attempts.length, interrupted: ctx.signal.aborted, stoppedForBudget: false })
  } finally {
    await journal.release()
  }
}

/**
 * Each attempt judged again where its dialogue allows (canRejudge), `parallel` at a time, handed on
 * as it ends; the others are handed on as recorded. Stops taking new ones once interrupted.
 */
export async function judgeAgain(attempts: readonly Attempt[], scenarios: ReadonlyMap<string, Scenario>, rejudging: Rejudging, parallel: number, done: (attempt: Attempt) => Promise<void> | void, options: { reviewAgain?: boolean } = {}): Promise<void> {
  let next = 0
  const worker = async () => {
    while (next < attempts.length && !rejudging.signal.aborted) {
      const attempt = attempts[next++]!
      const scenario = scenarios.get(attempt.scenario)!
      const again = canRejudge(attempt, scenario, options) ? await rejudgeAttempt(attempt, scenario, rejudging) : attempt
      if (!rejudging.signal.aborted) await done(again)
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, Math.min(parallel, attempts.length)) }, worker))
}

function rejudgeManifest(ctx: PipelineContext, original: RunManifest, scenarios: RunManifest['scenarios'], judge: { judge: string; judgeEndpoint: string; fingerprint: string; prices: RunManifest['models']['prices'] }, request: RejudgeRequest): RunManifest {
  const startedAt = ctx.now()
  return {
    format: original.format,
    id: newRunId(original.agent.name, startedAt),
    agent: original.agent,
    convyVersion: CONVY_VERSION,
    models: { user: original.models.user, ...judge },
    // The dialogues are the original's: so is what its simulated user was told.
    prompts: { ...promptRecord({ judge: true, user: false, judgeSamples: request.samples }), user: original.prompts?.user ?? null },
    settings: { ...original.settings, parallel: request.parallel ?? original.settings.parallel, shard: null, judgeSamples: request.samples },
    scenarios,
    startedAt: startedAt.toISOString(),
    finishedAt: null,
    state: 'running',
    ci: ciInfo(ctx.env),
    ...(original.replayOf ? { replayOf: original.replayOf } : {}),
    rejudgeOf: original.id,
  }
}
