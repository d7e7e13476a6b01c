import type { Attempt } from '../../records/journal/records.ts'
import type { Scenario } from '../../records/scenario/scenario.ts'
import type { PlannedAttempt } from './select-scenarios.ts'
import { byId } from './shard-scenarios.ts'

/**
 * What decides a scenario's next round (app/pipeline: the adaptive rule against the baseline): given
 * every scenario's attempts recorded so far (originals only, in any order), the attempts it has in all after its
 * next round, or null when it stops. It may record the decision (run.json) before it answers.
 */
export type RoundEnded = (scenario: string, recorded: ReadonlyMap<string, readonly Attempt[]>) => Promise<number | null>

export interface RoundsState {
  /** Each scenario's attempts given so far (the end of its current round). */
  planned: ReadonlyMap<string, number>
  /** Scenarios that stopped: they get no more attempts. */
  stopped: ReadonlySet<string>
}

/**
 * Rounds of attempts per scenario (issue 39, run --adaptive). A scenario's next round starts as soon
 * as its own round's attempts are recorded, not when the slowest scenario's are: the runner keeps
 * `--parallel` conversations going with whatever is next. Resumed, it plays what the current rounds
 * lack and goes on from there, so an interrupted run continues the same rounds.
 */
export class Rounds {
  private readonly scenarios: ReadonlyMap<string, Scenario>
  private readonly planned: Map<string, number>
  private readonly stopped: Set<string>
  private readonly recorded = new Map<string, Attempt[]>()
  private readonly deciding = new Set<string>()

  constructor(
    scenarios: readonly Scenario[],
    state: RoundsState,
    private readonly roundEnded: RoundEnded,
    /** Attempts numbered above it are replays of user errors: not part of a round. */
    private readonly ceiling: number,
  ) {
    this.scenarios = new Map(scenarios.map((s) => [s.id, s]))
    this.planned = new Map(state.planned)
    this.stopped = new Set(state.stopped)
  }

  /** The attempts the current rounds still lack, given those already recorded (a resume), in a stable order. */
  start(recorded: readonly Attempt[]): PlannedAttempt[] {
    for (const attempt of recorded) this.remember(attempt)
    return [...this.scenarios.values()]
      .filter((s) => !this.stopped.has(s.id))
      .sort(byId)
      .flatMap((s) => this.lacking(s))
  }

  /**
   * Scenarios whose round is already complete when the run starts (a run interrupted between a round's
   * last attempt and its decision): decided now, their next attempts returned.
   */
  async settleComplete(): Promise<PlannedAttempt[]> {
    const more: PlannedAttempt[] = []
    for (const id of [...this.scenarios.keys()].sort()) more.push(...(await this.settle(id)))
    return more
  }

  /** After an attempt is recorded: the next round of its scenario when this ended the round, else nothing. */
  async attemptRecorded(attempt: Attempt): Promise<PlannedAttempt[]> {
    if (attempt.attempt > this.ceiling) return []
    this.remember(attempt)
    return this.settle(attempt.scenario)
  }

  private async settle(id: string): Promise<PlannedAttempt[]> {
    const scenario = this.scenarios.get(id)
    const planned = this.planned.get(id)
    if (!scenario || planned === undefined || this.stopped.has(id) || this.deciding.has(id)) return []
    const attempts = this.recorded.get(id) ?? []
    if (attempts.length < planned) return []
    this.deciding.add(id)
    try {
      const next = await this.roundEnded(id, this.recorded)
      if (next === null || next <= planned) {
        this.stopped.add(id)
        return []
      }
      this.planned.set(id, Math.min(next, this.ceiling))
      return this.lacking(scenario)
    } finally {
      this.deciding.delete(id)
    }
  }

  private remember(attempt: Attempt): void {
    if (attempt.attempt > this.ceiling) return
    const list = this.recorded.get(attempt.scenario) ?? []
    if (!list.some((a) => a.attempt === attempt.attempt)) list.push(attempt)
    this.recorded.set(attempt.scenario, list)
  }

  private lacking(scenario: Scenario): PlannedAttempt[] {
    const have = new Set((this.recorded.get(scenario.id) ?? []).map((a) => a.attempt))
    const planned = this.planned.get(scenario.id) ?? 0
    return Array.from({ length: planned }, (_, i) => i + 1)
      .filter((n) => !have.has(n))
      .map((attempt) => ({ scenario, attempt }))
  }
}
