import type { Comparison } from '../../verdict/comparison.ts'
import { speedLines, speedMethod } from '../compare/speed-wording.ts'
import { scenarioId } from './compare-markdown-rows.ts'

/** The comment's "Speed and cost" section: only what changed beyond noise; empty when nothing did. */
export function speedSection(c: Pick<Comparison, 'speed' | 'firstToken' | 'cost'>): string {
  const lines = speedLines(c)
  if (lines.length === 0) return ''
  const items = lines.slice(0, 10).map((line) => `- ${line.id === null ? 'Overall' : scenarioId(line.id)}: ${line.text}`)
  if (lines.length > 10) items.push(`- …and ${lines.length - 10} more, on the compare page`)
  return `**Speed and cost**\n\n${items.join('\n')}\n\n*${speedMethod(c.speed.noise)}*`
}
