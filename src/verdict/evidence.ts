import type { Direction } from './decide.ts'

/**
 * What the gate counts against a pull request's run (issue 21): the parts of a Comparison that say what
 * evidence the run lacks and what it would hide.
 */

/** What a pull request's run can lack in a scenario, each counted against it by the strict comparison. */
export type MissingKind = 'no-verdict' | 'user-error' | 'not-decided' | 'unplayed' | 'removed' | 'edited'

/** One scenario as the strict comparison counts it: every attempt, those without a verdict as failed. */
export interface CountedAgainst {
  id: string
  /** Passes out of every attempt played (the pull request's: at least its k). */
  before: { passed: number; total: number }
  after: { passed: number; total: number }
  pWorse: number
  /** What the pull request's run lacked here; empty when the scenario is Worse on its verdicts too. */
  missing: MissingKind[]
}

/**
 * The comparison the gate also decides on (issue 21, "(b)"): every attempt of the pull request that
 * has no verdict (no_verdict, not_decided, unplayed), was relabelled user_error, or belongs to a
 * scenario it removed, counted as failed wherever the baseline was judged — and the baseline's own
 * such attempts alike, so an unchanged agent is not Worse by it; edited scenarios are compared with
 * their baseline's old version. The gate takes the worse of this and the comparison on verdicts.
 */
export interface StrictComparison {
  verdict: Direction
  /** The stratified test on these counts, one-sided for worse. */
  pWorse: number
  /** The scenarios it calls Worse, most significant first. */
  worse: CountedAgainst[]
  /** Of those, the ones the comparison on verdicts does not call Worse: what the missing evidence hides. */
  hidden: CountedAgainst[]
}

export interface UserErrorCounts {
  userErrors: number
  /** Every attempt played, user errors included. */
  attempts: number
}

/**
 * The share of attempts the review blamed on the simulated user, compared between the runs with the
 * same exact tests as the pass rate (stratified over the scenarios both runs played alike, and per
 * scenario with Tarone's correction). A significant rise is Worse: usually the agent's doing.
 */
export interface UserErrorShift {
  before: UserErrorCounts
  after: UserErrorCounts
  /** One-sided p of the stratified test that the share rose. */
  pRise: number
  /** Scenarios whose share rose beyond noise on their own. */
  scenarios: { id: string; before: UserErrorCounts; after: UserErrorCounts; p: number }[]
  rose: boolean
}

/** A scenario the pull request removed, retired, renamed or edited, with the baseline's standing. */
export interface ScenarioChange {
  kind: 'removed' | 'retired' | 'renamed' | 'edited'
  /** The pull request's id (the baseline's for removed and retired). */
  id: string
  /** The baseline's id of a renamed scenario. */
  from: string | null
  /** The `retired:` entry's reason. Plain text from the scenario file: neutralise it wherever it is shown. */
  reason: string | null
  before: { passed: number; judged: number } | null
  after: { passed: number; judged: number } | null
}
