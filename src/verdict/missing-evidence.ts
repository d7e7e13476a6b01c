import type { Comparison } from './comparison.ts'
import type { CountedAgainst, MissingKind } from './evidence.ts'

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
