import { capped, count, dollars, percent, plural, seconds } from '../../views/page/format.ts'
import { forTerminal } from '../../base/shared/invisible.ts'
import { ERROR_LABEL, errorGroups, quotedErrors } from '../../records/tally/error-groups.ts'
import { passRate, runCounts } from '../../records/tally/run-counts.ts'
import { scenarioStatus, type RunTally } from '../../records/tally/run-tally.ts'

const STATUS_WORD = { failing: 'failing', flaky: 'flaky', passing: 'passing', no_verdict: 'no verdict' } as const

/** The table printed when a run ends: a row per scenario, then the totals. */
export function formatSummary(agent: string, tally: RunTally): string {
  const scenarios = [...tally.scenarios.values()].filter((s) => s.attempts.length > 0)
  const rows = scenarios.map((s) => [
    s.id,
    STATUS_WORD[scenarioStatus(s.passed, s.failed)],
    `${s.passed}/${s.passed + s.failed}`,
    s.agentErrors + s.noVerdicts ? `${s.agentErrors + s.noVerdicts}` : '',
    s.answers ? seconds(s.answerSeconds / s.answers) : '',
  ])
  const header = ['scenario', 'status', 'passed', 'errors', 'answer time']
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)))
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd()
  const counts = runCounts(tally)
  const rate = counts.judged
    ? `${percent(passRate(counts))} · ${counts.passed} of ${counts.judged}`
    : counts.notDecided === counts.attempts
      ? 'none: nothing was decided'
      : 'none: no attempt was passed or failed'
  const errors = [
    counts.agentErrors && plural(counts.agentErrors, 'agent error'),
    counts.noVerdicts && `${counts.noVerdicts} without verdict (convy-ci's models failed)`,
    counts.userErrors && `${plural(counts.userErrors, 'user error')} (the simulated user's own mistake, left out of the pass rate)`,
    counts.notDecided && `${counts.notDecided} not decided (no check, and the judge was not asked: left out of the pass rate)`,
  ].filter(Boolean)
  const facts = [...errors, cost(tally)].filter(Boolean)
  return ['', `${agent}: pass rate ${rate}${facts.length ? ` · ${facts.join(' · ')}` : ''}`, ...errorDigest(tally), '', line(header), line(widths.map((w) => '─'.repeat(w))), ...rows.map(line), ''].join('\n')
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
/** What the run cost, when a price was given for anything it used; partial sums say so. */
function cost(tally: RunTally): string {
  if (tally.costedAttempts === 0) return ''
  const partial = tally.costedAttempts < tally.attempts ? ` (${tally.costedAttempts} of ${tally.attempts} attempts priced)` : ''
  return `cost ${dollars(tally.costUsd)}${partial}`
}

