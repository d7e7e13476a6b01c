import { compareRuns } from '../../verdict/compare-runs.ts'
import type { Comparison } from '../../verdict/comparison.ts'
import { afterRejudging } from '../../verdict/rejudged.ts'
import type { FoundBaseline } from '../../verdict/baseline-health.ts'
import type { Reconsidered } from '../publish/publish-run.ts'
import { plural } from '../../base/shared/text.ts'
import { addAttempt, finishTally, startTally, type RunTally } from '../../records/tally/run-tally.ts'
import type { BaseJudge } from '../publish/gate-rules.ts'
import { judgedTally, settleWithBaseJudge } from './settle-judge.ts'
import type { PipelineContext } from './context.ts'
import { prepareJudgeAlike } from './rejudge-baseline.ts'
import { judgeDifferences } from '../../verdict/judge-change.ts'
import { sampledJudge } from '../../play/judge/sampled-judge.ts'
import { readAttempts, readManifest } from '../../records/journal/read-run.ts'
import type { Attempt } from '../../records/journal/records.ts'
import { checkModels, prepareModels } from '../../play/runner/prepare.ts'
import { createMask } from '../../base/shared/secrets.ts'
import { openProject } from './project.ts'
import { judgeAgain } from './rejudge.ts'

export interface Evidence {
  /** The PR's run, counted. */
  after: RunTally
  /** Its run folder here, when it has one: what `rejudge` judges again. */
  afterDir: string | null
  /** The action's `rejudge: m`: the deciding scenarios judged m times again, on both sides; null: not asked. */
  rejudge: number | null
  config?: string | undefined
  /** Only the project's own judge settings are paid for (the action, `convy-ci publish`): see rejudge-baseline.ts. */
  projectSettingsOnly?: boolean
  /**
   * The base branch's judge (its rules, read at the base commit or from --base-config): the gate
   * judges with it (settle-judge.ts). Absent: no base is known, and a judge change is settled the old
   * way, the baseline judged again with the PR's judge.
   */
  baseJudge?: { judge: BaseJudge; base: string } | null
  log: (message: string) => void
}

/**
 * The evidence gathered before the gate decides, for the action and `convy-ci publish` alike
 * (publish-run.ts's `reconsider`): a judge change made by the PR is settled by judging the baseline's
 * dialogues again with the PR's judge; then, with `rejudge: m`, the scenarios that decide the verdict
 * are judged m times again on both sides with the same judge, so both are decided alike. Each step
 * leaves a note for the comment's first lines.
 */
export async function gatherEvidence(ctx: PipelineContext, evidence: Evidence, baseline: FoundBaseline, first: Comparison): Promise<Reconsidered> {
  const notes: string[] = []
  const unmet: string[] = []
  let { after } = evidence
  let before = baseline.tally
  let comparison = first
  let judgedByBase = false
  const differs = judgeDifferences(before.manifest, after.manifest)
  if (evidence.baseJudge) {
    const { judge, base } = evidence.baseJudge
    const settled = await settleWithBaseJudge(ctx, { baseJudge: judge, base, before: { tally: before, dir: baseline.dir ?? null }, after: { tally: after, dir: evidence.afterDir }, config: evidence.config, projectSettingsOnly: evidence.projectSettingsOnly })
    for (const line of [...settled.notes, ...settled.unmet]) evidence.log(line)
    notes.push(...settled.notes)
    unmet.push(...settled.unmet)
    if (settled.changed) {
      ;({ before, after } = settled)
      comparison = compareRuns(before, after, { now: ctx.now() })
      judgedByBase = true
    }
  } else if (differs.length > 0) {
    const settled = baseline.dir ? await settleJudgeChange(ctx, baseline.dir, evidence) : { tally: null, why: 'the baseline has no recorded dialogues here' }
    if (settled.tally) {
      before = settled.tally
      comparison = compareRuns(before, after, { now: ctx.now() })
      notes.push(`The judge changed in this pull request (${differs.join(', ')}): the baseline's ${settled.note}, so both runs are compared like with like.`)
    } else {
      notes.push(`The judge changed in this pull request (${differs.join(', ')}) and could not be settled: ${settled.why}.`)
    }
    evidence.log(notes.at(-1)!)
  }
  const deciding = [...comparison.scenarios.worse, ...comparison.scenarios.better].map((s) => s.id)
  // After a judge change settled with the base's judge, `rejudge: m` would ask the PR's own judge
  // (convy.yml here) about one side only: the comparison stands as the base's judge made it, said.
  if (evidence.rejudge !== null && judgedByBase && deciding.length > 0) notes.push(`rejudge: ${evidence.rejudge} was not applied: the comparison is the base branch's judge's, and rejudge asks this pull request's judge.`)
  else if (evidence.rejudge !== null && evidence.afterDir && deciding.length > 0) {
    const samples = evidence.rejudge
    evidence.log(`judging the attempts of ${plural(deciding.length, 'scenario')} that decide the verdict ${samples} times again on both sides (rejudge: ${samples})`)
    const request = { scenarioIds: deciding, samples, config: evidence.config }
    const afterAgain = await rejudgeFlagged(ctx, { ...request, dir: evidence.afterDir })
    // The baseline's side too, with the same judge and m: one side judged more often than the other is not alike.
    const beforeAgain = baseline.dir ? { ...(await rejudgeFlagged(ctx, { ...request, dir: baseline.dir })), manifest: before.manifest } : before
    comparison = afterRejudging(comparison, compareRuns(beforeAgain, afterAgain, { now: ctx.now() }), { bothSides: baseline.dir !== null })
    notes.push(`The attempts of ${plural(deciding.length, 'scenario')} that decided the first comparison were judged ${samples} times again on ${baseline.dir ? 'both sides' : "this run's side only (the baseline's dialogues are not here)"}.`)
  }
  return { comparison, notes, unmet, ...(judgedByBase ? { judgedAs: after.manifest } : {}) }
}

/** The baseline judged again with the PR's judge, counted in memory; or why it could not be. */
async function settleJudgeChange(ctx: PipelineContext, baselineDir: string, evidence: Evidence): Promise<{ tally: RunTally; note: string } | { tally: null; why: string }> {
  const judged = await prepareJudgeAlike(ctx, { baselineDir, after: evidence.after.manifest, config: evidence.config, projectSettingsOnly: evidence.projectSettingsOnly })
  if (!judged.manifest) return { tally: null, why: judged.why }
  const tally = await judgedTally(judged)
  const samples = judged.manifest.settings.judgeSamples ?? 1
  const note = `${plural(judged.rejudged, 'recorded dialogue')} were judged again with this run's judge (${judged.manifest.models.judge}, ${plural(samples, 'sample')} each${judged.manifest.settings.review ? ', reviewed as this run reviews' : ''})`
  return { tally, note }
}

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
