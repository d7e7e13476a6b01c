import assert from 'node:assert/strict'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { fakeReply, judgeByRule, startFakeModelServer, type FakeModelServer } from '../../src/entry/testing/fake-model-server.ts'
import type { UserReviewRequest } from '../../src/play/conversation/dialogue.ts'
import { STOP_WORD } from '../../src/play/simulated-user/simulated-user-prompt.ts'
import { readAllAttempts } from '../../src/records/journal/read-run.ts'
import type { Attempt, RunManifest } from '../../src/records/journal/records.ts'
import { readTally } from '../../src/records/tally/read-tally.ts'
import { passRate, runCounts } from '../../src/records/tally/run-counts.ts'
import { makeProject, onlyRun, runInProcess } from './harness.ts'

const convyYml = (review?: boolean) => `models:
  base_url: \${CONVY_BASE_URL}
  api_key: test-key
  user: user-model
  judge: judge-model
  max_tries: 1
${review === undefined ? '' : `  review: ${review}\n`}agents: {}
`

// Both users hold the destination back; the "blurts" one gives everything away in its first line,
// the "keeps" one plays by its instructions. The echo agent never asks anything, so the claim fails
// in both: only the first failure is the simulated user's doing.
const HOLD_BACK = 'You need a backup script. Give the destination, /mnt/backup, only when asked.'
const SCENARIOS = {
  'scenarios/blurts.yml': `user: "${HOLD_BACK} (blurts)"\njudge: [The agent asked where to back up to]\n`,
  'scenarios/keeps.yml': `user: "${HOLD_BACK} (keeps)"\njudge: [The agent asked where to back up to]\n`,
  'scenarios/passes.yml': 'user: "Say hi. (keeps)"\njudge: [The agent answered]\n',
}

describe('the review of failed attempts puts the simulated user’s own mistakes on it', () => {
  let models: FakeModelServer
  const reviewed: UserReviewRequest[] = []
  before(async () => {
    models = await startFakeModelServer({
      user: ({ instructions, dialogue }) => {
        if (dialogue.length > 0) return STOP_WORD
        return instructions.endsWith('(blurts)') ? 'Write me a daily backup script for ~/photos to /mnt/backup' : 'Write me a backup script'
      },
      judge: judgeByRule((claim) => (claim === 'The agent answered' ? true : { pass: false, reason: 'The agent never asked for the destination.' })),
      // By rule, as a careful reviewer would: a first line that hands over what the instructions hold back.
      review: (request) => {
        reviewed.push(request)
        const first = request.dialogue.find((line) => line.role === 'user')?.text ?? ''
        return first.includes('/mnt/backup')
          ? { mistakes: [{ kind: 'revealed_early', line: 1, note: 'gave "/mnt/backup" before the agent asked' }], reason: 'The agent had no chance to ask.', decided: true }
          : { mistakes: [], reason: 'The user played by the instructions; the agent never asked.', decided: false }
      },
    })
  })
  after(() => models.close())

  async function play(args: string[], yml = convyYml(), files: Record<string, string> = SCENARIOS) {
    models.reset()
    reviewed.length = 0
    const project = await makeProject({ 'convy.yml': yml, ...files })
    const result = await runInProcess(['run', 'echo', ...args], { cwd: project, env: { CONVY_BASE_URL: models.url } })
    assert.equal(result.code, 0, result.stderr)
    const dir = await onlyRun(project, 'echo')
    const all = await readAllAttempts(dir)
    // The attempts as planned; the replays of user_error attempts apart.
    const attempts = new Map(all.filter((a) => a.replayOf === undefined).map((a): [string, Attempt] => [a.scenario, a]))
    const replays = all.filter((a) => a.replayOf !== undefined)
    const manifest = JSON.parse(await readFile(join(dir, 'run.json'), 'utf8')) as RunManifest
    return { project, dir, attempts, replays, manifest, stdout: result.stdout, page: await readFile(join(dir, 'report.html'), 'utf8') }
  }

  test('a scripted simulator mistake is attributed: user_error, out of the pass rate; a failure the agent caused stays failed', async () => {
    const { dir, attempts, replays, manifest, page } = await play([])
    assert.equal(manifest.settings.review, true, 'on by default')
    // The user_error attempt is played once more with a fresh simulated user, unreviewed: the replay's verdict is what counts.
    assert.deepEqual(replays.map((a) => [a.scenario, a.attempt, a.replayOf, a.verdict, a.review]), [['blurts', 2, 1, 'failed', undefined]])
    const blurts = attempts.get('blurts')!
    assert.equal(blurts.verdict, 'user_error')
    assert.deepEqual(blurts.review, {
      model: 'judge-model',
      mistakes: [{ kind: 'revealed_early', line: 1, note: 'gave "/mnt/backup" before the agent asked' }],
      reason: 'The agent had no chance to ask.',
      decided: true,
      error: null,
    })
    assert.equal(blurts.claims[0]!.pass, false, "the judge's decision is kept as it was")
    const keeps = attempts.get('keeps')!
    assert.equal(keeps.verdict, 'failed')
    assert.equal(keeps.review?.decided, false)
    assert.equal(attempts.get('passes')!.verdict, 'passed')
    assert.equal(attempts.get('passes')!.review, undefined, 'a passed attempt is not reviewed')

    // One review per failed attempt, the replay's excepted, and it saw the hidden instructions, the dialogue and why it failed.
    assert.equal(models.requests.filter((r) => r.kind === 'review').length, 2)
    const request = reviewed.find((r) => r.instructions.endsWith('(blurts)'))!
    assert.equal(request.instructions, `${HOLD_BACK} (blurts)`)
    assert.deepEqual(request.dialogue.map((line) => line.role), ['user', 'agent'])
    assert.deepEqual(request.failures, ['The claim "The agent asked where to back up to" does not hold. The judge: The agent never asked for the destination.'])
    assert.equal(request.ending, 'the simulated user ended it')
    assert.equal(blurts.models.review?.calls, 1)
    assert.ok(blurts.models.review!.tokens.input > 0)

    // The one tally: neither passed nor failed, counted apart.
    const counts = runCounts(await readTally(dir))
    assert.deepEqual([counts.passed, counts.failed, counts.judged, counts.userErrors], [1, 2, 3, 1])
    assert.equal(passRate(counts.scenarios), 1 / 3)

    assert.match(page, /class="badge v-user_error">User error</)
    assert.match(page, /<strong>revealed everything early<\/strong> \(user line 1\)/)
    assert.match(page, /Review of the simulated user<\/dt><dd>on: failed attempts reviewed by judge-model/)
    assert.match(page, /1 user error left out/)
    // The header counts the k planned attempts of each scenario; the replay is said apart, not as "4 of 3".
    assert.match(page, /Attempts<\/dt><dd>3 of 3 \(3 scenarios × k 1\), and 1 replay of a user error with a fresh simulated user<\/dd>/)
  })

  test('--no-review, or review: false in convy.yml, reviews nothing and the report says it was off; --review turns it back on', async () => {
    for (const [args, yml] of [[['--no-review'], convyYml()], [[], convyYml(false)]] as const) {
      const { attempts, manifest, page } = await play([...args], yml)
      assert.equal(models.requests.filter((r) => r.kind === 'review').length, 0)
      assert.equal(manifest.settings.review, false)
      assert.equal(attempts.get('blurts')!.verdict, 'failed')
      assert.match(page, /Review of the simulated user<\/dt><dd>off: every failed attempt counts against the agent/)
    }
    const { attempts } = await play(['--review'], convyYml(false))
    assert.equal(attempts.get('blurts')!.verdict, 'user_error')
  })

  test('a review that fails leaves the attempt failed and says why', async () => {
    models.reset()
    // Queued replies go first: the user's two lines, the judge, then the review gets a 400.
    models.enqueue(fakeReply.text('to /mnt/backup please'), fakeReply.text(STOP_WORD), fakeReply.text('{"claims":[{"claim":1,"reason":"no","pass":false}]}'), fakeReply.error(400, 'unknown model'))
    const project = await makeProject({ 'convy.yml': convyYml(), 'scenarios/blurts.yml': SCENARIOS['scenarios/blurts.yml'] })
    const result = await runInProcess(['run', 'echo'], { cwd: project, env: { CONVY_BASE_URL: models.url } })
    assert.equal(result.code, 0, result.stderr)
    const [failed] = await readAllAttempts(await onlyRun(project, 'echo'))
    assert.equal(failed!.verdict, 'failed')
    assert.equal(failed!.review?.decided, false)
    assert.match(failed!.review!.error!, /unknown model/)
  })

  test('a scripted scenario is never reviewed: a script makes no mistakes of its own', async () => {
    const { attempts } = await play([], convyYml(), { 'scenarios/scripted.yml': 'script: [hello]\njudge: [The agent asked where to back up to]\n' })
    assert.equal(attempts.get('scripted')!.verdict, 'failed')
    assert.equal(models.requests.filter((r) => r.kind === 'review').length, 0)
  })

  test('the review is cached per attempt like the judge: a repeated run asks no model', async () => {
    const { project } = await play(['--cache', 'write'])
    models.reset()
    const again = await runInProcess(['run', 'echo', '--cache', 'read'], { cwd: project, env: { CONVY_BASE_URL: models.url } })
    assert.equal(again.code, 0, again.stderr)
    assert.equal(models.requests.filter((r) => r.kind !== 'other').length, 0)
  })
})
