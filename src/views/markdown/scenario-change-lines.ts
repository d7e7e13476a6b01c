import type { Comparison, ScenarioChange } from '../../verdict/comparison.ts'
import { fraction } from '../page/format.ts'
import { neutralise } from './neutralise.ts'
import { scenarioId } from './compare-markdown-rows.ts'

/** At most this many lines; the rest are counted, and listed under Not compared. */
const SHOWN = 10

/**
 * Removed, retired, renamed and edited scenarios, each with the baseline's standing beside its own,
 * in the comment's first lines (never folded): each is a way a break could slip past unseen.
 */
export function scenarioChangeLines(c: Comparison): string {
  const changes = c.scenarioChanges
  if (changes.length === 0) return ''
  const lines = changes.slice(0, SHOWN).map((s) => `- ${changeLine(s)}`)
  if (changes.length > SHOWN) lines.push(`- …and ${changes.length - SHOWN} more, under Not compared`)
  return `**Scenarios this pull request changed**\n\n${lines.join('\n')}`
}

function changeLine(s: ScenarioChange): string {
  const was = standing(s.before)
  const now = standing(s.after)
  switch (s.kind) {
    case 'removed':
      return `**removed** ${scenarioId(s.id)} (baseline ${was}): gone without a \`retired:\` entry, so the gate does not pass`
    case 'retired':
      return `**retired** ${scenarioId(s.id)} (baseline ${was}): ${neutralise(s.reason ?? '', 200)}`
    case 'renamed':
      return `**renamed** ${scenarioId(s.from ?? '')} → ${scenarioId(s.id)}, matched by content and compared: ${was} → ${now}`
    case 'edited':
      return `**edited** ${scenarioId(s.id)}: ${now} now, the baseline's old version ${was}`
  }
}

function standing(side: ScenarioChange['before']): string {
  return side === null ? 'not played' : side.judged === 0 ? 'no verdict' : fraction(side.passed, side.judged)
}
