import { join } from 'node:path'
import { REPORT_FILE } from '../journal/run-folder.ts'
import type { RunJournal } from '../journal/run-journal.ts'
import { Budget } from '../runner/budget.ts'
import { playRun } from '../runner/play-run.ts'
import type { PreparedAgent, PreparedModels } from '../runner/prepare.ts'
import type { PlannedAttempt } from '../runner/select-scenarios.ts'
import { ExitCode, errorMessage } from '../shared/errors.ts'
import type { Mask } from '../shared/secrets.ts'
import type { CliContext } from './context.ts'
import { createProgress } from './progress.ts'
import { formatSummary, hasErrors } from './summary.ts'
import { readTally } from '../tally/read-tally.ts'
import type { RunTally } from '../tally/run-tally.ts'
import { dollars } from '../report/format.ts'
import { writeIndex } from '../report/index-page.ts'
import { writeRunReportAndTally } from '../report/run-report.ts'

export interface Execution {
  journal: RunJournal
  todo: readonly PlannedAttempt[]
  /** Attempts the run has in all, the ones recorded by an earlier session included. */
  total: number
  agent: PreparedAgent
  models: PreparedModels
  resultsDir: string
  mask: Mask
  /** Dollars the run's recorded attempts already cost (a resume), counted against its budget. */
  spentBeforeUsd?: number
  /** False for a replay that decides the checks only. */
  judging?: boolean
}

export interface Executed {
  exitCode: ExitCode
  /** The run counted once, as its report read it: for whoever publishes the run next. */
  tally: RunTally
}

/**
 * Plays a prepared run to its end or an interruption, then marks the run folder, writes its report
 * and the index, and prints the summary. Shared by `run` and `resume`.
 */
export async function execute(ctx: CliContext, execution: Execution): Promise<Executed> {
  const { journal } = execution
  const settings = journal.current.settings
  const progress = createProgress(ctx, execution.agent.name, execution.todo)
  let result
  try {
    result = await playRun({
      journal,
      todo: execution.todo,
      parallel: settings.parallel,
      signal: ctx.signal,
      progress,
      budget: new Budget(settings.budgetUsd ?? null, execution.spentBeforeUsd ?? 0),
      play: {
        agent: execution.agent.agent,
        user: execution.models.user,
        judge: execution.models.judge,
        smoke: settings.smoke,
        turnTimeoutSeconds: settings.turnTimeoutSeconds,
        prices: journal.current.models.prices,
        agentPrice: execution.agent.price,
        mask: execution.mask,
        now: ctx.now,
        judging: execution.judging ?? true,
      },
    })
  } finally {
    progress.finish()
    await journal.close()
  }
  const ended = result.interrupted || result.stoppedForBudget
  await journal.setState(ended ? 'interrupted' : 'finished', ended ? null : ctx.now(), result.stoppedForBudget ? 'budget' : null)

  // The report reads the attempts once and counts them; the summary uses the same count.
  let tally: RunTally | undefined
  try {
    tally = (await writeRunReportAndTally(journal.dir)).tally
    await writeIndex(execution.resultsDir)
  } catch (error) {
    ctx.stderr.write(`warning: the report could not be written: ${errorMessage(error)}\n`)
  }
  tally ??= await readTally(journal.dir)
  ctx.stdout.write(formatSummary(execution.agent.name, tally))
  ctx.stdout.write(`run ${journal.current.id}\n  ${join(journal.dir, REPORT_FILE)}\n`)

  if (result.interrupted) {
    ctx.stderr.write(`interrupted: ${tally.attempts} of ${execution.total} attempts recorded\nresume with: convy-ci resume ${journal.current.id}\n`)
    return { exitCode: ExitCode.Interrupted, tally }
  }
  if (result.stoppedForBudget) {
    ctx.stderr.write(
      `stopped for budget: spent ${dollars(tally.costUsd)} of ${dollars(settings.budgetUsd ?? 0)}; ${tally.attempts} of ${execution.total} attempts recorded\n` +
        `resume with: convy-ci resume ${journal.current.id} --budget-usd <a larger budget>\n`,
    )
    return { exitCode: ExitCode.Failed, tally }
  }
  return { exitCode: hasErrors(tally) ? ExitCode.Failed : ExitCode.Ok, tally }
}
