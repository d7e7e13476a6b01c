import type { RunManifest, Attempt } from '../../records/journal/records.ts'
import { addAttempt, finishTally, startTally, type RunTally } from '../../records/tally/run-tally.ts'
import { passRate, runCounts } from '../../records/tally/run-counts.ts'
import { resolveModels } from '../../records/config/load-config.ts'
import { endpointIdentity } from '../../base/shared/url-secrets.ts'
import { errorMessage } from '../../base/shared/errors.ts'
import { plural } from '../../base/shared/text.ts'
import type { BaseJudge } from '../publish/gate-rules.ts'
import type { PipelineContext } from './context.ts'
import { openProject } from './project.ts'
import { prepareJudgeAlike, type JudgeAlike } from './rejudge-baseline.ts'
import { judgeDifferences } from '../../verdict/judge-change.ts'

/**
 * A judge change settled with the base branch's judge (issue 38, item 2): a pull request that brings
 * its own judge (a lenient model, another endpoint) does not get to judge itself. The pull request's
 * recorded dialogues are judged again with the base's judge, and so is the baseline when the base's
 * own judge moved since the baseline was made; the gate then compares the two as the base judges
 * them. The pull request's judge's verdicts are kept, and said beside as information. Where the base's
 * judge cannot be asked, nothing is settled: evidence is missing, and the gate cannot pass.
 */

export interface SideToSettle {
  tally: RunTally
  /** Its run folder here, with its recorded dialogues; null: none to judge again. */
  dir: string | null
}

export interface SettleRequest {
  baseJudge: BaseJudge
  /** The base branch as the sentences name it: `the base branch (main)`. */
  base: string
  before: SideToSettle
  after: SideToSettle
  config?: string | undefined
  /** Only the project's own judge settings are paid for (the action, `convy-ci publish`): see rejudge-baseline.ts. */
  projectSettingsOnly?: boolean
  /**
   * Where a side judged again is kept: counted in memory (the action, publish), or written into a new
   * run folder whose tally and folder are returned (`compare --base-config`, whose page reads folders).
   */
  keep?: (judged: Judged, side: 'before' | 'after') => Promise<{ tally: RunTally; dir: string | null }>
}

export type Judged = Extract<JudgeAlike, { manifest: RunManifest }>

export interface Settled {
  before: RunTally
  after: RunTally
  /** The run folders of the sides judged again, where `keep` wrote them; null: unchanged, or in memory. */
  dirs: { before: string | null; after: string | null }
  /** Whether either side was judged again: the comparison is to be made anew. */
  changed: boolean
  /** What was done, for the comment's first lines; the pull request's own judge's view among them. */
  notes: string[]
  /** Why the gate cannot pass on this comparison (the base's judge could not be asked); empty when settled. */
  unmet: string[]
}

/** The base's judge as an identity to hold run.json's against: its model, and its endpoint as resolved here. */
export async function baseJudgeIdentity(ctx: PipelineContext, request: Pick<SettleRequest, 'baseJudge' | 'config'>): Promise<{ model: string; endpoint: string } | { why: string }> {
  const { baseJudge } = request
  try {
    const project = await openProject(ctx, request)
    const { base_url: _own, ...models } = project.config.models as Record<string, unknown>
    const config = { ...project.config, models: { ...models, judge: baseJudge.model, ...(baseJudge.baseUrl === null ? {} : { base_url: baseJudge.baseUrl }) } }
    const resolved = resolveModels(config, { ...project.env, ...baseJudge.env }, { user: false, judge: true })
    return { model: baseJudge.model, endpoint: endpointIdentity(resolved.baseURL) }
  } catch (error) {
    ctx.signal.throwIfAborted()
    return { why: errorMessage(error) }
  }
}

/** Whether run.json says it was judged by this judge (a run that predates the endpoint's record: by the model alone). */
export function judgedBy(manifest: RunManifest, judge: { model: string; endpoint: string }): boolean {
  const endpoint = manifest.models.judgeEndpoint
  return manifest.models.judge === judge.model && (!endpoint || endpoint === judge.endpoint)
}

export async function settleWithBaseJudge(ctx: PipelineContext, request: SettleRequest): Promise<Settled> {
  const { base } = request
  const unchanged: Settled = { before: request.before.tally, after: request.after.tally, dirs: { before: null, after: null }, changed: false, notes: [], unmet: [] }
  const keep = request.keep ?? (async (judged: Judged) => ({ tally: await judgedTally(judged), dir: null }))
  const dirs: Settled['dirs'] = { before: null, after: null }
  const afterManifest = request.after.tally.manifest
  // A run that asked no judge (every scenario decided by checks alone) has nothing to judge again.
  const judgedAt = (manifest: RunManifest) => manifest.models.judge !== null
  if (!judgedAt(afterManifest) && !judgedAt(request.before.tally.manifest)) return unchanged
  const target = await baseJudgeIdentity(ctx, request)
  const label = 'why' in target ? `"${request.baseJudge.model}"` : `"${target.model}" at ${target.endpoint}`
  const missing = (side: string, why: string): Settled => ({
    ...unchanged,
    unmet: [`${base}'s judge (${label}) could not judge ${side} (${why}), so nothing shows how it judges this pull request`],
  })
  if ('why' in target) {
    // Its address cannot be made out here: only two runs already judged by its model at one endpoint need nothing from it.
    const [a, b] = [request.before.tally.manifest.models, afterManifest.models]
    const alike = a.judge === b.judge && (a.judge === null || a.judge === request.baseJudge.model) && (a.judgeEndpoint ?? null) === (b.judgeEndpoint ?? null)
    return alike ? unchanged : missing("this pull request's dialogues", target.why)
  }

  let after = request.after.tally
  const notes: string[] = []
  if (judgedAt(afterManifest) && !judgedBy(afterManifest, target)) {
    if (!request.after.dir) return missing("this pull request's dialogues", 'they are not on this machine')
    const asBase: RunManifest = { ...afterManifest, models: { ...afterManifest.models, judge: target.model, judgeEndpoint: target.endpoint } }
    const judged = await prepareJudgeAlike(ctx, { baselineDir: request.after.dir, after: asBase, config: request.config, projectSettingsOnly: request.projectSettingsOnly, judgeOf: request.baseJudge })
    if (!judged.manifest) return missing("this pull request's dialogues", judged.why)
    ;({ tally: after, dir: dirs.after } = await keep(judged, 'after'))
    const own = `"${afterManifest.models.judge}"${afterManifest.models.judgeEndpoint ? ` at ${afterManifest.models.judgeEndpoint}` : ''}`
    notes.push(
      `The judge changed in this pull request: its ${plural(judged.rejudged, 'recorded dialogue')} were judged again with ${base}'s judge (${label}), which the gate used. ` +
        `For information, this pull request's own judge (${own}) passed ${scenarioRate(request.after.tally)}; ${base}'s judge passes ${scenarioRate(after)}.`,
    )
  }
  let before = request.before.tally
  // The base's own judge moved since the baseline was made, or the baseline was judged otherwise (another
  // prompt, samples or review, as after a convy-ci upgrade): the baseline's dialogues are judged by it too.
  const movedSince = judgedAt(before.manifest) && (!judgedBy(before.manifest, target) || (judgedAt(after.manifest) && judgeDifferences(before.manifest, after.manifest).length > 0))
  if (movedSince) {
    if (!request.before.dir) return missing("the baseline's dialogues", 'they are not on this machine')
    const judged = await prepareJudgeAlike(ctx, { baselineDir: request.before.dir, after: after.manifest, config: request.config, projectSettingsOnly: request.projectSettingsOnly, judgeOf: request.baseJudge })
    if (!judged.manifest) return missing("the baseline's dialogues", judged.why)
    ;({ tally: before, dir: dirs.before } = await keep(judged, 'before'))
    const was = request.before.tally.manifest.models.judge
    const why = judgedBy(request.before.tally.manifest, target) ? `was judged otherwise (${judgeDifferences(request.before.tally.manifest, after.manifest).join(', ')})` : `was judged by "${was}", not ${base}'s judge now`
    notes.push(`The baseline ${why}: its ${plural(judged.rejudged, 'recorded dialogue')} were judged again with ${label}.`)
  }
  return { before, after, dirs, changed: notes.length > 0, notes, unmet: [] }
}

/** Attempts passed, and the pass rate as the comment's tiles count it (the mean over scenarios). */
function scenarioRate(tally: RunTally): string {
  const counts = runCounts(tally)
  const rate = passRate(counts.scenarios)
  return `${counts.passed} of ${plural(counts.counted, 'attempt')}${rate === null ? '' : ` (pass rate ${Math.round(rate * 100)}%)`}`
}

/** The attempts judged again, counted in memory in their recorded order. */
export async function judgedTally(judged: Judged): Promise<RunTally> {
  const attempts: Attempt[] = []
  await judged.judge((attempt) => void attempts.push(attempt))
  const tally = startTally(judged.manifest)
  // In the recorded order, whatever order the judge finished in: the tally's digests keep it.
  attempts.sort((a, b) => (a.scenario === b.scenario ? a.attempt - b.attempt : 0))
  for (const attempt of attempts) addAttempt(tally, attempt)
  return finishTally(tally)
}
