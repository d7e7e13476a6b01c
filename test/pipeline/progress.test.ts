import assert from 'node:assert/strict'
import { test } from 'node:test'
import { processWriter } from '../../src/entry/cli/writer.ts'
import type { PipelineContext } from '../../src/app/pipeline/context.ts'
import { createProgress } from '../../src/entry/printers/progress.ts'
import { attempt } from '../report/small-run.ts'
import { terminalPrinters } from '../../src/entry/printers/index.ts'
import { createWaits } from '../../src/play/runner/waits.ts'

function context(interactive: boolean): { ctx: PipelineContext; stderr: string[] } {
  const stderr: string[] = []
  const ctx: PipelineContext = {
    cwd: '/',
    env: {},
    stdout: { write: () => undefined },
    stderr: { write: (text) => void stderr.push(text) },
    interactive,
    signal: new AbortController().signal,
    canStripTypes: false,
    printers: terminalPrinters,
    now: () => new Date(0),
    writer: processWriter,
  }
  return { ctx, stderr }
}

const todo = ['a', 'b', 'c'].flatMap((id) => [{ scenario: { id } }, { scenario: { id } }])
const REFUSED = 'could not reach POST ***/chat: connect ECONNREFUSED 127.0.0.1:8080'

/** Errors as a broken agent gives them: the same one at two turns, then three others. */
const attempts = [
  attempt('a', 1, 'agent_error', [null], { error: `turn 1: ${REFUSED}` }),
  attempt('a', 2, 'agent_error', [null], { error: `turn 2: ${REFUSED}` }),
  attempt('b', 1, 'no_verdict', [1], { error: 'judge (gpt-4.1) gave no verdict: 401 \u001b[31mIncorrect API key' }),
  attempt('b', 2, 'passed', [1]),
  attempt('c', 1, 'agent_error', [null], { error: 'turn 1: HTTP 500' }),
  attempt('c', 2, 'agent_error', [null], { error: 'turn 1: HTTP 502' }),
]

test('in CI, the first three distinct errors are said as they happen, before their scenario’s line', () => {
  const { ctx, stderr } = context(false)
  const progress = createProgress(ctx, 'bot', todo)
  for (const a of attempts) progress.attemptRecorded(a)
  progress.finish()
  assert.deepEqual(stderr.join('').split('\n'), [
    'bot: 6 attempts of 3 scenarios',
    `  ! agent error, first in a #1: ${REFUSED}`,
    '  ! a  2 agent errors',
    '  ! no verdict, first in b #1: judge (gpt-4.1) gave no verdict: 401 \\u001b[31mIncorrect API key',
    '  ! b  1/1 passed · 1 no verdict',
    '  ! agent error, first in c #1: HTTP 500',
    // A fourth distinct message is left to the summary.
    '  ! c  2 agent errors',
    '',
  ])
})

test('on a terminal, an error is written above the live line, which is drawn again under it', () => {
  const { ctx, stderr } = context(true)
  const progress = createProgress(ctx, 'bot', todo)
  progress.attemptRecorded(attempts[3]!)
  // Within the 100 ms between redraws: drawn again all the same, or the live line would be gone.
  progress.attemptRecorded(attempts[0]!)
  assert.deepEqual(stderr, [
    '\r\u001b[2Kbot  1/6 attempts · 100% of 1 decided passed · 0:00',
    `\r\u001b[2K  ! agent error, first in a #1: ${REFUSED}\n`,
    '\r\u001b[2Kbot  2/6 attempts · 100% of 1 decided passed · 1 agent error · 0:00',
  ])
})

test('a party that has answered nothing for 15 s is named with since when, once per silence in CI, on the live line on a terminal', async () => {
  let now = Date.parse('2026-12-05T08:00:00Z')
  const clock = () => now
  for (const interactive of [false, true]) {
    now = Date.parse('2026-12-05T08:00:00Z')
    const { ctx, stderr } = context(interactive)
    ctx.now = () => new Date(now)
    const waits = createWaits(clock)
    const progress = createProgress(ctx, 'bot', todo, waits)
    let answer!: () => void
    const call = waits.track('the agent "bot"', () => new Promise<void>((resolve) => (answer = resolve)))
    void waits.track('the judge (gpt-4.1)', () => 'decided')
    now += 14_000
    progress.tick()
    assert.ok(!stderr.join('').includes('answered nothing'), 'not before 15 s')
    now += 3_000
    progress.tick()
    progress.tick()
    const said = stderr.join('').split(/[\n\r]/).filter((line) => line.includes('answered nothing'))
    const words = 'the agent "bot" has answered nothing for 0:17 (since 08:00:00 UTC, 1 call waiting)'
    if (interactive) assert.ok(said.at(-1)!.includes(`bot  0/6 attempts · none decided yet · ${words} · 0:17`), said.at(-1))
    else assert.deepEqual(said, [`  … ${words}`])
    answer()
    await call
    now += 20_000
    const before = stderr.length
    progress.tick()
    assert.ok(!stderr.slice(before).join('').includes('answered nothing'), 'it answered: no longer silent')
    progress.finish()
  }
})
