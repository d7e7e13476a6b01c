import type { RunJournal } from '../../records/journal/run-journal.ts'
import { sampledJudge } from '../../play/judge/sampled-judge.ts'
import { Budget } from '../../play/runner/budget.ts'
import { createWaits, trackedRoles } from '../../play/runner/waits.ts'
import { playRun } from '../../play/runner/play-run.ts'
import type { PreparedAgent, PreparedModels } from '../../play/runner/prepare.ts'
import type { PlannedAttempt } from '../../play/runner/select-scenarios.ts'
import type { Mask } from '../../base/shared/secrets.ts'
import type { WatchAttempt } from '../../play/conversation/watch.ts'
import type { PipelineContext } from './context.ts'
import { finishRun, type Executed } from './finish-run.ts'
import type { Calibration } from '../../records/calibration/calibration.ts'
import type { RunWorld } from '../../play/world/prepare-world.ts'
import type { Rounds } from '../../play/runner/rounds.ts'
import { attemptCeiling, expectedAttempts } from '../../records/journal/adaptive-record.ts'

export type { Executed }

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
  /** run --verbose: each attempt's dialogue as it happens. */
  watch?: WatchAttempt
  /** The project's judge calibration, for the summary and the report. */
  calibration?: Calibration | null | undefined
  /** Each scenario's world: context, set-up, tear-down, limits (play/world/). */
  world?: RunWorld | undefined
  /** An adaptive run's rounds (run --adaptive): each scenario's next attempts as its round ends. */
  rounds?: Rounds | undefined
}

/**
 * Plays a prepared run to its end or an interruption, then ends it (finish-run.ts): its report, its
 * state, the index and the summary. Shared by `run`, `resume` and `replay`. The caller holds the
 * journal's lock and releases it.
 */
export async function execute(ctx: PipelineContext, execution: Execution): Promise<Executed> {
  const { journal } = execution
  const settings = journal.current.settings
  // Every call of the agent and the models tracked, so the progress can say who keeps the run waiting.
  const waits = createWaits(() => ctx.now().getTime())
  const progress = ctx.printers.progress(ctx, execution.agent.name, execution.todo, waits)
  let result
  try {
    result = await playRun({
      journal,
      todo: execution.todo,
      parallel: settings.parallel,
      signal: ctx.signal,
      progress,
      budget: new Budget(settings.budgetUsd ?? null, execution.spentBeforeUsd ?? 0),
      watch: execution.watch,
      // With the review on, its user_error attempts are played once more (play/runner/replay-user-errors.ts).
      // Numbered after the most attempts a scenario can get, so a replay never takes a later round's number.
      replayUserErrors: execution.models.reviewer ? { k: attemptCeiling(settings) } : null,
      rounds: execution.rounds,
      play: {
        ...trackedRoles(
          {
            agent: execution.agent.agent,
            user: execution.models.user,
            judge: execution.models.judge && sampledJudge(execution.models.judge, settings.judgeSamples ?? 1),
            reviewer: execution.models.reviewer,
          },
          execution.agent.name,
          waits.track,
        ),
        smoke: settings.smoke,
        turnTimeoutSeconds: settings.turnTimeoutSeconds,
        prices: journal.current.models.prices,
        agentPrice: execution.agent.price,
        ...(execution.agent.toolsListen ? { toolsListen: execution.agent.toolsListen } : {}),
        mask: execution.mask,
        now: ctx.now,
        judging: execution.judging ?? true,
        ...(execution.world ? { world: execution.world } : {}),
      },
    })
  } finally {
    progress.finish()
    await journal.close()
  }
  return finishRun(ctx, {
    journal,
    resultsDir: execution.resultsDir,
    agentName: execution.agent.name,
    // An adaptive run's plan grew with its rounds: what they gave by the end.
    total: execution.rounds ? expectedAttempts(journal.current) : execution.total,
    interrupted: result.interrupted,
    stoppedForBudget: result.stoppedForBudget,
    calibration: execution.calibration ?? null,
  })
}
