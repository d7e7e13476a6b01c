import { harnessCostUsd } from '../../records/journal/attempt-facts.ts'
import type { Attempt } from '../../records/journal/records.ts'

/**
 * Decides whether one more attempt may start without the run passing its budget. Attempts in flight
 * will cost about what finished ones did, so they count against the budget before they end.
 */
export class Budget {
  #spent: number
  #finished = 0
  #finishedCost = 0

  constructor(
    readonly limitUsd: number | null,
    spentBeforeUsd = 0,
  ) {
    this.#spent = spentBeforeUsd
  }

  get spentUsd(): number {
    return this.#spent
  }

  record(attempt: Attempt): void {
    const cost = harnessCostUsd(attempt) ?? 0
    this.#spent += cost
    this.#finished++
    this.#finishedCost += cost
  }

  /** May an attempt start while `inFlight` others are running? */
  allows(inFlight: number): boolean {
    if (this.limitUsd === null) return true
    // Until one attempt has ended nothing says what one costs: the first runs alone.
    if (this.#finished === 0) return inFlight === 0 && this.#spent < this.limitUsd
    const perAttempt = this.#finishedCost / this.#finished
    return this.#spent + (inFlight + 1) * perAttempt <= this.limitUsd && this.#spent < this.limitUsd
  }
}
