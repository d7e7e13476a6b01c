import { flaggableScenarioDrop } from '../base/stats/detectable.ts'
import type { Comparison, Direction } from './comparison.ts'
import { SCENARIO_ALPHA } from './decide.ts'

/**
 * What a comparison comes to, before any detail: the first line of the comment and the check. Some
 * comparisons cannot say Worse or "within noise" honestly, and say so first:
 * - judge-changed: the judge (model, prompt, temperature or samples) is not the same in both runs, so
 *   no change can be attributed to the agent;
 * - inconclusive: too many attempts without a verdict, or nothing compared;
 * - judge-unstable: a scenario moved beyond noise, but only as far as the judge disagrees with itself;
 * - cannot-tell: at this k not even one scenario going from always passing to never can register.
 */
export type Standing = Direction | 'judge-changed' | 'inconclusive' | 'judge-unstable' | 'cannot-tell'

export function standing(c: Comparison): Standing {
  if (c.judgeChange) return 'judge-changed'
  if (c.verdict !== 'within-noise') return c.verdict
  if (c.overall.scenarios === 0 || c.coverage.inconclusive) return 'inconclusive'
  if (judgeUnstableScenarios(c).length > 0) return 'judge-unstable'
  if (!c.sensitivity.singleScenarioCanRegister) return 'cannot-tell'
  return 'within-noise'
}

/** Scenarios that would be Worse or Better on their own, withheld because the judge disagrees with itself about them. */
export function judgeUnstableScenarios(c: Comparison): string[] {
  return c.scenarios.same.filter((s) => s.judgeUnstable !== null).map((s) => s.id)
}

/** "Judge-unstable: …", for a comparison within noise only because such scenarios were withheld; null otherwise. */
export function judgeUnstableSentence(c: Comparison): string | null {
  const ids = judgeUnstableScenarios(c)
  if (c.verdict !== 'within-noise' || ids.length === 0) return null
  const one = ids.length === 1
  return `Judge-unstable: ${ids.length} scenario${one ? '' : 's'} moved beyond noise, but the judge disagrees with itself about ${one ? 'it' : 'them'} as much as the agent varies, so ${one ? 'it is' : 'they are'} not counted as a change of the agent (rejudge, or make the claims less ambiguous).`
}

/** The smallest k at which one scenario going k/k → 0/k can register at all. */
export function smallestTellingK(): number {
  let k = 1
  while (flaggableScenarioDrop(k, SCENARIO_ALPHA) === null) k++
  return k
}

/**
 * "Cannot tell: k = 1 detects only drops of 38 points…", for a comparison within noise at a k too low
 * for any single scenario to register; null otherwise.
 */
export function cannotTellSentence(c: Comparison): string | null {
  if (c.verdict !== 'within-noise' || c.overall.scenarios === 0 || c.sensitivity.singleScenarioCanRegister) return null
  const { attemptsPerScenario: k, detectableDrop } = c.sensitivity
  const overall = detectableDrop === null ? 'cannot reliably detect even a drop to 0%' : `detects only drops of ${Math.round(detectableDrop * 100)} points or more in the pass rate`
  return `Cannot tell: k = ${k} ${overall}, and no single scenario can register, even one that stopped passing altogether (that takes k = ${smallestTellingK()} or more).`
}
