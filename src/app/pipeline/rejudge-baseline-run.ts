import { readManifest } from '../../records/journal/read-run.ts'
import { RunJournal } from '../../records/journal/run-journal.ts'
import { newRunId, type RunLocation } from '../../records/journal/run-folder.ts'
import { plural } from '../../base/shared/text.ts'
import type { PipelineContext } from './context.ts'
import { finishRun } from './finish-run.ts'
import { judgeDifferences, prepareJudgeAlike } from './rejudge-baseline.ts'

export type BaselineJudgedAgain = { dir: string; id: string; note: string } | { dir: null; why: string }

/**
 * `compare --rejudge-baseline`: when the after run's judge differs from the before run's, the before
 * run's recorded dialogues judged again with the after run's judge into a new run folder (`rejudgeOf`
 * the baseline), which the comparison then reads instead: a run anyone can open, compare again or
 * publish. Nothing is made when the judges are alike, or when it cannot be done (the reason).
 */
export async function rejudgeBaselineRun(ctx: PipelineContext, request: { before: RunLocation; after: RunLocation; resultsDir: string; config?: string | undefined }): Promise<BaselineJudgedAgain> {
  const [before, after] = await Promise.all([readManifest(request.before.dir), readManifest(request.after.dir)])
  const differs = judgeDifferences(before, after)
  if (differs.length === 0) return { dir: null, why: 'the two runs were judged alike; nothing to settle' }
  const judging = await prepareJudgeAlike(ctx, { baselineDir: request.before.dir, after, config: request.config })
  if (!judging.manifest) return { dir: null, why: judging.why }
  const startedAt = ctx.now()
  const manifest = { ...judging.manifest, id: newRunId(before.agent.name, startedAt), startedAt: startedAt.toISOString(), finishedAt: null, state: 'running' as const }
  const journal = await RunJournal.create(request.resultsDir, manifest, ctx.writer(`convy-ci compare --rejudge-baseline ${before.id}`))
  try {
    try {
      await judging.judge((attempt) => journal.append(attempt))
    } finally {
      await journal.close()
    }
    // The run's summary goes to stderr: stdout is the comparison's (--json, --markdown).
    await finishRun({ ...ctx, stdout: ctx.stderr }, { journal, resultsDir: request.resultsDir, agentName: before.agent.name, total: judging.attempts, interrupted: ctx.signal.aborted, stoppedForBudget: false })
  } finally {
    await journal.release()
  }
  ctx.signal.throwIfAborted()
  const note = `the judge changed (${differs.join(', ')}): ${before.id} judged again with the judge of ${after.id} (${plural(judging.rejudged, 'dialogue')}) into ${manifest.id}`
  return { dir: journal.dir, id: manifest.id, note }
}
