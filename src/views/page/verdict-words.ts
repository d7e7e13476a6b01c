import type { VerdictCounts } from '../../records/journal/verdict-counts.ts'
import { count } from '../../base/shared/text.ts'
import { percent } from './format.ts'

/**
 * One word per meaning, on every surface (terminal, report, compare page, comment, summary): an
 * attempt that neither passed nor failed did so for one of four reasons, and each has its own word.
 *   agent error — the agent failed (a 500, a timeout, an exception);
 *   no verdict  — convy-ci's own models failed (the simulated user or the judge);
 *   not decided — nothing asked for a decision (--smoke, a script without checks);
 *   user error  — the simulated user's own mistake decided the attempt.
 */
export const UNDECIDED_WORD = {
  agent_error: 'agent error',
  no_verdict: 'no verdict',
  not_decided: 'not decided',
  user_error: 'user error',
} as const

export type UndecidedVerdict = keyof typeof UNDECIDED_WORD

/** Plural forms: "2 agent errors", "2 no verdict", "2 not decided", "2 user errors". */
export function undecidedCount(verdict: UndecidedVerdict, n: number): string {
  const word = UNDECIDED_WORD[verdict]
  return `${count(n)} ${n === 1 || verdict === 'no_verdict' || verdict === 'not_decided' ? word : `${word}s`}`
}

/** Each reason with attempts, in the order a reader acts on them: "1 agent error · 6 not decided". */
export function undecidedCounts(counts: VerdictCounts): string[] {
  const of: Record<UndecidedVerdict, number> = {
    agent_error: counts.agentErrors,
    no_verdict: counts.noVerdicts,
    user_error: counts.userErrors,
    not_decided: counts.notDecided,
  }
  return (Object.keys(of) as UndecidedVerdict[]).filter((v) => of[v] > 0).map((v) => undecidedCount(v, of[v]))
}

/**
 * The reasons an attempt is left out of the pass rate (records/tally/run-counts.ts `passRate`): an
 * agent error is not among them, it counts as not passed.
 */
export function leftOutCounts(counts: VerdictCounts): string[] {
  return undecidedCounts({ ...counts, agentErrors: 0 })
}

/**
 * Below this share of a run's attempts passed or failed, a pass rate would speak for too few of them:
 * it reads "none", with how many were decided.
 */
export const MIN_DECIDED_SHARE = 0.5

/** A pass rate's figure ("93%", or "none") and what it is over, for pages that set them apart. */
export function passRateParts(run: RunPassFigures): { value: string; over: string } {
  const { passed, counted, attempts, rate } = run
  // The rate is the mean over scenarios (run-counts.ts); where it is not passed / counted as shown, the words say so.
  const weighted = rate !== null && counted > 0 && percent(rate) !== percent(passed / counted) ? ' · mean over scenarios' : ''
  if (counted === attempts) return attempts === 0 || rate === null ? { value: 'none', over: 'no attempts' } : { value: percent(rate), over: `${count(passed)} of ${count(counted)}${weighted}` }
  if (rate === null || counted < MIN_DECIDED_SHARE * attempts) {
    return { value: 'none', over: `${count(counted)} of ${count(attempts)} attempts counted (below ${percent(MIN_DECIDED_SHARE)})` }
  }
  return { value: percent(rate), over: `${count(passed)} of ${count(counted)} counted (of ${count(attempts)} attempts)${weighted}` }
}

/** What a run's pass rate is said with: the rate (run-counts.ts `passRate`) and the counts behind it. */
export interface RunPassFigures {
  passed: number
  counted: number
  attempts: number
  rate: number | null
}

/**
 * A pass rate in words, never over fewer than all attempts without saying so in the same breath:
 * "93% · 14 of 15"; "100% · 3 of 3 counted (of 4 attempts)"; "none · 3 of 9 attempts counted (below 50%)".
 */
export function passRateWords(run: RunPassFigures): string {
  const { value, over } = passRateParts(run)
  return `${value} · ${over}`
}
