import { capped, count, dollars, plural, seconds } from '../../views/page/format.ts'
import { forTerminal } from '../../base/shared/invisible.ts'
import { ERROR_LABEL, errorGroups, quotedErrors } from '../../records/tally/error-groups.ts'
import { passRate, runCounts } from '../../records/tally/run-counts.ts'
import { passRateWords, undecidedCount, UNDECIDED_WORD } from '../../views/page/verdict-words.ts'
import { scenarioStatus, type RunTally, type ScenarioTally } from '../../records/tally/run-tally.ts'
import { answerSecondsOf } from '../../records/tally/answer-time.ts'

const STATUS_WORD = { failing: 'failing', flaky: 'flaky', passing: 'passing', ...UNDECIDED_WORD } as const

/** The table printed when a run ends: a row per scenario, then the totals. */
export function formatSummary(agent: string, tally: RunTally): string {
  const scenarios = [...tally.scenarios.values()].filter((s) => s.attempts.length > 0)
  const rows = scenarios.map((s) => [
    s.id,
    STATUS_WORD[scenarioStatus(s)],
    s.passed + s.failed + s.agentErrors ? `${s.passed}/${s.passed + s.failed + s.agentErrors}` : '–',
    s.agentErrors + s.noVerdicts ? `${s.agentErrors + s.noVerdicts}` : '',
    answerTime(s),
  ])
  const header = ['scenario', 'status', 'passed', 'errors', 'answer time']
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)))
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd()
  const counts = runCounts(tally)
  const rate = passRateWords({ ...counts, rate: passRate(counts.scenarios) })
  const errors = [
    counts.agentErrors && undecidedCount('agent_error', counts.agentErrors),
    counts.noVerdicts && `${undecidedCount('no_verdict', counts.noVerdicts)} (convy-ci's models failed)`,
    counts.userErrors && `${undecidedCount('user_error', counts.userErrors)} (the simulated user's own mistake, left out of the pass rate)`,
    counts.notDecided && `${undecidedCount('not_decided', counts.notDecided)} (no check, and the judge was not asked: left out of the pass rate)`,
  ].filter(Boolean)
  const facts = [...errors, cost(tally)].filter(Boolean)
  return ['', `${agent}: pass rate ${rate}${facts.length ? ` · ${facts.join(' · ')}` : ''}`, ...errorDigest(tally), '', line(header), line(widths.map((w) => '─'.repeat(w))), ...rows.map(line), ''].join('\n')
}

/** The median over attempts of their answer time, as every surface gives it; empty without one. */
function answerTime(s: ScenarioTally): string {
  const time = answerSecondsOf(s.attempts)
  return time === null ? '' : seconds(time)
}

const DIGEST_MESSAGE_CHARACTERS = 300

/** The errors' own words, most frequent first (tally/error-groups.ts), escaped for the terminal. */
function errorDigest(tally: RunTally): string[] {
  const groups = errorGroups(tally.scenarios.values())
  if (groups.length === 0) return []
  const { quoted, otherMessages, otherAttempts } = quotedErrors(groups)
  const lines = quoted.map((g) => `  ${count(g.attempts)} × ${ERROR_LABEL[g.verdict]}: ${forTerminal(capped(g.message, DIGEST_MESSAGE_CHARACTERS))}`)
  if (otherMessages) lines.push(`  and ${plural(otherAttempts, 'attempt')} with ${plural(otherMessages, 'other message')} (report.html has each attempt's)`)
  return ['', 'errors, most frequent first:', ...lines]
}
/**
 * What the run cost, when a price was given: the agent's own tokens at its price, and apart from it
 * convy-ci's models (the harness), never added together; partial sums say so.
 */
function cost(tally: RunTally): string {
  const scenarios = [...tally.scenarios.values()]
  const [agentUsd, agentCosted] = scenarios.reduce(([usd, n], s) => [usd + s.agentCostUsd, n + s.agentCostedAttempts], [0, 0])
  const partial = (costed: number) => (costed < tally.attempts ? ` (${costed} of ${tally.attempts} attempts priced)` : '')
  return [agentCosted ? `agent ${dollars(agentUsd)}${partial(agentCosted)}` : '', tally.costedAttempts ? `convy-ci's models ${dollars(tally.costUsd)}${partial(tally.costedAttempts)}` : '']
    .filter(Boolean)
    .join(' · ')
}

