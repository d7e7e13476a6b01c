import assert from 'node:assert/strict'
import { test } from 'node:test'
import { createWaits, sayEachSilence, trackedJudge, trackedRoles } from '../../src/play/runner/waits.ts'
import type { Judge } from '../../src/play/conversation/roles.ts'
import type { Agent } from '../../src/play/agents/agent.ts'
import type { Scenario } from '../../src/records/scenario/scenario.ts'

const scenario = { id: 's' } as Scenario

test("the agent's answers and the judge's decisions are tracked; the longest silence is the party waited on longest since it last answered", async () => {
  let now = Date.parse('2026-12-05T08:00:00Z')
  const waits = createWaits(() => now)
  let release!: () => void
  const agent: Agent = { conversation: () => ({ answer: () => new Promise<{ text: string }>((resolve) => (release = () => resolve({ text: 'hi' }))) }) }
  const judge: Judge = { model: 'gpt-4.1', decide: async () => [] }
  const roles = trackedRoles({ agent, user: null, judge }, 'bot', waits.track)
  const conversation = await roles.agent.conversation({} as never)
  const answering = conversation.answer('hello', {} as never)
  now += 5_000
  await roles.judge!.decide(scenario, [], {} as never)
  assert.deepEqual(waits.longestSilence(), { who: 'the agent "bot"', since: Date.parse('2026-12-05T08:00:00Z'), calls: 1 })
  release()
  assert.deepEqual(await answering, { text: 'hi' })
  assert.equal(waits.longestSilence(), null)
})

test('judge-check --judge: a hanging judge is said once, after 15 s, with since when', () => {
  let now = Date.parse('2026-12-05T08:00:00Z')
  const waits = createWaits(() => now)
  const judge = trackedJudge({ model: 'slow-judge', decide: () => new Promise(() => undefined) }, waits.track)
  void judge.decide(scenario, [], {} as never)
  const said: string[] = []
  const silences = sayEachSilence(waits, () => now, (line) => said.push(line), 60_000)
  now += 14_999
  silences.check()
  assert.deepEqual(said, [])
  now += 1
  silences.check()
  now += 10_000
  silences.check()
  silences.stop()
  assert.deepEqual(said, ['the judge (slow-judge) has answered nothing for 0:15 (since 08:00:00 UTC, 1 call waiting)'])
})
