import { flaggableScenarioDrop } from '../base/stats/detectable.ts'
import type { Comparison } from './comparison.ts'
import { SCENARIO_ALPHA, type Direction } from './decide.ts'
import type { CountedAgainst, MissingKind, ScenarioChange } from './evidence.ts'

/**
 * What a comparison comes to, before any detail: the first line of the comment and the check. It is
 * what the gate with `fail-on: worse` decides (gate.ts), said with its reason:
 * - judge-changed: the judge (model, prompt, temperature, samples or review) is not the same in both
 *   runs and no rejudge settled it: evidence missing;
 * - worse: Worse on the verdicts, the simulated user went off script far more often, or an edited
 *   scenario fails every attempt;
 * - evidence-missing: counted against the pull request, what its run lacks (verdicts, user_error
 *   relabels, removed scenarios) would make it Worse, or a scenario the baseline could test says nothing;
 * - judge-unstable: a scenario dropped beyond noise, but only as far as the judge disagrees with itself
 *   (also evidence missing);
 * - cannot-tell: too little to tell — at this k not even one scenario going from always passing to never can register.
 */
export type Standing = Direction | 'judge-changed' | 'evidence-missing' | 'judge-unstable' | 'cannot-tell'

export function standing(c: Comparison): Standing {
  if (c.judgeChange) return 'judge-changed'
  if (c.verdict === 'worse' || c.userErrors.rose || editedFailingEverywhere(c).length > 0) return 'worse'
  const lacking = missingEvidence(c)
  if (lacking) return judgeUnstableOnly(c) ? 'judge-unstable' : 'evidence-missing'
  if (c.verdict === 'better') return 'better'
  if (judgeUnstableScenarios(c).length > 0) return 'judge-unstable'
  if (!c.sensitivity.singleScenarioCanRegister) return 'cannot-tell'
  return 'within-noise'
}

/** Whether a judge-unstable drop is all the evidence that is missing. */
function judgeUnstableOnly(c: Comparison): boolean {
  const lacking = missingEvidence(c)
  return lacking !== null && lacking.reasons.length === 1 && c.scenarios.same.some((s) => s.judgeUnstable === 'worse' && !s.settledByRejudge)
}

/** Edited scenarios that fail every attempt with a verdict in the pull request's run: never a pass. */
export function editedFailingEverywhere(c: Comparison): ScenarioChange[] {
  return c.scenarioChanges.filter((s) => s.kind === 'edited' && s.after !== null && s.after.judged > 0 && s.after.passed === 0)
}

/** "The simulated user went off script far more often…", when the share of user_error rose significantly; null otherwise. */
export function userErrorSentence(c: Comparison): string | null {
  const u = c.userErrors
  if (!u.rose) return null
  const where = u.scenarios.length ? `, in ${named(u.scenarios.map((s) => `${s.id} (${s.before.userErrors}/${s.before.attempts} → ${s.after.userErrors}/${s.after.attempts})`))}` : ''
  return `Worse: the simulated user went off script far more often against this version — usually the agent's doing: the review blamed the user for ${u.before.userErrors} of ${u.before.attempts} attempts before and ${u.after.userErrors} of ${u.after.attempts} now (one-sided p = ${u.pRise.toPrecision(2)})${where}. Read those dialogues before trusting the review.`
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

/** The most scenarios a sentence names; the rest are counted. */
const NAMED = 5

/** What the gate cannot decide without, each in plain text naming its scenarios (ids as the runs spell them: escape where shown). */
export interface MissingEvidence {
  reasons: string[]
  scenarios: string[]
}

/**
 * Why a comparison that is not Worse on its verdicts still cannot pass the gate: evidence the pull
 * request's run lacks would change the outcome, or a scenario it could have tested says nothing. The
 * judge changing is said apart (judge-change.ts). Null when nothing is missing.
 */
export function missingEvidence(c: Comparison): MissingEvidence | null {
  const reasons: string[] = []
  const scenarios = new Set<string>()
  const name = (ids: readonly string[]) => {
    ids.forEach((id) => scenarios.add(id))
    return named(ids)
  }
  if (c.verdict !== 'worse' && c.strict.verdict === 'worse') {
    const shown = c.strict.hidden.length > 0 ? c.strict.hidden : c.strict.worse
    const what = shown.slice(0, NAMED).map(countedSentence)
    shown.forEach((s) => scenarios.add(s.id))
    const more = shown.length > NAMED ? ` and ${shown.length - NAMED} more` : ''
    reasons.push(`counted as failed, what this run lacks makes it Worse than the baseline (one-sided p = ${c.strict.pWorse.toPrecision(2)}): ${what.join('; ')}${more}`)
  }
  if (c.coverage.blindAfter.length > 0) reasons.push(`no verdict at all in this run for ${name(c.coverage.blindAfter)}, which the baseline's verdicts could test`)
  const removed = c.scenarioChanges.filter((s) => s.kind === 'removed')
  if (removed.length > 0) reasons.push(`${name(removed.map((s) => s.id))} ${removed.length === 1 ? 'is' : 'are'} gone from this run without a "retired:" entry (a scenario file kept with retired: and a reason)`)
  const unstable = c.scenarios.same.filter((s) => s.judgeUnstable === 'worse' && !s.settledByRejudge).map((s) => s.id)
  if (unstable.length > 0) reasons.push(`${name(unstable)} dropped beyond noise, but the judge disagrees with itself about ${unstable.length === 1 ? 'it' : 'them'} as much as the dialogues differ (judge-unstable)`)
  if (c.coverage.inconclusive) reasons.push(c.coverage.inconclusive.replace(/\.$/, ''))
  if (c.overall.scenarios === 0 && reasons.length === 0) reasons.push('no scenario could be compared')
  return reasons.length === 0 ? null : { reasons, scenarios: [...scenarios] }
}

const MISSING_WORDS: Record<MissingKind, string> = {
  'no-verdict': 'attempts without a verdict',
  'user-error': 'attempts relabelled user error',
  'not-decided': 'attempts nothing decided',
  unplayed: 'attempts not played',
  removed: 'removed',
  edited: 'edited',
}

/** "refund 5/5 → 0/5 (attempts relabelled user error)". */
function countedSentence(s: CountedAgainst): string {
  const counts = `${s.id} ${s.before.passed}/${s.before.total} → ${s.after.passed}/${s.after.total}`
  return s.missing.length === 0 ? counts : `${counts} (${s.missing.map((kind) => MISSING_WORDS[kind]).join(', ')})`
}

export function named(ids: readonly string[]): string {
  return `${ids.slice(0, NAMED).join(', ')}${ids.length > NAMED ? ` and ${ids.length - NAMED} more` : ''}`
}
