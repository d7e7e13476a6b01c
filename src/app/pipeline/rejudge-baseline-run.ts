import { readManifest } from '../../records/journal/read-run.ts'
import { RunJournal } from '../../records/journal/run-journal.ts'
import { newRunId, type RunLocation } from '../../records/journal/run-folder.ts'
import { plural } from '../../base/shared/text.ts'
import type { PipelineContext } from './context.ts'
import { finishRun } from './finish-run.ts'
import { prepareJudgeAlike, type JudgeAlike } from './rejudge-baseline.ts'
import { judgeDifferences } from '../../verdict/judge-change.ts'
import type { RunManifest } from '../../records/journal/records.ts'

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
  const { dir, id } = await judgeIntoRun(ctx, judging, { resultsDir: request.resultsDir, agentName: before.agent.name, command: `convy-ci compare --rejudge-baseline ${before.id}` })
  ctx.signal.throwIfAborted()
  const note = `the judge changed (${differs.join(', ')}): ${before.id} judged again with the judge of ${after.id} (${plural(judging.rejudged, 'dialogue')}) into ${id}`
  return { dir, id, note }
}

/**
 * Recorded dialogues judged again (prepareJudgeAlike's `judging`) into a new run folder under
 * `resultsDir`: a run anyone can open, compare again or publish. Its summary goes to stderr, as
 * stdout is the comparison's (--json, --markdown).
 */
export async function judgeIntoRun(ctx: PipelineContext, judging: Extract<JudgeAlike, { manifest: RunManifest }>, where: { resultsDir: string; agentName: string; command: string }): Promise<{ dir: string; id: string }> {
  const startedAt = ctx.now()
  const manifest = { ...judging.manifest, id: newRunId(where.agentName, startedAt), startedAt: startedAt.toISOString(), finishedAt: null, state: 'running' as const }
  const journal = await RunJournal.create(where.resultsDir, manifest, ctx.writer(where.command))
  try {
    try {
      await judging.judge((attempt) => journal.append(attempt))
    } finally {
      await journal.close()
    }
    await finishRun({ ...ctx, stdout: ctx.stderr }, { journal, resultsDir: where.resultsDir, agentName: where.agentName, total: judging.attempts, interrupted: ctx.signal.aborted, stoppedForBudget: false })
  } finally {
    await journal.release()
  }
  ctx.signal.throwIfAborted()
  return { dir: journal.dir, id: manifest.id }
}
