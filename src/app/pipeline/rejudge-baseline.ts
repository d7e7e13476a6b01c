import { canRejudge, dialogueOf } from '../../play/judge/rejudge-attempt.ts'
import { judgePromptFingerprint } from '../../play/judge/judge-prompt.ts'
import { sampledJudge } from '../../play/judge/sampled-judge.ts'
import { userReviewPromptFingerprint } from '../../play/review/user-review-prompt.ts'
import { reviewRecorded } from '../../play/conversation/review-failure.ts'
import { checkModels, prepareModels, type PreparedModels } from '../../play/runner/prepare.ts'
import { ModelMeter } from '../../adapters/model-client/model-meter.ts'
import { readAttempts, readManifest } from '../../records/journal/read-run.ts'
import type { Attempt, RunManifest } from '../../records/journal/records.ts'
import { scenarioFingerprint, type Scenario } from '../../records/scenario/scenario.ts'
import { judgeDifferences } from '../../verdict/judge-change.ts'
import { errorMessage } from '../../base/shared/errors.ts'
import { createMask, type Redaction } from '../../base/shared/secrets.ts'
import type { PipelineContext } from './context.ts'
import { openProject, type Project } from './project.ts'
import type { BaseJudge } from '../publish/gate-rules.ts'
import { endpointIdentity } from '../../base/shared/url-secrets.ts'
import { judgeAgain } from './rejudge.ts'

/**
 * A judge change made by the pull request, settled rather than excused: the baseline's recorded
 * dialogues judged again with the PR's judge (its model, prompt, samples and review), so both runs
 * are decided alike. Only when that cannot be done is the change left to the gate.
 */

/** The most judge samples per attempt a baseline is judged again with: `run --judge-samples`'s own bound. */
export const MAX_JUDGE_SAMPLES = 15

/**
 * Why the baseline cannot be judged again like the PR's run, or null when it can: the dialogues
 * themselves differ (the simulated user's prompt changed), or this convy-ci does not tell the judge
 * (or the reviewer) what the PR's run told it.
 */
export function cannotJudgeAlike(before: RunManifest, after: RunManifest): string | null {
  if (judgeDifferences(before, after).includes('simulated user prompt')) return "the simulated user's prompt changed, so the dialogues themselves differ; judging them again cannot make them alike"
  if (after.models.judge === null) return 'the pull request’s run used no judge'
  // As `run --judge-samples` allows: a run.json from a fork must not make the baseline cost more.
  if ((after.settings.judgeSamples ?? 1) > MAX_JUDGE_SAMPLES) return `the pull request's run asked ${after.settings.judgeSamples} judge samples per attempt, more than the ${MAX_JUDGE_SAMPLES} convy-ci allows`
  if (after.prompts && after.prompts.judge !== null && after.prompts.judge !== judgePromptFingerprint()) return `this convy-ci (${after.convyVersion === before.convyVersion ? 'another build' : 'not the one that made the PR’s run'}) words the judge's prompt differently from the PR's run`
  const review = after.prompts?.review
  if (after.settings.review && review && review !== userReviewPromptFingerprint()) return "this convy-ci words the review's prompt differently from the PR's run"
  return null
}

/** run.json of the baseline as judged by the PR's judge: what was played is the baseline's, how it was judged the PR's. */
export function judgedLike(before: RunManifest, after: RunManifest): RunManifest {
  const samples = after.settings.judgeSamples ?? 1
  return {
    ...before,
    models: { ...before.models, judge: after.models.judge, judgeEndpoint: after.models.judgeEndpoint ?? null },
    prompts: {
      judge: after.prompts?.judge ?? judgePromptFingerprint(),
      user: before.prompts?.user ?? null,
      judgeTemperature: after.prompts?.judgeTemperature ?? null,
      judgeSamples: samples,
      review: after.settings.review ? (after.prompts?.review ?? null) : null,
    },
    settings: { ...before.settings, judgeSamples: samples, review: after.settings.review ?? false },
    rejudgeOf: before.id,
  }
}

export interface JudgeAlikeRequest {
  /** The baseline's run folder, with its recorded dialogues. */
  baselineDir: string
  /** The PR's run.json: the judge to judge with. */
  after: RunManifest
  config?: string | undefined
  /**
   * Judge only with this project's own settings (issue 36): the action and `convy-ci publish`, where
   * the PR's run.json may be a fork's and must not choose what the project's key pays for. A run that
   * asked for other judge samples or another review is then not judged again: it is compared as it is.
   */
  projectSettingsOnly?: boolean
  /**
   * Judge with this judge instead of convy.yml's: the base branch's (settle-judge.ts), its model and
   * address in place of models.judge and models.base_url, its step's variables read first.
   */
  judgeOf?: BaseJudge | null
}

/** The judge samples per attempt of the project's own runs in the action and `publish` (neither has a setting for more). */
export const PROJECT_JUDGE_SAMPLES = 1

export type JudgeAlike = { manifest: RunManifest; attempts: number; rejudged: number; judge(done: (attempt: Attempt) => Promise<void> | void): Promise<void> } | { manifest: null; why: string }

/**
 * Makes ready to judge the baseline's attempts again as the PR's run was judged: `judge` then hands on
 * each attempt (judged again where its dialogue allows, then reviewed as the PR's run reviews) to
 * `done` as it ends. Never throws for the models: no access, a missing model or a prompt this
 * convy-ci cannot give is the reason returned, before anything is judged.
 */
export async function prepareJudgeAlike(ctx: PipelineContext, request: JudgeAlikeRequest): Promise<JudgeAlike> {
  const before = await readManifest(request.baselineDir)
  const why = cannotJudgeAlike(before, request.after)
  if (why) return { manifest: null, why }
  const scenarios = new Map(before.scenarios.map((s) => [s.id, s]))
  let models: PreparedModels
  let redaction: Redaction | undefined
  try {
    const opened = await openProject(ctx, request)
    redaction = opened.config.redact
    const project = request.judgeOf ? withJudge(opened, request.judgeOf) : opened
    const own = request.projectSettingsOnly === true
    // The review as this project sets it (convy.yml's models.review), not as the PR's run.json says.
    models = prepareModels(project.config, project.env, before.scenarios, false, own ? {} : { review: request.after.settings.review ?? false })
    if (!models.judge) return { manifest: null, why: "none of the baseline's scenarios has claims for the judge" }
    if (own) {
      const asked = request.after.settings.judgeSamples ?? 1
      if (asked !== PROJECT_JUDGE_SAMPLES) return { manifest: null, why: `the pull request's run asked for ${asked} judge samples per attempt, and only this project's own settings (${PROJECT_JUDGE_SAMPLES} per attempt) are paid for here: it is compared as it is, not judged again at its choice` }
      const reviews = models.reviewer !== null
      if (reviews !== (request.after.settings.review ?? false)) return { manifest: null, why: `the pull request's run ${request.after.settings.review ? 'reviewed' : 'did not review'} failed attempts for user errors, and this project's convy.yml ${reviews ? 'does' : 'does not'}: it is compared as it is, not judged again at its choice` }
    }
    // The judge is this project's, never a name read from the PR's run: in the action's publish mode that
    // run is a fork's artifact, and its run.json must not choose what the repository's key pays for.
    if (models.judge.model !== request.after.models.judge) return { manifest: null, why: `the pull request's run was judged by "${request.after.models.judge}", but convy.yml here names "${models.judge.model}"` }
    const endpoint = endpointIdentity(models.resolved.baseURL)
    const wanted = request.after.models.judgeEndpoint
    if (wanted && wanted !== endpoint) return { manifest: null, why: `the judge to judge with is asked at ${wanted}, but its address here is ${endpoint}` }
    await checkModels(models)
  } catch (error) {
    ctx.signal.throwIfAborted()
    return { manifest: null, why: `${request.judgeOf ? 'that judge' : "the PR's judge"} cannot be reached from here (${errorMessage(error)})` }
  }
  const mask = createMask(models.resolved.secrets, redaction)
  const manifest = judgedLike(before, request.after)
  const rejudging = { judge: sampledJudge(models.judge, manifest.settings.judgeSamples ?? 1), mask, signal: ctx.signal, prices: { ...before.models.prices, ...models.resolved.config.prices }, now: ctx.now }
  const { reviewer } = models
  const attempts: Attempt[] = []
  for await (const attempt of readAttempts(request.baselineDir)) if (scenarios.has(attempt.scenario)) attempts.push(attempt)
  return {
    manifest,
    attempts: attempts.length,
    rejudged: attempts.filter((a) => canRejudge(a, scenarios.get(a.scenario)!, { reviewAgain: true })).length,
    async judge(done) {
      const reviewed = async (again: Attempt) => done(await reviewAsAfter(again, scenarios.get(again.scenario)!, { reviewer, mask, signal: ctx.signal }))
      await judgeAgain(attempts, scenarios, rejudging, before.settings.parallel, reviewed, { reviewAgain: true })
      ctx.signal.throwIfAborted()
    },
  }
}

/** The project with another commit's judge in place of its own: its model, its address, its step's variables first. */
function withJudge(project: Project, judge: BaseJudge): Project {
  const { base_url: _own, ...models } = project.config.models as Record<string, unknown>
  const config = { ...project.config, models: { ...models, judge: judge.model, ...(judge.baseUrl === null ? {} : { base_url: judge.baseUrl }) } }
  return { ...project, config, env: { ...project.env, ...judge.env } }
}

/** The attempt reviewed as the PR's run reviews: by its reviewer, or not at all (old reviews dropped). */
async function reviewAsAfter(attempt: Attempt, scenario: Scenario, { reviewer, mask, signal }: { reviewer: PreparedModels['reviewer']; mask: (text: string) => string; signal: AbortSignal }): Promise<Attempt> {
  if (attempt.verdict !== 'failed' && attempt.verdict !== 'user_error') return attempt
  const meter = new ModelMeter()
  const context = { signal, record: meter.record, cacheScope: `${scenarioFingerprint(scenario)}#${attempt.attempt}#review` }
  return reviewRecorded(attempt, scenario, dialogueOf(attempt), { reviewer, mask, context })
}
