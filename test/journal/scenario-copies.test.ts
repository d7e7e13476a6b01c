import assert from 'node:assert/strict'
import { readFile, writeFile } from 'node:fs/promises'
import { basename, join } from 'node:path'
import { test } from 'node:test'
import { createMask, MASKED } from '../../src/base/shared/secrets.ts'
import { maskScenarioCopies, restoreScenarioCopies } from '../../src/records/journal/scenario-copies.ts'
import type { Scenario } from '../../src/records/scenario/scenario.ts'
import { readAllAttempts } from '../../src/records/journal/read-run.ts'
import { allText, makeProject, onlyRun, runInProcess } from '../cli/harness.ts'

const CARD = '4111 1111 1111 1111'
const TOKEN = 'tok-9f8e7d6c5b4a'

test('a scenario copy is masked in its texts only, and read back from its file while the file says the same', () => {
  const scenario = { id: 'pay', script: [`my card is ${CARD}`, `token ${TOKEN} ok`], maxTurns: 4, context: { pin: TOKEN } } as unknown as Scenario
  const [copy] = maskScenarioCopies([scenario], createMask([TOKEN, CARD]))
  assert.deepEqual(copy, { id: 'pay', script: [`my card is ${MASKED}`, `token ${MASKED} ok`], maxTurns: 4, context: { pin: MASKED } })
  assert.deepEqual(restoreScenarioCopies([copy!], new Map([['pay', scenario]])), { scenarios: [scenario], masked: [] })
  // The file now says something else: the copy is played as recorded, and named.
  const edited = { ...scenario, script: ['another line', `token ${TOKEN} ok`] } as unknown as Scenario
  assert.deepEqual(restoreScenarioCopies([copy!], new Map([['pay', edited]])), { scenarios: [copy], masked: ['pay'] })
  assert.deepEqual(restoreScenarioCopies([copy!], new Map()), { scenarios: [copy], masked: ['pay'] })
})

test('convy-ci run: a card typed in a scenario is masked in the run folder by redact:, and a resume plays what the file says', async () => {
  const project = await makeProject({
    'convy.yml': `redact:\n  - '\\b\\d{4}(?:[ -]?\\d{4}){3}\\b'\n  - '[a-z0-9._%+-]+@[a-z0-9.-]+\\.[a-z]{2,}'\nagents: {}\n`,
    // The echo agent answers what it was told: the check (8 digits, no card to redact) passes only if the agent was sent the card itself.
    'scenarios/pay.yml': `script:\n  - "pay with ${CARD} and mail ann@example.com"\nchecks:\n  - contains: "1111 1111"\n`,
  })
  const first = await runInProcess(['run', 'echo', '-k', '2'], { cwd: project })
  assert.equal(first.code, 0, first.stderr)
  const dir = await onlyRun(project, 'echo')
  const everything = await allText(dir)
  for (const leak of ['4111', 'ann@example.com']) assert.ok(!everything.includes(leak), `${leak} in the run folder`)
  assert.ok(everything.includes(`pay with ${MASKED} and mail ${MASKED}`))
  assert.deepEqual((await readAllAttempts(dir)).map((a) => a.verdict), ['passed', 'passed'])

  // Stopped before any attempt: the resume plays the scenario from its file, so the card reaches the agent.
  const runJson = JSON.parse(await readFile(join(dir, 'run.json'), 'utf8')) as { state: string; finishedAt: string | null }
  await writeFile(join(dir, 'run.json'), JSON.stringify({ ...runJson, state: 'interrupted', finishedAt: null }))
  await writeFile(join(dir, 'attempts.jsonl'), '')
  const resumed = await runInProcess(['resume', `echo/${basename(dir)}`], { cwd: project })
  assert.equal(resumed.code, 0, resumed.stderr)
  assert.deepEqual((await readAllAttempts(dir)).map((a) => a.verdict), ['passed', 'passed'])
  assert.ok(!(await allText(dir)).includes('4111'))
})
