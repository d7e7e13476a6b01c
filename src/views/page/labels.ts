import type { Verdict } from '../../records/journal/records.ts'
import { html, type SafeHtml } from './html.ts'
import type { ScenarioStatus } from '../../records/tally/run-tally.ts'

/** The words on the pages for each status and verdict: a colour never carries meaning alone. */
export const STATUS_LABEL: Record<ScenarioStatus, string> = {
  failing: 'Failing',
  flaky: 'Flaky',
  passing: 'Passing',
  agent_error: 'Agent error',
  no_verdict: 'No verdict',
  user_error: 'User error',
  not_decided: 'Not decided',
}

/** Failing first: the order a reader wants to work through them in. */
export const STATUS_ORDER: readonly ScenarioStatus[] = ['failing', 'flaky', 'agent_error', 'no_verdict', 'user_error', 'not_decided', 'passing']

/** Statuses of scenarios with no passed or failed attempt. */
export const UNDECIDED_STATUSES: readonly ScenarioStatus[] = ['agent_error', 'no_verdict', 'user_error', 'not_decided']

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
