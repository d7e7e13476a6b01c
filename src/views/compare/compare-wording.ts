import type { ComparedScenario, Comparison, ScenarioSide } from '../../verdict/comparison.ts'
import { OVERALL_ALPHA, type Direction } from '../../verdict/decide.ts'
import { COLLAPSE_ATTEMPTS } from '../../verdict/decide.ts'
import { gate } from '../../verdict/gate.ts'
import { judgeUnstableScenarios, judgeUnstableSentence, standing } from '../../verdict/standing.ts'
import { fraction, pEquals, percent, plural, points, shownPoints } from '../page/format.ts'

/**
 * The comparison's statistics in plain words, for the PR comment and the compare page alike. Plain
 * text built from numbers only. "No change" is never said: a difference within noise is still a
 * difference, reported with its numbers.
 */
export function directionTitle(direction: Direction): string {
  return direction === 'worse' ? 'Worse' : direction === 'better' ? 'Better' : 'Within noise'
}

/**
 * The headline: what the comparison comes to, said first. A comparison that cannot blame the agent
 * (the judge changed), cannot see (too few verdicts) or cannot tell (k too low for any one scenario
 * to register) says so here, not in a footnote under "Within noise".
 */
export function standingTitle(c: Comparison): string {
  switch (standing(c)) {
    case 'judge-changed':
      return `Inconclusive, evidence missing · Judge changed · ${directionTitle(c.verdict)}, not attributable to the agent`
    case 'evidence-missing':
      return `Inconclusive, evidence missing · ${missingTitle(c)}`
    case 'judge-unstable': {
      const n = judgeUnstableScenarios(c).length
      return `${c.verdict === 'within-noise' && !c.scenarios.same.some((s) => s.judgeUnstable === 'worse' && !s.settledByRejudge) ? '' : 'Inconclusive, evidence missing · '}Judge-unstable · ${n} scenario${n === 1 ? '' : 's'} moved only as the judge disagrees with itself`
    }
    case 'cannot-tell': {
      const { attemptsPerScenario: k, detectableDrop } = c.sensitivity
      const tell = gate(c, { failOn: 'worse' }).tellingK
      const drops = detectableDrop === null ? 'detects no drop reliably' : `detects only drops of ${Math.round(detectableDrop * 100)} points`
      return `Inconclusive, too little to tell · k = ${k} ${drops}${tell ? `; k = ${tell} would tell` : ''}`
    }
    case 'worse':
      // Worse also when the pass rate is not: the simulated user off script, an edited scenario failing.
      return 'Worse'
    default:
      return directionTitle(c.verdict)
  }
}

/**
 * Why the verdict is what it is, in one sentence with the numbers; what limits it comes first. The
 * judge change quotes model names: markdown leaves it out (`judgeChange: false`) to neutralise it apart.
 */
export function verdictReason(c: Comparison, options: { lead?: boolean } = {}): string {
  const lead = options.lead === false ? null : gateLead(c)
  return [lead, changeReason(c)].filter(Boolean).join(' ')
}

/**
 * What the gate (fail-on: worse) decided, when that is more than the pass rate's verdict: evidence
 * missing and why, naming the scenarios; the simulated user off script; an edited scenario failing;
 * too little to tell. Names scenarios and may quote model names: markdown neutralises it.
 */
export function gateLead(c: Comparison): string | null {
  const gated = gate(c, { failOn: 'worse' })
  if (gated.outcome === 'pass') return judgeUnstableSentence(c)
  if (gated.outcome === 'fail' && c.verdict === 'worse') return null
  return gated.reason
}

function missingTitle(c: Comparison): string {
  const removed = c.scenarioChanges.filter((s) => s.kind === 'removed').length
  const parts = [
    c.strict.verdict === 'worse' && c.verdict !== 'worse' ? 'Worse counting what this run lacks' : null,
    c.coverage.blindAfter.length ? `${plural(c.coverage.blindAfter.length, 'scenario')} without a verdict` : null,
    removed ? `${plural(removed, 'scenario')} removed` : null,
  ].filter(Boolean)
  return parts.length ? parts.join(' · ') : 'Not decided'
}

function changeReason(c: Comparison): string {
  const { overall, scenarios } = c
  if (overall.change === null || overall.before.rate === null || overall.after.rate === null) return 'No scenario could be compared.'
  const noise = overall.direction === 'within-noise' ? 'within noise' : `${overall.direction}, beyond noise`
  // The tiles' pass rates are over every scenario each run judged; this one is over the scenarios both
  // played alike. Where those differ on the page, the sentence says which it is about.
  const tiles = c.tiles.passRate
  const sameAsTiles = tiles.before !== null && tiles.after !== null && percent(tiles.before) === percent(overall.before.rate) && percent(tiles.after) === percent(overall.after.rate)
  const over = sameAsTiles ? '' : ` over the ${plural(overall.scenarios, 'scenario')} both runs played alike`
  const rate = `The pass rate went from ${percent(overall.before.rate)} to ${percent(overall.after.rate)}${over} (Δ ${shownPoints(overall.before.rate, overall.after.rate)}), ${noise}`
  const alone = (direction: 'worse' | 'better') => scenarios[direction].filter((s) => s.alone).length
  const moved = (direction: 'worse' | 'better') => `${plural(alone(direction), 'scenario')} got ${direction} on ${alone(direction) === 1 ? 'its' : 'their'} own`
  const drivers = overall.direction === 'within-noise' ? 0 : scenarios[overall.direction].filter((s) => !s.alone).length
  const drove = overall.direction === 'worse' ? 'dropped' : 'rose'
  // A Worse (or Better) pass rate always names what drove it: the scenarios that moved on their own
  // first, then those that moved only with the others; "none beyond noise alone" only when none did.
  const leading = overall.direction === 'within-noise' ? 0 : alone(overall.direction)
  const together =
    overall.direction === 'within-noise' || leading + drivers === 0
      ? ''
      : leading === 0
        ? `, driven by ${plural(drivers, 'scenario')} that ${drove} (none beyond noise alone)`
        : `, driven by ${plural(leading, 'scenario')} that got ${overall.direction} on ${leading === 1 ? 'its' : 'their'} own${drivers ? ` and ${plural(drivers, 'more', 'more')} that ${drove} with the others, not alone` : ''}`
  const agreeing = (['worse', 'better'] as const).filter((d) => alone(d) > 0 && overall.direction === 'within-noise')
  const against = (['worse', 'better'] as const).filter((d) => alone(d) > 0 && overall.direction !== 'within-noise' && d !== overall.direction)
  const tail = against.length ? `, but ${against.map(moved).join(' and ')}` : ''
  if (overall.direction === 'within-noise' && agreeing.length > 0) return `${rate}, but ${agreeing.map(moved).join(' and ')}.`
  if (overall.direction === 'within-noise') return `${rate}, and no single scenario moved beyond noise.`
  return `${rate}${together}${tail}.`
}

export function overallSentence(c: Comparison): string {
  const { overall } = c
  if (overall.change === null || overall.interval === null || overall.before.rate === null || overall.after.rate === null) {
    return 'No scenario was played by both runs, unchanged and with verdicts, so the pass rates cannot be compared.'
  }
  const lead = overall.direction === 'worse' ? 'Worse' : overall.direction === 'better' ? 'Better' : 'Within noise'
  const range = `95% CI ${points(overall.interval.lower)} to ${points(overall.interval.upper)}`
  const rates = `the pass rate went from ${percent(overall.before.rate)} to ${percent(overall.after.rate)} (Δ ${shownPoints(overall.before.rate, overall.after.rate)}, ${range}) over the ${plural(overall.scenarios, 'scenario')} both runs played alike`
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
  const { scenarioThreshold } = c.sensitivity
  const { alpha, testable } = c.corrections.worse
  // The correction this comparison applied, so the sentence never promises what Tarone then refuses.
  const correction = `one-sided p ≤ ${threshold(scenarioThreshold)}: ${alpha} over ${plural(testable, 'testable scenario')}, Tarone`
  const single =
    flaggableScenarioDrop === null
      ? `no single scenario can register on its own (even ${fraction(k, k)} → ${fraction(0, k)} does not reach ${correction})`
      : `a single scenario registers only if it goes ${fraction(k, k)} → ${fraction(flaggableScenarioDrop, k)} or lower (${correction})`
  // Tarone's threshold can fall below k/k → 0/k's p among many flaky scenarios; a collapse registers anyway (decide.ts).
  const collapse = k >= COLLAPSE_ATTEMPTS ? ` A scenario that passed all ${k} attempts and now fails all of them registers whatever the others do.` : ''
  return `${overall}; ${single}.${collapse}`
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

/** What deserves a look in a scenario that is not Worse or Better. */
export function scenarioNotes(s: ComparedScenario): string[] {
  const notes: string[] = []
  if (s.judgeUnstable) notes.push(`judge-unstable: it moved ${s.judgeUnstable === 'worse' ? 'down' : 'up'} beyond noise, but the judge disagrees with itself here (${judgeFlips(s)}), so it is not counted as the agent's change`)
  if (s.possible === 'regression') notes.push(`possible regression (not significant after correction, ${pEquals(s.pWorse)})`)
  if (s.possible === 'improvement') notes.push(`possible improvement (not significant after correction, ${pEquals(s.pBetter)})`)
  if (s.moreWithoutVerdict) {
    const without = (x: ScenarioSide) => x.attempts - x.judged
    notes.push(`more attempts with no verdict: ${without(s.before)} → ${without(s.after)} of ${s.after.attempts} (${pEquals(s.moreWithoutVerdict.p)})`)
  }
  return notes
}

/** "flips 40% before, 56% after": how often two judgements of one dialogue disagreed, where measured. */
function judgeFlips(s: ComparedScenario): string {
  const rate = (side: ScenarioSide) => (side.judge ? `${Math.round(side.judge.flipRate * 100)}%` : null)
  const parts = [rate(s.before) && `${rate(s.before)} before`, rate(s.after) && `${rate(s.after)} after`].filter(Boolean)
  // Ĵ beside Â on both runs' attempts pooled: what decided judge-unstable.
  const pooled = s.pooledJudge ? `; both runs pooled: judge noise Ĵ = ${s.pooledJudge.judgeNoise.toFixed(3)}, agent spread Â = ${s.pooledJudge.agentFlakiness.toFixed(3)}` : ''
  return `judge flip rate ${parts.join(', ')}${pooled}`
}
