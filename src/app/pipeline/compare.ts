import { compareRuns, type CompareRunsOptions } from '../../verdict/compare-runs.ts'
import type { Comparison } from '../../verdict/comparison.ts'
import { baselineHealth, type BaselineHealth } from '../../verdict/baseline-health.ts'
import type { GateDecision } from '../../verdict/decide-gate.ts'
import { findRun } from '../../records/journal/read-run.ts'
import { compareFoldersToPage } from '../../app/pipeline/write-compare-page.ts'
import { writeIndex } from '../../app/pipeline/write-index.ts'
import { errorMessage } from '../../base/shared/errors.ts'
import type { Calibration } from '../../records/calibration/calibration.ts'
import type { RunManifest } from '../../records/journal/records.ts'
import type { PipelineContext } from './context.ts'
import { resultsDirOf } from './project.ts'
import { judgeIntoRun, rejudgeBaselineRun } from './rejudge-baseline-run.ts'
import { settleWithBaseJudge } from './settle-judge.ts'
import type { BaseJudge } from '../publish/gate-rules.ts'
import type { RunLocation } from '../../records/journal/run-folder.ts'
import { readTally } from '../../records/tally/read-tally.ts'
import { historyFileBeside, readHistory, trendOf, type History, type Trend } from '../../records/tally/trend.ts'
import type { RunTally } from '../../records/tally/run-tally.ts'

export interface CompareRequest {
  /** The runs: ids, their 4-hex parts, or run folders. */
  before: string
  after: string
  /** A baseline older than this many days is warned about. */
  maxAgeDays?: number | undefined
  /** A change of answer time smaller than this per answer is never told (verdict/speed.ts); default 0.05 s. */
  minSpeedChangeSeconds?: number | undefined
  /** When the judges differ, judge the before run's dialogues again with the after run's judge first (rejudge-baseline-run.ts). */
  rejudgeBaseline?: boolean
  config?: string | undefined
  results?: string | undefined
  /** The project's judge calibration, cited on the page (pipeline/judge-calibration.ts). */
  calibration?: Calibration | null
  /**
   * The gate, decided once on the comparison (verdict/decide-gate.ts) with the baseline's health and
   * the after run, and returned; with `onPage` (how it was asked: `fail-on: worse`) also shown on the page.
   */
  gate: { decide: (comparison: Comparison, context: { health: BaselineHealth; after: RunManifest; unmet: readonly string[] }) => GateDecision; onPage: string | null }
  /**
   * The base branch's judge (`--base-config`): a run judged by another is judged again with it into a
   * new run folder, which the comparison reads instead (settle-judge.ts); where it cannot be asked,
   * the gate lacks evidence (`unmet`).
   */
  baseJudge?: { judge: BaseJudge; base: string } | null
}

/**
 * Compares two recorded runs and writes the compare page into results/. Each run is read once into
 * its tally; the page's dialogues are spooled on the way.
 */
export async function compareTwoRuns(
  ctx: PipelineContext,
  request: CompareRequest,
): Promise<{ comparison: Comparison; page: string; after: RunManifest; trend: Trend | null; decision: GateDecision }> {
  const resultsDir = resultsDirOf(ctx, request)
  let before = await findRun(resultsDir, request.before)
  let after = await findRun(resultsDir, request.after)
  let unmet: string[] = []
  if (request.baseJudge) {
    const settled = await settleRunsWithBaseJudge(ctx, { before, after, resultsDir, config: request.config, baseJudge: request.baseJudge })
    ;({ before, after, unmet } = settled)
  } else if (request.rejudgeBaseline) {
    const judged = await rejudgeBaselineRun(ctx, { before, after, resultsDir, config: request.config })
    if (judged.dir === null) ctx.stderr.write(`--rejudge-baseline: the baseline was not judged again: ${judged.why}\n`)
    else {
      ctx.stderr.write(`${judged.note}\n`)
      before = { id: judged.id, dir: judged.dir }
    }
  }
  // The default branch's trend, when `convy-ci baseline --history` or the action left one beside the after run.
  const { history, problems } = await readHistory(historyFileBeside(after.dir))
  for (const problem of problems) ctx.stderr.write(`warning: ${problem}\n`)
  const options = comparisonOptions(ctx.now(), request, history)
  let decision: GateDecision | undefined
  const { gate } = request
  const { comparison, path, tallies } = await compareFoldersToPage(resultsDir, { before: before.dir, after: after.dir }, (b, a) => compareRuns(b, a, options), {
    calibration: request.calibration ?? null,
    history,
    gate: (c: Comparison, sides: { before: RunTally; after: RunTally }) => {
      decision = gate.decide(c, { health: baselineHealth(sides.before, sides.after), after: sides.after.manifest, unmet })
      return gate.onPage === null ? null : { asked: gate.onPage, result: decision.result }
    },
  })
  // The index lists the compare pages too: the new one appears there at once. The two runs were
  // just counted; only the others are read.
  try {
    await writeIndex(resultsDir, [{ dir: before.dir, tally: tallies.before }, { dir: after.dir, tally: tallies.after }])
  } catch (error) {
    ctx.stderr.write(`warning: the index could not be written: ${errorMessage(error)}\n`)
  }
  const manifest = tallies.after.manifest
  const trend = history ? trendOf(history, { id: manifest.id, agent: manifest.agent.name, startedAt: manifest.startedAt }) : null
  // The page writer compares the runs, so it has called the gate by now.
  if (!decision) throw new Error('compareTwoRuns: the gate was not decided as the page was written')
  return { comparison, page: path, after: manifest, trend, decision }
}

/**
 * How two runs are compared, wherever they are (`convy-ci compare`, the library's compare()): the
 * asked limits, and the default branch's trend when one lies beside the after run, whose runs say how
 * much the answer time drifts from run to run (verdict/speed.ts).
 */
export function comparisonOptions(now: Date, request: Pick<CompareRequest, 'maxAgeDays' | 'minSpeedChangeSeconds'>, history: History | null): CompareRunsOptions {
  return {
    now,
    ...(request.maxAgeDays === undefined ? {} : { maxAgeDays: request.maxAgeDays }),
    ...(request.minSpeedChangeSeconds === undefined ? {} : { minSpeedChangeSeconds: request.minSpeedChangeSeconds }),
    ...(history ? { speedHistory: history.entries.map((entry) => entry.summary.medianAnswerSeconds) } : {}),
  }
}

/** Each run judged by another judge than the base's, judged again with it into a new run folder (said on stderr). */
async function settleRunsWithBaseJudge(ctx: PipelineContext, request: { before: RunLocation; after: RunLocation; resultsDir: string; config?: string | undefined; baseJudge: { judge: BaseJudge; base: string } }): Promise<{ before: RunLocation; after: RunLocation; unmet: string[] }> {
  const [beforeTally, afterTally] = await Promise.all([readTally(request.before.dir), readTally(request.after.dir)])
  const settled = await settleWithBaseJudge(ctx, {
    baseJudge: request.baseJudge.judge,
    base: request.baseJudge.base,
    before: { tally: beforeTally, dir: request.before.dir },
    after: { tally: afterTally, dir: request.after.dir },
    config: request.config,
    keep: async (judged, side) => {
      const made = await judgeIntoRun(ctx, judged, { resultsDir: request.resultsDir, agentName: judged.manifest.agent.name, command: `convy-ci compare --base-config (the ${side} run judged again)` })
      return { tally: await readTally(made.dir), dir: made.dir }
    },
  })
  for (const line of [...settled.notes, ...settled.unmet]) ctx.stderr.write(`--base-config: ${line}\n`)
  const moved = (location: RunLocation, dir: string | null, tally: RunTally): RunLocation => (dir ? { id: tally.manifest.id, dir } : location)
  return { before: moved(request.before, settled.dirs.before, settled.before), after: moved(request.after, settled.dirs.after, settled.after), unmet: settled.unmet }
}
