import assert from 'node:assert/strict'
import { readFile, truncate, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { fakeReply, judgeAnswer, judgeByRule, startFakeModelServer, type FakeModelServer } from '../../src/entry/testing/fake-model-server.ts'
import { STOP_WORD } from '../../src/play/simulated-user/simulated-user-prompt.ts'
import { readManifest } from '../../src/records/journal/read-run.ts'
import { startFakeAgentServer, type FakeAgentServer } from '../fakes/agent-server.ts'
import { readLabels } from '../../src/records/calibration/labels.ts'
import { FAKE_MODELS_AND_BOT_YML, makeProject, runInProcess } from './harness.ts'

const REFUND = `user: Ask for a refund, then stop.
judge:
  - The agent answered politely
  - The agent named the refund amount
max_turns: 2
`
const SHIPPING = `user: Ask when the parcel ships, then stop.
judge:
  - The agent gave a shipping date
max_turns: 2
`

/**
 * judge-check end to end: a run judged by a fake judge (judge-model) whose decisions are known —
 * "politely" and "shipping" hold, "refund amount" does not — then labels that disagree with it on
 * known claims, checked from the recorded decisions and by asking another fake judge (other-judge,
 * which says every claim holds). Every figure is computed by hand in the comments.
 */
describe('convy-ci judge-check', () => {
  let models: FakeModelServer
  let bot: FakeAgentServer
  let dir: string
  let runId: string
  before(async () => {
    models = await startFakeModelServer({
      user: ({ dialogue }) => (dialogue.length === 0 ? 'hello, a question' : STOP_WORD),
      judge: judgeByRule((claim) => ({ pass: !claim.includes('refund amount'), reason: `judge-model on "${claim}"` })),
      handler: (request) => (request.model === 'other-judge' && request.judge ? fakeReply.text(judgeAnswer(request.judge.claims.map(() => ({ pass: true, reason: 'other-judge: <b>holds</b>' })))) : undefined),
    })
    bot = await startFakeAgentServer()
    dir = await makeProject({ 'convy.yml': FAKE_MODELS_AND_BOT_YML, 'scenarios/refund.yml': REFUND, 'scenarios/shipping.yml': SHIPPING })
    const played = await cli('run', 'support_bot', '-k', '3', '--parallel', '1')
    runId = /run (support_bot\/\S+)/.exec(played.stdout + played.stderr)![1]!
  })
  after(async () => {
    await models.close()
    await bot.close()
  })

  const cli = (...argv: string[]) => runInProcess(argv, { cwd: dir, env: { CONVY_BASE_URL: models.url, BOT_URL: bot.url } })
  const judgeCalls = (model: string) => models.requests.filter((r) => r.kind === 'judge' && (r.body as { model?: string }).model === model).length
  const label = (scenario: string, attempt: number, claim: number, holds: boolean, note?: string) => JSON.stringify({ run: runId, scenario, attempt, claim, holds, ...(note ? { note } : {}) })

  // The person: refund claim 1 holds in attempts 1 and 2, not in 3; refund claim 2 holds in attempt 1
  // only; shipping holds in all three. Against judge-model (claim 1 yes, claim 2 no, shipping yes):
  // both hold 5, the judge passes what fails 1 (refund 3/1), fails what holds 1 (refund 1/2), both fail 2.
  const labels = () => [
    label('refund', 1, 1, true),
    label('refund', 2, 1, true),
    label('refund', 3, 1, false, 'rude at the end'),
    label('refund', 1, 2, true),
    label('refund', 2, 2, false),
    label('refund', 3, 2, false),
    label('shipping', 1, 1, true),
    label('shipping', 2, 1, true),
    label('shipping', 3, 1, true),
  ]

  test("a label's note holding a secret the project reads is printed masked", async () => {
    const key = 'sk-typed-in-a-note-0123'
    const noted = labels().map((line, i) => (i === 2 ? label('refund', 3, 1, false, `rude; key was ${key}`) : line))
    await writeFile(join(dir, 'labels-noted.jsonl'), `${noted.join('\n')}\n`)
    const checked = await runInProcess(['judge-check', 'labels-noted.jsonl', '--out', 'noted-calibration.json'], { cwd: dir, env: { CONVY_BASE_URL: models.url, BOT_URL: bot.url, OPENAI_API_KEY: key } })
    assert.equal(checked.code, 0, checked.stdout + checked.stderr)
    assert.match(checked.stdout, /your note: rude; key was \*\*\*/)
    assert.ok(!`${checked.stdout}${checked.stderr}`.includes(key))
  })

  test('the recorded decisions: agreement 7/9, holding 5/6, failing 2/3, κ 0.5, two disagreements with the judge’s reasons; calibration.json names the run’s judge', async () => {
    await writeFile(join(dir, 'labels.jsonl'), `${labels().join('\n')}\n`)
    const before = models.requests.length
    const checked = await cli('judge-check', 'labels.jsonl')
    assert.equal(checked.code, 0, checked.stdout + checked.stderr)
    assert.equal(models.requests.length, before, 'no model was called')
    assert.match(checked.stdout, /agreement +78% \[45%, 94%\] +7 of 9/)
    assert.match(checked.stdout, /on holding claims +83% \[44%, 97%\] +5 of 6/)
    assert.match(checked.stdout, /on failing claims +67% \[21%, 94%\] +2 of 3/)
    // pₒ = 7/9, pₑ = (6/9)² + (3/9)² = 5/9: κ = (7/9 − 5/9)/(4/9) = 0.5.
    assert.match(checked.stdout, /Cohen's κ +0\.50 \[/)
    assert.match(checked.stdout, /disagreements \(2\):/)
    assert.match(checked.stdout, /refund attempt 3, claim 1 .*you said it does not hold/)
    assert.match(checked.stdout, /judge's reason: judge-model on "The agent answered politely"/)
    assert.match(checked.stdout, /your note: rude at the end/)
    assert.match(checked.stdout, /refund attempt 1, claim 2 .*you said it holds/)

    const calibration = JSON.parse(await readFile(join(dir, 'calibration.json'), 'utf8'))
    const manifest = await readManifest(join(dir, 'results', runId))
    assert.deepEqual(calibration.judge, { model: 'judge-model', prompt: manifest.prompts!.judge, temperature: 0, samples: 1 })
    assert.equal(calibration.decisions, 'recorded')
    assert.equal(calibration.overall.labels, 9)
    assert.equal(calibration.overall.agreement.value, 7 / 9)
    assert.equal(calibration.overall.onHolding.value, 5 / 6)
    assert.equal(calibration.overall.onFailing.value, 2 / 3)
    assert.ok(Math.abs(calibration.overall.kappa.value - 0.5) < 1e-12)
    assert.equal(calibration.disagreements, 2)
    assert.deepEqual(calibration.labels.runs, [runId])
    // Per scenario: shipping agrees on all 3 (one answer throughout: κ undefined); refund 4 of 6.
    const refund = calibration.scenarios.find((s: { id: string }) => s.id === 'refund')
    assert.equal(refund.figures.agreement.value, 4 / 6)
    assert.equal(calibration.scenarios.find((s: { id: string }) => s.id === 'shipping').figures.kappa, null)
  })

  test('--json prints the same figures and every disagreement as data', async () => {
    await writeFile(join(dir, 'labels.jsonl'), `${labels().join('\n')}\n`)
    const checked = await cli('judge-check', 'labels.jsonl', '--json')
    assert.equal(checked.code, 0, checked.stderr)
    const data = JSON.parse(checked.stdout)
    assert.equal(data.overall.labels, 9)
    assert.deepEqual(
      data.disagreements.map((d: { scenario: string; attempt: number; claim: number; holds: boolean }) => [d.scenario, d.attempt, d.claim, d.holds]),
      [
        ['refund', 3, 1, false],
        ['refund', 1, 2, true],
      ],
    )
  })

  test('--judge asks another judge about the labelled dialogues: one that says every claim holds disagrees on refund 3/1, 2/2 and 3/2', async () => {
    await writeFile(join(dir, 'labels.jsonl'), `${labels().join('\n')}\n`)
    const before = judgeCalls('other-judge')
    const checked = await cli('judge-check', 'labels.jsonl', '--judge', 'other-judge', '--samples', '3', '--out', 'other.json')
    assert.equal(checked.code, 0, checked.stdout + checked.stderr)
    assert.equal(judgeCalls('other-judge') - before, 6 * 3, 'six labelled attempts, three samples each')
    // Both hold 6, the judge passes what fails 3: pₒ = 6/9 = pₑ, so κ = 0.
    assert.match(checked.stdout, /agreement +67% .* 6 of 9/)
    assert.match(checked.stdout, /Cohen's κ +0\.00 \(no interval: the judge or the labels gave one answer throughout/)
    assert.match(checked.stdout, /disagreements \(3\):/)
    assert.match(checked.stdout, /judge's reason: other-judge: <b>holds<\/b>/)
    const calibration = JSON.parse(await readFile(join(dir, 'other.json'), 'utf8'))
    assert.equal(calibration.judge.model, 'other-judge')
    assert.equal(calibration.judge.samples, 3)
    assert.equal(calibration.decisions, 'asked')
  })

  test('a label naming no recorded attempt, scenario, claim or run is an error at its line, exit 2, before anything is written', async () => {
    const bad = [labels()[0], label('refund', 7, 1, true), label('billing', 1, 1, true), label('refund', 1, 3, false), JSON.stringify({ run: 'support_bot/nope', scenario: 'refund', attempt: 1, claim: 1, holds: true })]
    await writeFile(join(dir, 'bad.jsonl'), `${bad.join('\n')}\n`)
    const checked = await cli('judge-check', 'bad.jsonl', '--out', 'bad-calibration.json')
    assert.equal(checked.code, 2)
    assert.match(checked.stderr, /bad\.jsonl:2: run support_bot\/\S+ has no recorded attempt 7 of scenario "refund"/)
    assert.match(checked.stderr, /bad\.jsonl:3: run \S+ has no recorded scenario "billing"/)
    assert.match(checked.stderr, /bad\.jsonl:4: scenario "refund" of run \S+ has no claim 3 \(it has claims 1 to 2\)/)
    assert.match(checked.stderr, /bad\.jsonl:5: no recorded run "support_bot\/nope"/)
    await assert.rejects(readFile(join(dir, 'bad-calibration.json')))
  })

  test('a malformed line is an error at its line; a later label of the same decision replaces an earlier one', async () => {
    await writeFile(join(dir, 'broken.jsonl'), `${labels()[0]}\n{"run": "x", "scenario": "refund", "attempt": 0, "claim": 1, "holds": true}\nnot json\n`)
    const broken = await cli('judge-check', 'broken.jsonl')
    assert.equal(broken.code, 2)
    assert.match(broken.stderr, /broken\.jsonl:2: attempt: /)
    assert.match(broken.stderr, /broken\.jsonl:3: not a JSON object/)

    await writeFile(join(dir, 'twice.jsonl'), `${[label('refund', 1, 2, true), ...labels().slice(1, 3), label('refund', 1, 2, false)].join('\n')}\n`)
    const twice = await cli('judge-check', 'twice.jsonl', '--json', '--out', 'twice.json')
    assert.equal(twice.code, 0, twice.stderr)
    const data = JSON.parse(twice.stdout)
    assert.equal(data.replaced, 1)
    assert.equal(data.overall.labels, 3)
    assert.equal(data.disagreements.length, 1, 'refund 1/2 is now labelled as failing, as the judge decided')
  })

  test('a labels file past 64 MiB is refused by its size, a missing one as not found, both exit 2', async () => {
    await writeFile(join(dir, 'big.jsonl'), `${labels()[0]}\n`)
    // Sparse: 65 MiB on paper, nothing written.
    await truncate(join(dir, 'big.jsonl'), 65 * 2 ** 20)
    const big = await cli('judge-check', 'big.jsonl')
    assert.equal(big.code, 2)
    assert.match(big.stderr, /big\.jsonl: 65 MiB; a labels file is at most 64 MiB/)
    const missing = await cli('judge-check', 'missing.jsonl')
    assert.equal(missing.code, 2)
    assert.match(missing.stderr, /missing\.jsonl: not found/)
  })

  test('labels are read a line at a time, and an abort stops the reading at once, with its reason', async () => {
    const path = join(dir, 'many.jsonl')
    await writeFile(path, `${labels().join('\n')}\n`.repeat(20_000))
    const read = await readLabels('many.jsonl', path)
    assert.equal(read.labels.length, labels().length)
    assert.equal(read.replaced, labels().length * 19_999)
    const stop = new AbortController()
    const reading = readLabels('many.jsonl', path, stop.signal)
    stop.abort(new Error('interrupted'))
    await assert.rejects(reading, /^Error: interrupted$/)
  })
})
