import type { SimulatorMistake, UserReview } from '../../records/journal/records.ts'
import { html, trusted, type SafeHtml } from '../page/html.ts'

/** The reviewer's tags in a reader's words. */
const MISTAKE_WORDS: Record<SimulatorMistake['kind'], string> = {
  revealed_early: 'revealed everything early',
  invented_fact: 'invented a fact',
  stopped_early: 'stopped before the agent acted',
  broke_character: 'broke character',
  ignored_instructions: 'ignored its instructions',
}

/**
 * What the review of a failed attempt found about the simulated user: the user error that took it
 * out of the pass rate, minor mistakes that left the failure with the agent, or a review that failed.
 * The reviewer's words are model text: escaped like the rest.
 */
export function reviewBlock(review: UserReview | null): SafeHtml {
  if (review === null) return trusted('')
  const by = html`<span class="muted">Reviewed by ${review.model}.</span>`
  if (review.error !== null) return html`<div class="note">The review of the simulated user failed, so this attempt counts as failed: ${review.error} ${by}</div>`
  const mistakes = review.mistakes.length
    ? html`<ul>${review.mistakes.map((m) => html`<li><strong>${MISTAKE_WORDS[m.kind]}</strong> (user line ${m.line}): ${m.note}</li>`)}</ul>`
    : ''
  const head = review.decided
    ? html`<strong>User error:</strong> the simulated user's own mistake decided this attempt, so it is left out of the pass rate.`
    : review.mistakes.length
      ? html`<strong>Reviewed:</strong> the simulated user's mistakes did not decide this attempt; it counts as failed.`
      : html`<strong>Reviewed:</strong> the simulated user made no mistake; the failure is the agent's.`
  return html`<div class="review${review.decided ? ' decided' : ''}">${head} ${review.reason} ${by}${mistakes}</div>`
}
