import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { readAllAttempts } from '../../src/records/journal/read-run.ts'
import { fakeReply, judgeByRule, startFakeModelServer, type FakeModelServer } from '../../src/entry/testing/fake-model-server.ts'
import { makeProject, onlyRun, runInProcess } from './harness.ts'

let models: FakeModelServer
before(async () => {
  models = await startFakeModelServer({ latencyMs: 5, user: () => 'hello ###STOP###', judge: judgeByRule(() => true) })
})
after(async () => models.close())

test('a 429 storm under a rate limit: every attempt is classified, and every try is counted', async () => {
  const dir = await makeProject({
    'convy.yml': `models:
  base_url: \${MODELS_URL}
  user: user-model
  judge: judge-model
  max_tries: 4
  rate_limits:
    user-model: { concurrency: 3, requests_per_minute: 6000 }
    judge-model: { concurrency: 3 }
`,
    'scenarios/s.yml': 'user: Say hello.\njudge: [The agent greets]\n',
  })
  // Forty 429s in a row, each asking for a 30 ms pause: most calls meet several of them.
  for (let i = 0; i < 40; i++) models.enqueue(fakeReply.error(429, 'Rate limit reached', { 'retry-after-ms': '30' }))
  const result = await runInProcess(['run', 'echo', '-k', '20', '--parallel', '8'], { cwd: dir, env: { MODELS_URL: models.url } })
  assert.ok(result.code === 0 || result.code === 1, result.stderr)

  const attempts = await readAllAttempts(await onlyRun(dir, 'echo'))
  assert.equal(attempts.length, 20, 'an attempt was lost')
  for (const attempt of attempts) {
    assert.ok(attempt.verdict === 'passed' || attempt.verdict === 'no_verdict', `attempt ${attempt.attempt}: ${attempt.verdict}`)
    if (attempt.verdict === 'no_verdict') assert.match(attempt.error ?? '', /rate|429/i)
  }
  const tries = attempts.reduce((sum, a) => sum + (a.models.user?.tries ?? 0) + (a.models.judge?.tries ?? 0), 0)
  const calls = attempts.reduce((sum, a) => sum + (a.models.user?.calls ?? 0) + (a.models.judge?.calls ?? 0), 0)
  const chatRequests = models.requests.filter((r) => r.kind !== 'other').length
  assert.equal(tries, chatRequests, 'every chat request the server saw is a counted try')
  // Each 429 is one more try; a call that never got through ends its attempt without a verdict.
  const failedCalls = attempts.filter((a) => a.verdict === 'no_verdict').length
  assert.equal(tries, calls + 40 - failedCalls)
  assert.equal(result.code, attempts.some((a) => a.verdict === 'no_verdict') ? 1 : 0)
})
