import type { Comparison, Direction } from '../compare/comparison.ts'
import { OVERALL_ALPHA } from '../compare/compare-runs.ts'
import { fraction, pEquals, percent, plural, points } from './format.ts'

/**
 * The comparison's statistics in plain words, for the PR comment and the compare page alike. Plain
 * text built from numbers only. "No change" is never said: a difference within noise is still a
 * difference, reported with its numbers.
 */
export function directionTitle(direction: Direction): string {
  return direction === 'worse' ? 'Worse' : direction === 'better' ? 'Better' : 'Within noise'
}

/** Why the verdict is what it is, in one sentence with the numbers. */
export function verdictReason(c: Comparison): string {
  const { overall, scenarios } = c
  if (overall.change === null || overall.before.rate === null || overall.after.rate === null) return 'No scenario could be compared.'
  const noise = overall.direction === 'within-noise' ? 'within noise' : `${overall.direction}, beyond noise`
  const rate = `The pass rate went from ${percent(overall.before.rate)} to ${percent(overall.after.rate)} (Δ ${points(overall.change)}), ${noise}`
  const moved = [
    scenarios.worse.length > 0 ? `${plural(scenarios.worse.length, 'scenario')} got worse` : '',
    scenarios.better.length > 0 ? `${plural(scenarios.better.length, 'scenario')} got better` : '',
  ].filter(Boolean)
  if (moved.length === 0) return overall.direction === 'within-noise' ? `${rate}, and no single scenario moved beyond noise.` : `${rate}, though no single scenario did on its own.`
  const agrees = (overall.direction === 'worse' && scenarios.worse.length > 0) || (overall.direction === 'better' && scenarios.better.length > 0)
  return `${rate}, ${agrees ? 'and' : 'but'} ${moved.join(' and ')}.`
}

export function overallSentence(c: Comparison): string {
  const { overall } = c
  if (overall.change === null || overall.interval === null || overall.before.rate === null || overall.after.rate === null) {
    return 'No scenario was played by both runs, unchanged and with verdicts, so the pass rates cannot be compared.'
  }
  const lead = overall.direction === 'worse' ? 'Worse' : overall.direction === 'better' ? 'Better' : 'Within noise'
  const range = `95% CI ${points(overall.interval.lower)} to ${points(overall.interval.upper)}`
  const rates = `the pass rate went from ${percent(overall.before.rate)} to ${percent(overall.after.rate)} (Δ ${points(overall.change)}, ${range}) over the ${plural(overall.scenarios, 'scenario')} both runs played alike`
  const down = overall.change < 0 || (overall.change === 0 && overall.pWorse <= overall.pBetter)
  const p = down ? overall.pWorse : overall.pBetter
  const shuffles = `Shuffling pass and fail between the two runs' attempts within each scenario gives an after-total this ${down ? 'low' : 'high'} in ${shareOf(p)} of shuffles (${pEquals(p)})`
  const threshold = overall.direction === 'within-noise' ? `; calling it ${down ? 'worse' : 'better'} takes p ≤ ${OVERALL_ALPHA}.` : `, at or under the ${OVERALL_ALPHA} that calls it ${overall.direction}.`
  return `${lead}: ${rates}. ${shuffles}${threshold}`
}

export function correctionSentence(c: Comparison): string {
  if (c.overall.scenarios === 0) return ''
  const { worse, better } = c.corrections
  return (
    `Each scenario is also tested on its own (one-sided Fisher exact test), corrected for the scenarios that could reach significance (Tarone): ` +
    `Worse takes p ≤ ${threshold(worse.threshold)} (${worse.alpha} over ${plural(worse.testable, 'testable scenario')}), Better p ≤ ${threshold(better.threshold)} (${better.alpha} over ${plural(better.testable, 'testable scenario')}).`
  )
}

export function sensitivitySentence(c: Comparison): string {
  const { attemptsPerScenario: k, detectableDrop, baselineRate, flaggableScenarioDrop } = c.sensitivity
  if (c.overall.scenarios === 0) return ''
  const overall =
    baselineRate === null || detectableDrop === null
      ? `With ${plural(k, 'attempt')} per scenario, not even a drop to 0% would register reliably`
      : `With ${plural(k, 'attempt')} per scenario, only a drop of ${Math.round(detectableDrop * 100)} points or more (from ${percent(baselineRate)}) would register reliably`
  const single =
    flaggableScenarioDrop === null
      ? `no single scenario can register on its own (even ${fraction(k, k)} → ${fraction(0, k)} is not rare enough)`
      : `a single scenario registers only if it goes ${fraction(k, k)} → ${fraction(flaggableScenarioDrop, k)} or lower`
  return `${overall}; ${single}.`
}

/** "9.0%", "0.31%", "under 0.01%": a p-value as a share of shuffles. */
function shareOf(p: number): string {
  const share = p * 100
  if (share < 0.01) return 'under 0.01%'
  return `${share >= 10 ? Math.round(share) : share.toPrecision(2)}%`
}

function threshold(value: number): string {
  return Number(value.toPrecision(2)).toString()
}
