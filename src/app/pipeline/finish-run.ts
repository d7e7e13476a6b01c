import { join } from 'node:path'
import { REPORT_FILE } from '../../records/journal/run-folder.ts'
import type { RunJournal } from '../../records/journal/run-journal.ts'
import { dollars } from '../../views/page/format.ts'
import { readTally } from '../../records/tally/read-tally.ts'
import type { RunTally } from '../../records/tally/run-tally.ts'
import { ExitCode, errorMessage } from '../../base/shared/errors.ts'
import type { PipelineContext } from './context.ts'
import { commandName } from './invocation.ts'
import { calibrationStatus, type Calibration } from '../../records/calibration/calibration.ts'
import { calibrationSentence } from '../../views/page/judge-calibration.ts'
import { forTerminal } from '../../base/shared/invisible.ts'

export interface RunEnd {
  journal: RunJournal
  resultsDir: string
  agentName: string
  /** Attempts the run has in all, the ones recorded by an earlier session included. */
  total: number
  interrupted: boolean
  stoppedForBudget: boolean
  /** The project's judge calibration: cited in the report and the summary when it is of the run's judge, flagged stale when not. */
  calibration?: Calibration | null
}

/**
 * Ends a run whose attempts are played (or stopped): report.html, then the state in run.json, then
 * the index, then the summary and the exit code. The report is written before run.json says
 * `finished`, so a process killed in between leaves a run that is still `running` with all its
 * attempts, which `resume` finishes, never a finished run without its page.
 */
export interface Executed {
  exitCode: ExitCode
  /** The run counted once, as its report read it: for whoever publishes the run next. */
  tally: RunTally
}

export async function finishRun(ctx: PipelineContext, end: RunEnd): Promise<Executed> {
  const { journal } = end
  const settings = journal.current.settings
  const ended = end.interrupted || end.stoppedForBudget
  const finishedAt = ended ? null : ctx.now()
  const stoppedFor = end.stoppedForBudget ? 'budget' : null
  const state = ended ? 'interrupted' : 'finished'

  // The pages are made once, after the last attempt: their code is loaded then, not before the first
  // request (bench/runner.ts, first request).
  const [{ writeRunReportAndTally }, { writeIndex }] = await Promise.all([import('./write-report.ts'), import('./write-index.ts')])
  // The report reads the attempts once and counts them; the summary uses the same count.
  let tally: RunTally | undefined
  try {
    tally = (await writeRunReportAndTally(journal.dir, { manifest: journal.withState(state, finishedAt, stoppedFor), ownLines: journal.wroteEveryLine, calibration: end.calibration ?? null })).tally
  } catch (error) {
    ctx.stderr.write(`warning: the report could not be written: ${errorMessage(error)}\n`)
  }
  await journal.setState(state, finishedAt, stoppedFor)
  try {
    await writeIndex(end.resultsDir, tally ? [{ dir: journal.dir, tally }] : [])
  } catch (error) {
    ctx.stderr.write(`warning: the index could not be written: ${errorMessage(error)}\n`)
  }
  tally ??= await readTally(journal.dir)
  ctx.stdout.write(ctx.printers.summary(end.agentName, tally))
  const judged = calibrationSentence(calibrationStatus(end.calibration ?? null, tally.manifest))
  if (judged) ctx.stdout.write(`${forTerminal(judged)}\n`)
  ctx.stdout.write(`run ${journal.current.id}\n  ${join(journal.dir, REPORT_FILE)}\n`)

  if (end.interrupted) {
    ctx.stderr.write(`interrupted: ${tally.attempts} of ${end.total} attempts recorded\nresume with: ${commandName(ctx.env)} resume ${journal.current.id}\n`)
    return { exitCode: ExitCode.Interrupted, tally }
  }
  if (end.stoppedForBudget) {
    ctx.stderr.write(
      `stopped for budget: spent ${dollars(tally.costUsd)} of ${dollars(settings.budgetUsd ?? 0)}; ${tally.attempts} of ${end.total} attempts recorded\n` +
        `resume with: ${commandName(ctx.env)} resume ${journal.current.id} --budget-usd <a larger budget>\n`,
    )
    return { exitCode: ExitCode.Failed, tally }
  }
  return { exitCode: hasErrors(tally) ? ExitCode.Failed : ExitCode.Ok, tally }
}

/** Errors of either kind make the run's exit code 1. */
function hasErrors(tally: RunTally): boolean {
  return [...tally.scenarios.values()].some((s) => s.agentErrors + s.noVerdicts > 0)
}
