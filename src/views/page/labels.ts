import type { Verdict } from '../../records/journal/records.ts'
import { html, type SafeHtml } from './html.ts'
import type { ScenarioStatus } from '../../records/tally/run-tally.ts'

/** The words on the pages for each status and verdict: a colour never carries meaning alone. */
export const STATUS_LABEL: Record<ScenarioStatus, string> = {
  failing: 'Failing',
  flaky: 'Flaky',
  passing: 'Passing',
  no_verdict: 'No verdict',
}

/** Failing first: the order a reader wants to work through them in. */
export const STATUS_ORDER: readonly ScenarioStatus[] = ['failing', 'flaky', 'no_verdict', 'passing']

const VERDICT_LABEL: Record<Verdict, string> = {
  passed: 'Passed',
  failed: 'Failed',
  agent_error: 'Agent error',
  no_verdict: 'No verdict',
  user_error: 'User error',
  not_decided: 'Not decided',
}

export function statusBadge(status: ScenarioStatus): SafeHtml {
  return html`<span class="badge s-${status}">${STATUS_LABEL[status]}</span>`
}

export function verdictBadge(verdict: Verdict): SafeHtml {
  return html`<span class="badge v-${verdict}">${VERDICT_LABEL[verdict]}</span>`
}
