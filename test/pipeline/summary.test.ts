import assert from 'node:assert/strict'
import { test } from 'node:test'
import { formatSummary } from '../../src/entry/printers/summary.ts'
import { tallyRecord } from '../../src/records/tally/run-tally.ts'
import { attempt, manifest, scenario } from '../report/small-run.ts'

const REFUSED = 'could not reach POST ***/api/chat: connect ECONNREFUSED 127.0.0.1:8080'

/** The lines between the headline and the table. */
function digest(summary: string): string[] {
  const lines = summary.split('\n')
  const start = lines.indexOf('errors, most frequent first:')
  if (start < 0) return []
  return lines.slice(start + 1, lines.indexOf('', start))
}

test('the summary quotes the errors, most frequent first, the same failure at another turn counted as one', () => {
  const tally = tallyRecord({
    manifest: manifest([scenario('a'), scenario('b')]),
    attempts: [
      attempt('a', 1, 'agent_error', [null], { error: `turn 1: ${REFUSED}` }),
      attempt('a', 2, 'agent_error', [null], { error: `turn 3: ${REFUSED}` }),
      attempt('b', 1, 'agent_error', [null], { error: `turn 2: ${REFUSED}` }),
      attempt('b', 2, 'no_verdict', [1], { error: 'judge (gpt-4.1) gave no verdict: 401 Incorrect API key' }),
      attempt('b', 3, 'passed', [1]),
    ],
  })
  const summary = formatSummary('bot', tally)
  assert.match(summary, /^bot: pass rate 25% · 1 of 4 counted \(of 5 attempts\) · 3 agent errors · 1 no verdict \(convy-ci's models failed\)/m)
  assert.deepEqual(digest(summary), [`  3 × agent error: ${REFUSED}`, '  1 × no verdict: judge (gpt-4.1) gave no verdict: 401 Incorrect API key'])
  // The table still follows.
  assert.match(summary, /\n\nscenario {2}status/)
})

test('a run with no errors has no digest; a run of only errors says it has no pass rate', () => {
  const clean = formatSummary('bot', tallyRecord({ manifest: manifest([scenario('a')]), attempts: [attempt('a', 1, 'passed', [1])] }))
  assert.doesNotMatch(clean, /errors, most frequent first/)
  const broken = formatSummary('bot', tallyRecord({ manifest: manifest([scenario('a')]), attempts: [attempt('a', 1, 'agent_error', [null], { error: REFUSED })] }))
  assert.match(broken, /^bot: pass rate 0% · 0 of 1 · 1 agent error$/m)
})

test('the digest names three messages, each cut to a line, and counts the rest; an agent cannot steer the terminal through it', () => {
  const attempts = [
    ...Array.from({ length: 4 }, (_, i) => attempt('a', i + 1, 'agent_error', [null], { error: 'HTTP 500 \u001b]0;owned\u0007\u001b[2J' })),
    ...Array.from({ length: 3 }, (_, i) => attempt('a', i + 5, 'agent_error', [null], { error: 'HTTP 502' })),
    ...Array.from({ length: 2 }, (_, i) => attempt('a', i + 8, 'agent_error', [null], { error: `HTTP 503 ${'y'.repeat(1000)}` })),
    attempt('a', 10, 'agent_error', [null], { error: 'HTTP 504' }),
    attempt('a', 11, 'agent_error', [null], { error: `HTTP 400 ${'x'.repeat(1000)}` }),
  ]
  const lines = digest(formatSummary('bot', tallyRecord({ manifest: manifest([scenario('a')]), attempts })))
  assert.equal(lines.length, 4)
  assert.equal(lines[0], '  4 × agent error: HTTP 500 \\u001b]0;owned\\u0007\\u001b[2J')
  assert.equal(lines[1], '  3 × agent error: HTTP 502')
  // A page of HTML from a proxy is cut to a line's worth.
  assert.match(lines[2]!, /^ {2}2 × agent error: HTTP 503 y+… \(70\d more characters\)$/)
  assert.ok(lines[2]!.length < 360)
  assert.equal(lines[3], "  and 2 attempts with 2 other messages (report.html has each attempt's)")
  assert.ok(!lines.join('').includes('\u001b'))
})
