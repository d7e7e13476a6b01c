import { passRateWords, undecidedCount, undecidedCounts } from '../page/verdict-words.ts'
import { fraction, plural } from '../page/format.ts'
import { agentHeading, commentMarker } from './compare-markdown.ts'
import { neutralise } from './neutralise.ts'
import { passRate, type RunCounts } from '../../records/tally/run-counts.ts'
import { ERROR_LABEL, quotedErrors, type ErrorGroup } from '../../records/tally/error-groups.ts'

const LISTED = 20

/**
 * What a run alone says, when there is nothing to compare it with: the job summary of a push, and
 * the comment or summary of a pull request without a baseline. Starts with the same hidden marker
 * as a comparison, so a later comparison replaces it in place. `errors` (tally/error-groups.ts) are
 * quoted, most frequent first: a first pull request whose agent did not come up says why.
 */
export function runMarkdown(
  agent: string,
  counts: RunCounts,
  options: { reportUrl: string | null; noComparison: string | null; advice?: string | null; job?: string | null; errors?: readonly ErrorGroup[] },
): string {
  const errors = [
    counts.agentErrors ? undecidedCount('agent_error', counts.agentErrors) : '',
    counts.noVerdicts ? `${undecidedCount('no_verdict', counts.noVerdicts)} (convy-ci's models failed)` : '',
    counts.userErrors ? `${undecidedCount('user_error', counts.userErrors)} (the simulated user's own mistake, left out)` : '',
    counts.notDecided ? `${undecidedCount('not_decided', counts.notDecided)} (no check, and the judge was not asked; left out)` : '',
  ].filter(Boolean)
  const notPassing = counts.scenarios.filter((s) => s.passed < s.attempts)
  const listed = notPassing.slice(0, LISTED).map((s) => `${neutralise(s.id, 100)} ${s.counted ? fraction(s.passed, s.counted) : undecidedCounts(s).join(' · ')}`)
  if (notPassing.length > LISTED) listed.push(`and ${notPassing.length - LISTED} more`)
  return [
    commentMarker(agent, options.job ?? null),
    `### ${options.noComparison ? '⬜ No baseline · ' : ''}${agentHeading(agent, options.job)}`,
    options.noComparison ? `Nothing to compare with: ${neutralise(options.noComparison, 400)}.` : '',
    // Written by convy-ci itself (what the missing baseline means, how to make one): not neutralised.
    options.advice ?? '',
    `This run: pass rate ${passRateWords({ ...counts, rate: passRate(counts.scenarios) })} over ${plural(counts.scenarios.length, 'scenario')}${errors.length ? ` · ${errors.join(' · ')}` : ''}.`,
    errorList(options.errors ?? []),
    listed.length ? `Not passing every attempt: ${listed.join(', ')}.` : '',
    options.reportUrl ? `[Full report](${options.reportUrl})` : '',
  ]
    .filter(Boolean)
    .join('\n\n')
    .concat('\n')
}

function errorList(errors: readonly ErrorGroup[]): string {
  if (errors.length === 0) return ''
  const { quoted, otherMessages } = quotedErrors(errors)
  const lines = quoted.map((e) => `- ${plural(e.attempts, 'attempt')}, ${ERROR_LABEL[e.verdict]}: ${neutralise(e.message, 200)}`)
  if (otherMessages) lines.push(`- and ${plural(otherMessages, 'other message')}, in the full report`)
  return `Errors, most frequent first:\n\n${lines.join('\n')}`
}
