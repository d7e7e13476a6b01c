import { canRejudge } from '../../play/judge/rejudge-attempt.ts'
import { JUDGE_TEMPERATURE, judgePromptFingerprint } from '../../play/judge/judge-prompt.ts'
import { sampledJudge } from '../../play/judge/sampled-judge.ts'
import { checkModels, prepareModels } from '../../play/runner/prepare.ts'
import type { JudgeIdentity } from '../../records/calibration/calibration.ts'
import type { Attempt } from '../../records/journal/records.ts'
import { InputError } from '../../base/shared/errors.ts'
import { createMask } from '../../base/shared/secrets.ts'
import type { PipelineContext } from './context.ts'
import type { JudgeAnswer } from './judge-check.ts'
import { attemptKey, type LabelledDecision } from './labelled-attempts.ts'
import { openProject } from './project.ts'
import { judgeAgain } from './rejudge.ts'

/** Attempts asked at once: a labels file is a few hundred decisions over some dozens of attempts. */
const PARALLEL = 4

/**
 * judge-check --judge MODEL: that judge, through convy.yml's gateway, asked `samples` times about each
 * labelled attempt's recorded dialogue (the code `rejudge` uses: one call per attempt and sample,
 * every claim at once). Nothing is written but calibration.json: the answers stay in memory.
 */
export async function askJudgeAgain(
  ctx: PipelineContext,
  model: string,
  samples: number,
  decisions: readonly LabelledDecision[],
  where: { config?: string | undefined; results?: string | undefined },
): Promise<{ judge: JudgeIdentity; answers: JudgeAnswer[] }> {
  const project = await openProject(ctx, where)
  const config = { ...project.config, models: { ...project.config.models, judge: model } }
  const attempts = new Map<string, { attempt: Attempt; decision: LabelledDecision }>()
  for (const decision of decisions) attempts.set(`${decision.run.manifest.id}\n${attemptKey(decision.label.scenario, decision.label.attempt)}`, { attempt: decision.attempt, decision })
  const scenarios = [...new Map(decisions.map((d) => [d.scenario.id, d.scenario])).values()]
  const models = prepareModels(config, project.env, scenarios.map((s) => ({ ...s, user: undefined, script: [] })), false)
  if (!models.judge) throw new InputError('the labelled scenarios have no claims for the judge')
  await checkModels(models)

  const rejudging = { judge: sampledJudge(models.judge, samples), mask: createMask(models.resolved.secrets), signal: ctx.signal, prices: models.resolved.config.prices, now: ctx.now }
  const keys = [...attempts.keys()]
  // Each run's own scenario by attempt: the same id may have been edited between two labelled runs.
  const byScenario = new Map(keys.map((key) => [key, attempts.get(key)!.decision.scenario]))
  const answered = new Map<string, Attempt>()
  // judgeAgain finds each attempt's scenario by the attempt's `scenario`: here, the run and attempt
  // it came from, so attempts of two runs with one scenario id stay apart.
  const tagged = keys.map((key) => ({ ...attempts.get(key)!.attempt, scenario: key }))
  ctx.stderr.write(`asking judge "${model}" about ${tagged.length} labelled attempt${tagged.length === 1 ? '' : 's'}, ${samples} time${samples === 1 ? '' : 's'} each\n`)
  await judgeAgain(tagged, byScenario, rejudging, PARALLEL, (again) => void answered.set(again.scenario, again))
  if (ctx.signal.aborted) throw ctx.signal.reason

  const answers = decisions.map(({ label, run, scenario }): JudgeAnswer => {
    const key = `${run.manifest.id}\n${attemptKey(label.scenario, label.attempt)}`
    const original = attempts.get(key)!.attempt
    if (!canRejudge(original, scenario)) return { why: `attempt ${label.attempt} of ${label.scenario} has no whole dialogue to judge (${original.verdict})` }
    const again = answered.get(key)
    const claim = again?.claims[label.claim - 1]
    if (!claim) return { why: `judge "${model}" gave no verdict on attempt ${label.attempt} of ${label.scenario}${again?.error ? `: ${again.error}` : ''}` }
    return { holds: claim.pass, reason: claim.reason }
  })
  return { judge: { model, prompt: judgePromptFingerprint(), temperature: JUDGE_TEMPERATURE, samples }, answers }
}
