import type { ComparedScenario, Comparison } from '../../verdict/comparison.ts'
import type { ToolUseChange } from '../../verdict/tool-use.ts'
import { anyFlaky, comparedScenarios, overallK, passHat, passKMeaning, scenarioKText, shownK } from '../compare/pass-k.ts'
import { TOOL_CHANGES_SHOWN, toolChangePieces, toolChangesOf } from '../compare/tool-use-wording.ts'
import { percent, points } from '../page/format.ts'
import { neutralise } from './neutralise.ts'

/**
 * The comment's share of tool use and pass^k: a scenario's tool-use changes in its "What moved" (or
 * Note) cell and in "Worth a look", a pass^k column in the scenario tables, and pass^k and pass@k
 * rows under the pass rate. Names and values from the agent go through neutralise.
 */
const NONE = '–'

export function toolChangeMarkdown(change: ToolUseChange): string {
  return toolChangePieces(change)
    .map((piece, i) => ('agent' in piece ? (i === 0 ? `**${neutralise(piece.agent, 60)}**` : neutralise(piece.agent, 60)) : piece.text))
    .join('')
}

/** "🔧 get_order no longer called: …", at most TOOL_CHANGES_SHOWN, then how many more. */
export function toolLines(changes: readonly ToolUseChange[]): string[] {
  const lines = changes.slice(0, TOOL_CHANGES_SHOWN).map((change) => `🔧 ${toolChangeMarkdown(change)}`)
  if (changes.length > TOOL_CHANGES_SHOWN) lines.push(`🔧 …and ${changes.length - TOOL_CHANGES_SHOWN} more tool changes`)
  return lines
}

/** A scenario row with its tool changes added to its last cell (What moved, or Note). */
export function withToolUse(row: string[], changes: readonly ToolUseChange[]): string[] {
  if (changes.length === 0) return row
  const last = row.at(-1)!
  const kept = last === NONE || last === '' ? [] : [last]
  return [...row.slice(0, -1), [...kept, ...toolLines(changes)].join('<br>')]
}

/**
 * The same table with a pass^k column before its last one; unchanged when no k is shown, or when no
 * scenario of the table is flaky (every cell would repeat its pass rate as 100% or 0%).
 */
export function withPassKColumn(c: Comparison, header: readonly string[], scenarios: readonly ComparedScenario[], rows: string[][]): { header: string[]; rows: string[][] } {
  const k = shownK(c)
  if (k === null || !anyFlaky(scenarios)) return { header: [...header], rows }
  const at = header.length - 1
  const insert = <T>(list: readonly T[], item: T) => [...list.slice(0, at), item, ...list.slice(at)]
  return { header: insert(header, passHat(k)), rows: rows.map((row, i) => insert(row, scenarioKText(scenarios[i]!, k))) }
}

/** pass^k under the pass rate, and pass@k beside it; none when no k is shown or they would repeat the pass rate. */
export function passKRows(c: Comparison): string[][] {
  const k = shownK(c)
  if (k === null || !anyFlaky(comparedScenarios(c))) return []
  const { before, after } = overallK(c, k)
  const pct = (v: number | null) => (v === null ? NONE : percent(v))
  const change = (x: number | null, y: number | null) => (x === null || y === null ? NONE : points(y - x))
  return [
    [`${passHat(k)} (all ${k} pass)`, pct(before.hat), pct(after.hat), change(before.hat, after.hat)],
    [`pass@${k} (one of ${k} passes)`, pct(before.at), pct(after.at), change(before.at, after.at)],
  ]
}

/** The line under the tiles that says what pass^k means; empty when none is shown. */
export function passKLine(c: Comparison): string {
  const k = shownK(c)
  return k === null || !anyFlaky(comparedScenarios(c)) ? '' : `*${passKMeaning(k)}*`
}

/** "Worth a look" lines for scenarios within noise whose tool use changed. */
export function toolNotes(c: Comparison, scenarios: readonly ComparedScenario[]): Map<string, string[]> {
  const notes = new Map<string, string[]>()
  for (const s of scenarios) {
    const changes = toolChangesOf(c, s.id)
    if (changes.length) notes.set(s.id, toolLines(changes))
  }
  return notes
}
