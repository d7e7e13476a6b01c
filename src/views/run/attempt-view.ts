import { count, dollars, plural, seconds } from '../page/format.ts'
import { html, trusted, type SafeHtml } from '../page/html.ts'
import { verdictBadge } from '../page/labels.ts'
import { decisionRows, decisionsMarkup } from './decisions-view.ts'
import { lazyDialogueMarkup } from './dialogue-view.ts'
import { reviewBlock } from './review-view.ts'
import type { AttemptDigest } from '../../records/tally/run-tally.ts'
import type { EndedBy } from '../../records/journal/records.ts'

/**
 * One attempt inside a scenario: its verdict and figures on one line, then every decision with its
 * reason, the error where the conversation broke, and the dialogue. Attempts that did not pass open
 * by default, since they are what a reader came for.
 */

/** How the conversation ended, in words; a conversation cut off at max_turns also gets a badge. */
const ENDINGS: Record<EndedBy, string> = {
  user_stop: 'the user ended it',
  max_turns: 'cut off at max_turns, before the user ended it',
  stop_check: 'ended at an answer that broke a fatal check',
  agent_error: 'ended by an agent error',
  model_error: "ended when convy-ci's simulated user failed",
  interrupted: 'interrupted',
  stop_if: 'ended when a stop_if claim held',
  limit: 'ended past one of its limits',
}

function summaryFacts(a: AttemptDigest): string {
  const facts = [plural(a.turns, 'user turn'), ...(a.endedBy ? [ENDINGS[a.endedBy]] : []), `${seconds(a.agentSeconds)} answering`]
  if (a.agentTokens) facts.push(`${count(a.agentTokens.input)} in / ${count(a.agentTokens.output)} out tokens`)
  if (a.failedTurn) facts.push(a.failedTurn.role === 'agent' ? `broke at answer ${a.failedTurn.nth}` : `the simulated user failed at line ${a.failedTurn.nth}`)
  if (a.agentCostUsd !== null) facts.push(`agent ${dollars(a.agentCostUsd)}`)
  if (a.costUsd !== null) facts.push(`convy-ci's models ${dollars(a.costUsd)}`)
  return facts.join(' · ')
}

function errorBlock(a: AttemptDigest): SafeHtml {
  if (a.error === null) return trusted('')
  const what = a.errorKind === 'setup' ? 'Set-up error (not counted as the agent\'s)' : a.verdict === 'agent_error' ? 'Agent error' : a.verdict === 'no_verdict' ? 'No verdict' : 'Error'
  return html`<div class="error"><strong>${what}:</strong> ${a.error}</div>`
}

/** The attempt's context as the agent got it (masked when recorded): set-up's answer and the scenario's keys. */
function contextBlock(a: AttemptDigest): SafeHtml {
  if (!a.context || Object.keys(a.context).length === 0) return trusted('')
  return html`<details class="ctx"><summary>Context</summary><pre>${JSON.stringify(a.context, null, 2)}</pre></details>`
}

/** Decisions are written out, unless a large page embeds them with the dialogue (passed attempts). */
function decisions(a: AttemptDigest): SafeHtml {
  if (a.dialogue.kind !== 'lazy' || !a.dialogue.decisions) return decisionsMarkup(decisionRows(a.claims, a.checks))
  const held = [a.claims.length ? plural(a.claims.length, 'claim') : '', a.checks.length ? plural(a.checks.length, 'check') : ''].filter(Boolean)
  return held.length ? html`<p class="note">${held.join(' and ')} held.</p>` : trusted('')
}

function dialogue(a: AttemptDigest): SafeHtml {
  if (a.dialogue.kind === 'inline') return trusted(a.dialogue.markup)
  if (a.dialogue.kind === 'lazy') return lazyDialogueMarkup(a.dialogue.id)
  return trusted('')
}

function attemptAnchor(scenarioAnchor: string, attempt: number): string {
  return `${scenarioAnchor}-a${attempt}`
}

export function renderAttempt(a: AttemptDigest, scenarioAnchor: string, open = a.verdict !== 'passed'): SafeHtml {
  const cutOff = a.endedBy === 'max_turns' ? html` <span class="badge e-cut" title="The conversation reached the scenario's max_turns before the user ended it">Cut off</span>` : ''
  return html`<details class="att" id="${attemptAnchor(scenarioAnchor, a.attempt)}" data-attempt="${a.attempt}"${trusted(open ? ' open' : '')}><summary><strong>Attempt ${a.attempt}</strong> ${verdictBadge(
    a.verdict,
  )}${cutOff} <span class="muted">${summaryFacts(a)}</span></summary><div class="att-body">${errorBlock(a)}${contextBlock(a)}${reviewBlock(a.review)}${decisions(a)}${dialogue(a)}</div></details>`
}
