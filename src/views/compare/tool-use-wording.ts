import type { Comparison } from '../../verdict/comparison.ts'
import type { ToolUseChange } from '../../verdict/tool-use.ts'
import { fraction, pEquals } from '../page/format.ts'
import { html, type SafeHtml } from '../page/html.ts'

/**
 * A tool-use change in words, for the comment and the compare page alike. Tool names, argument
 * names and values came from the agent: they are kept apart as `agent` pieces, for the markdown to
 * neutralise and the page to escape; the rest is convy-ci's own text.
 */
export type Piece = { text: string } | { agent: string }

/** Per scenario, at most this many are told; the compare page's scenario lists them all. */
export const TOOL_CHANGES_SHOWN = 3

/** The changes of one scenario, most certain first; none when it has none. */
export function toolChangesOf(c: Pick<Comparison, 'toolUse'>, id: string): readonly ToolUseChange[] {
  return c.toolUse.scenarios.find((s) => s.id === id)?.changes ?? []
}

const counts = (change: ToolUseChange) => `${fraction(change.before.attempts, change.before.of)} → ${fraction(change.after.attempts, change.after.of)} attempts`

/**
 * "get_order no longer called: 5/5 → 0/5 attempts (p = 0.004)"; "refund: amount 20 → 25 (5/5 → 0/5
 * attempts with 20, p = 0.004)". A change that did not survive the correction says so.
 */
export function toolChangePieces(change: ToolUseChange): Piece[] {
  const tool = { agent: change.tool }
  const p = change.significant ? pEquals(change.p) : `${pEquals(change.p)}: possible, not beyond noise after correction`
  switch (change.kind) {
    case 'dropped':
      return [tool, { text: ` no longer called: ${counts(change)} (${p})` }]
    case 'new':
      return [tool, { text: ` newly called: ${counts(change)} (${p})` }]
    case 'fewer':
      return [tool, { text: ` called in fewer attempts: ${counts(change)} (${p})` }]
    case 'more':
      return [tool, { text: ` called in more attempts: ${counts(change)} (${p})` }]
    case 'arguments': {
      const { key, before, after } = change.argument!
      const head: Piece[] = [tool, { text: ': ' }, { agent: key }, { text: ' ' }]
      if (before !== null && after !== null) return [...head, { agent: before }, { text: ' → ' }, { agent: after }, { text: ` (${counts(change)} with the old value, ${p})` }]
      if (before !== null) return [...head, { text: 'no longer ' }, { agent: before }, { text: ` (${counts(change)}, ${p})` }]
      return [...head, { text: 'now ' }, { agent: after ?? '' }, { text: ` (${counts(change)}, ${p})` }]
    }
  }
}

/** The pieces as plain text: for tests and the terminal. */
export function toolChangeText(change: ToolUseChange): string {
  return toolChangePieces(change)
    .map((piece) => ('agent' in piece ? piece.agent : piece.text))
    .join('')
}

/** The pieces as HTML: the agent's words escaped and set in code. */
export function toolChangeHtml(change: ToolUseChange): SafeHtml {
  return html`${toolChangePieces(change).map((piece) => ('agent' in piece ? html`<code>${piece.agent.slice(0, 200)}</code>` : piece.text))}`
}

/** A scenario's "Tool use" block on the compare page; empty when nothing changed. */
export function toolUseBlock(changes: readonly ToolUseChange[]): SafeHtml {
  if (changes.length === 0) return html``
  return html`<h3>Tool use</h3><p class="note">Attempts that called each tool, before and after; an argument counts the attempts that called the tool with that value. One-sided Fisher tests, Tarone-corrected across the comparison.</p><ul class="tooluse">${changes.map(
    (change) => html`<li>${toolChangeHtml(change)}</li>`,
  )}</ul>`
}
