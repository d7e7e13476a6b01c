import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { renderRunReport } from '../../src/views/run/run-report.ts'
import { scenarioStatus } from '../../src/records/tally/run-tally.ts'
import { emptyVerdictCounts, type VerdictCounts } from '../../src/records/journal/verdict-counts.ts'
import { attempt, manifest, scenario, smallRun } from './small-run.ts'

/** The tiles as a reader sees them: label → "value unit | sub", tags stripped. */
function tiles(page: string): Map<string, string> {
  const found = new Map<string, string>()
  const pattern = /<div class="tile"><div class="label">(.*?)<\/div><div class="value">(.*?)<\/div><div class="sub">(.*?)<\/div>/g
  for (const [, label, value, sub] of page.matchAll(pattern)) found.set(label!, `${text(value!)} | ${text(sub!)}`)
  return found
}

function text(markup: string): string {
  return markup.replace(/<[^>]+>/g, '').replace(/&#39;/g, "'").replace(/&amp;/g, '&').trim()
}

function sectionText(page: string, heading: string): string {
  const start = page.indexOf(`<h2>${heading}</h2>`)
  return text(page.slice(start, page.indexOf('<h2>', start + 4)))
}

describe('tiles of a run counted by hand', () => {
  const { manifest: m, attempts } = smallRun()
  const page = renderRunReport({ manifest: m, attempts })
  const t = tiles(page)

  test('pass rate: the mean of the scenarios\' rates, agent errors counted as not passed, with the Wilson interval of the pooled counts', () => {
    // A 3/3, B 1/3 (an agent error counts), C 0/2, D 0/1 (no verdicts left out): (1 + 1/3 + 0 + 0) / 4 = 33%.
    // Pooled 4/9 differs, so the words say "mean over scenarios". Wilson on 4/9, z = 1.96: 0.1889 … 0.7333.
    assert.equal(t.get('Pass rate'), '33% · 4 of 9 counted (of 12 attempts) · mean over scenarios | 95% interval 19–73% · 3 no verdict left out')
  })

  test('stable scenarios: A alone passed every attempt, of the three with a verdict', () => {
    assert.equal(t.get('Stable scenarios'), '1 of 3 | passed every attempt · 1 flaky · 1 always failing · 1 agent error')
  })

  test("answer time: the median over attempts of each one's mean answer time, agent errors left out", () => {
    // Per attempt: A 3 (2 and 4), 1, 3; B 2, 6 (B3 an agent error); C 9, 1, 2; D 2, 2 (D1 an agent error).
    // Sorted 1 1 2 2 2 2 3 3 6 9 → median 2.0 s, as the compare page and the speed test take it; slowest 9 s (C, attempt 1).
    assert.equal(t.get('Answer time'), '2.0 s median per attempt | slowest 9.0 s (C, attempt 1)')
  })

  test('tokens per attempt: over the attempts that reported them', () => {
    // (1000 + 2000 + 3000) / 3 in, (200 + 400 + 600) / 3 out.
    assert.equal(t.get('Tokens per attempt'), "2,000 / 400 | in / out, the agent's own, reported in 3 of 12 attempts")
  })

  test('errors: agent errors and attempts the models left without a verdict', () => {
    assert.equal(t.get('Errors'), "5 of 12 | 2 agent errors · 3 no verdict (convy-ci's models failed)")
  })

  test("cost: convy-ci's priced model calls added up, apart from the agent's (unpriced here: no tile)", () => {
    // 0.125 + 0.25 + 0.5
    assert.equal(t.get('convy-ci cost')?.split(' | ')[0], '$0.88')
    assert.equal(t.get('Agent cost'), undefined)
  })

  test('reliability: pass^k up to the smallest graded count, and scenarios by stability', () => {
    // Graded: A 3/3, B 1/2, C 0/2 → k ≤ 2. pass^1 = (1 + 1/2 + 0)/3; pass^2 = (C(3,2)/C(3,2) + 0 + 0)/3.
    const reliability = sectionText(page, 'Reliability')
    assert.match(reliability, /pass1 50%\s*pass2 33%/)
    assert.doesNotMatch(reliability, /pass3/)
    assert.match(reliability, /Always passing 1\s*Flaky 1\s*Always failing 1\s*Agent error 1/)
  })

  test('each claim says in how many attempts it held', () => {
    assert.match(text(page), /The agent asked for the order number\s*held in 1 of 2 attempts/)
  })

  test('scenarios are listed failing first, each with its status as a word', () => {
    const rows = [...page.matchAll(/data-status="([a-z_]+)" data-search="([^"]*)"/g)].map((r) => `${r[2]!.split(' ')[0]}:${r[1]}`)
    assert.deepEqual(rows, ['c:failing', 'b:flaky', 'd:agent_error', 'a:passing'])
    for (const word of ['Failing', 'Flaky', 'No verdict', 'Passing']) assert.ok(page.includes(`>${word}</span>`))
  })

  test('without prices there is no cost tile', () => {
    const unpriced = renderRunReport({ manifest: { ...m, models: { ...m.models, prices: {} } }, attempts: attempts.map((a) => ({ ...a, models: { user: null, judge: null } })) })
    assert.equal(tiles(unpriced).has('Cost'), false)
  })
})

describe('large pages', () => {
  test("a passed attempt's decisions travel with its dialogue; any other attempt keeps them in the HTML", () => {
    const { manifest: m, attempts } = smallRun()
    const page = renderRunReport({ manifest: m, attempts, dialogues: 'lazy' })
    const markup = page.slice(0, page.indexOf('</main>'))
    const data = page.slice(page.indexOf('</main>'))
    assert.ok(!markup.includes('asked in turn 2') && data.includes('asked in turn 2'), 'passed: reason in the data only')
    assert.ok(markup.includes('never asked') && !data.includes('never asked'), 'failed: reason in the HTML')
    assert.match(text(markup), /1 claim held\./)
  })
})

describe('scenario status', () => {
  test('only passed and failed attempts decide it', () => {
    const counts = (c: Partial<VerdictCounts>): VerdictCounts => ({ ...emptyVerdictCounts(), ...c })
    assert.equal(scenarioStatus(counts({ passed: 3, agentErrors: 1 })), 'passing')
    assert.equal(scenarioStatus(counts({ failed: 2 })), 'failing')
    assert.equal(scenarioStatus(counts({ passed: 1, failed: 1 })), 'flaky')
    // Nothing passed or failed: the status says why, one word per reason.
    assert.equal(scenarioStatus(counts({ agentErrors: 2, noVerdicts: 1 })), 'agent_error')
    assert.equal(scenarioStatus(counts({ noVerdicts: 1, notDecided: 2 })), 'no_verdict')
    assert.equal(scenarioStatus(counts({ userErrors: 1 })), 'user_error')
    assert.equal(scenarioStatus(counts({ notDecided: 3 })), 'not_decided')
  })

  test('a scenario whose only verdicts passed is Passing despite agent errors', () => {
    const m = manifest([scenario('S')])
    const page = renderRunReport({ manifest: m, attempts: [attempt('S', 1, 'passed', [1]), attempt('S', 2, 'agent_error', [null])] })
    assert.match(page, /data-status="passing"/)
    assert.match(text(page), /1 of 1 · 1 agent error/)
  })

  test('an empty run says so rather than showing zeros as results', () => {
    const page = renderRunReport({ manifest: manifest([scenario('S')], { state: 'running', finishedAt: null }), attempts: [] })
    assert.equal(tiles(page).get('Pass rate'), 'none · no attempts | ')
    assert.match(page, /No attempt has been recorded yet/)
    assert.match(page, /Still running/)
  })
})
