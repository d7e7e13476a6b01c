import assert from 'node:assert/strict'
import { test } from 'node:test'
import { runMarkdown } from '../../src/views/markdown/publish-markdown.ts'
import { errorGroups } from '../../src/records/tally/error-groups.ts'
import { runCounts } from '../../src/records/tally/run-counts.ts'
import { tallyRecord, type RunRecord } from '../../src/records/tally/run-tally.ts'
import { attempt, manifest, scenario } from './small-run.ts'

const markdownOf = (record: RunRecord) => {
  const tally = tallyRecord(record)
  return runMarkdown('bot', runCounts(tally), { reportUrl: null, noComparison: 'no successful run of main yet', errors: errorGroups(tally.scenarios.values()) })
}

test('a first pull request whose agent did not come up says why, in the agent’s words, neutralised', () => {
  const refused = 'turn 1: could not reach POST ***/chat: connect ECONNREFUSED 127.0.0.1:8080 @team <img src=x>'
  const markdown = markdownOf({
    manifest: manifest([scenario('a'), scenario('b')]),
    attempts: [
      attempt('a', 1, 'agent_error', [null], { error: refused }),
      attempt('a', 2, 'agent_error', [null], { error: refused.replace('turn 1', 'turn 2') }),
      attempt('b', 1, 'agent_error', [null], { error: refused }),
      attempt('b', 2, 'no_verdict', [1], { error: 'judge (gpt-4.1) gave no verdict: 401 Incorrect API key' }),
    ],
  })
  assert.match(markdown, /^This run: pass rate 0% · 0 of 3 counted \(of 4 attempts\) over 2 scenarios · 3 agent errors · 1 no verdict \(convy-ci's models failed\)/m)
  const list = markdown.slice(markdown.indexOf('Errors, most frequent first:'))
  const items = list.split('\n').filter((l) => l.startsWith('- '))
  assert.equal(items.length, 2)
  assert.match(items[0]!, /^- 3 attempts, agent error: could not reach POST \\\*\\\*\\\*\/chat: connect ECONNREFUSED 127\.0\.0\.1:8080 /)
  assert.equal(items[1], '- 1 attempt, no verdict: judge \\(gpt-4.1\\) gave no verdict: 401 Incorrect API key')
  // No mention that pings a team, no HTML from the agent.
  assert.doesNotMatch(list, /@team|<img/)
  // Why comes before which; an agent error counts as not passed, so a scenario that only errored is 0 of its attempts.
  assert.ok(markdown.indexOf('Errors, most frequent first:') < markdown.indexOf('Not passing every attempt: a 0/2, b 0/1.'))
})

test('three messages at most, each cut to a line; a run without errors lists none', () => {
  const errors = ['HTTP 500', 'HTTP 502', `HTTP 503 ${'x'.repeat(1000)}`, 'HTTP 504', 'HTTP 505']
  const markdown = markdownOf({
    manifest: manifest([scenario('a')]),
    attempts: errors.map((error, i) => attempt('a', i + 1, 'agent_error', [null], { error })),
  })
  const items = markdown.split('\n').filter((l) => l.startsWith('- '))
  assert.deepEqual(items.map((l) => l.slice(0, 42)), [
    '- 1 attempt, agent error: HTTP 500',
    '- 1 attempt, agent error: HTTP 502',
    '- 1 attempt, agent error: HTTP 503 xxxxxxx',
    '- and 2 other messages, in the full report',
  ])
  assert.ok(items[2]!.length < 260, `cut: ${items[2]!.length} characters`)
  const clean = markdownOf({ manifest: manifest([scenario('a')]), attempts: [attempt('a', 1, 'passed', [1])] })
  assert.doesNotMatch(clean, /Errors, most frequent first/)
})
