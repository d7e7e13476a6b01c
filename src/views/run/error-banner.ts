import { ERROR_LABEL, errorGroups, quotedErrors } from '../../records/tally/error-groups.ts'
import type { RunTally } from '../../records/tally/run-tally.ts'
import { capped, count, plural } from '../page/format.ts'
import { html, type SafeHtml } from '../page/html.ts'

const MESSAGE_CHARACTERS = 300

/**
 * The run's errors in their own words, most frequent first (tally/error-groups.ts), under the tiles:
 * the errors tile says how many, this says what, as the terminal's summary and the comment do. Red
 * when errors ended half the attempts or more (an agent that is not up); a few scattered errors in a
 * run that otherwise played get the quieter banner.
 */
export function renderErrorBanner(tally: RunTally): SafeHtml | '' {
  const groups = errorGroups(tally.scenarios.values())
  if (groups.length === 0) return ''
  const { quoted, otherMessages } = quotedErrors(groups)
  const items = quoted.map((g) => html`<li>${count(g.attempts)} × ${ERROR_LABEL[g.verdict]}: <code>${capped(g.message, MESSAGE_CHARACTERS)}</code></li>`)
  const errors = groups.reduce((sum, g) => sum + g.attempts, 0)
  const tone = errors * 2 >= tally.attempts ? 'banner bad' : 'banner'
  return html`<div class="${tone} errors-seen"><strong>Errors, most frequent first.</strong><ul>${items}${
    otherMessages ? html`<li>and ${plural(otherMessages, 'other message')}: each attempt's is in its scenario below</li>` : ''
  }</ul></div>`
}
