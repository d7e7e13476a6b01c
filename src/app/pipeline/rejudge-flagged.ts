import { sampledJudge } from '../../play/judge/sampled-judge.ts'
import { readAttempts, readManifest } from '../../records/journal/read-run.ts'
import type { Attempt } from '../../records/journal/records.ts'
import { checkModels, prepareModels } from '../../play/runner/prepare.ts'
import { createMask } from '../../base/shared/secrets.ts'
import { addAttempt, finishTally, startTally, type RunTally } from '../../records/tally/run-tally.ts'
import type { PipelineContext } from './context.ts'
import { openProject } from './project.ts'
import { judgeAgain } from './rejudge.ts'

export interface RejudgeFlagged {
  /** The run folder just played. */
  dir: string
  /** The scenarios that decide the verdict (Worse or Better): only their attempts are judged again. */
  scenarioIds: readonly string[]
  samples: number
  config?: string | undefined
}

/**
 * The action's `rejudge`: the attempts of the scenarios that decide a comparison, judged `samples`
 * times again on their recorded dialogues, counted into a new tally of the run (the other attempts as
 * recorded). Only what decides the verdict is paid for twice; the comparison made from this tally
 * labels a scenario whose change comes from the judge disagreeing with itself judge-unstable. The
 * run folder is left as it was: it holds the first judgements, as uploaded.
 */
export async function rejudgeFlagged(ctx: PipelineContext, request: RejudgeFlagged): Promise<RunTally> {
  const manifest = await readManifest(request.dir)
  const chosen = new Set(request.scenarioIds)
  const scenarios = new Map(manifest.scenarios.filter((s) => chosen.has(s.id)).map((s) => [s.id, s]))
  const tally = startTally(manifest)
  const again: Attempt[] = []
  for await (const attempt of readAttempts(request.dir)) {
    if (scenarios.has(attempt.scenario)) again.push(attempt)
    else addAttempt(tally, attempt)
  }
  const project = await openProject(ctx, request)
  const models = prepareModels(project.config, project.env, [...scenarios.values()].map((s) => ({ ...s, user: undefined, script: [] })), false, { cache: manifest.settings.cache ?? 'off' })
  if (models.judge && again.length > 0) {
    await checkModels(models, manifest.settings.cache ?? 'off')
    const rejudging = { judge: sampledJudge(models.judge, request.samples), mask: createMask(models.resolved.secrets, project.config.redact), signal: ctx.signal, prices: manifest.models.prices, now: ctx.now }
    await judgeAgain(again, scenarios, rejudging, manifest.settings.parallel, (attempt) => void addAttempt(tally, attempt))
  } else {
    for (const attempt of again) addAttempt(tally, attempt)
  }
  ctx.signal.throwIfAborted()
  return finishTally(tally)
}
