import assert from 'node:assert/strict'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { startFakeGitHub, type FakeGitHub } from '../fakes/github-server.ts'
import { syntheticRun } from '../fakes/synthetic-run.ts'
import { zipOf } from '../fakes/zip.ts'
import { workflowRunEvent } from '../action/events.ts'
import { describeStep, runActionStep, type ActionStepResult } from '../action/harness.ts'
import { sha } from '../action/steps.ts'
import { leaksOf } from './leak-search.ts'
import { API_KEY, BOT_TOKEN, everyForm, LEAKY_CONVY_YML as CONVY_YML } from './leaky-project.ts'

// Issue 23: the action's own sinks, with nothing masked before them. In mode: publish the pull
// request's run arrives as an artifact, data the publishing job did not write; here its errors hold
// the agent's token and the model key raw and in every form (a run of a convy-ci that masked less, or
// a run that never knew them as secrets). The run is masked as it is read, with the secrets the job
// knows (its convy.yml's), and the comment, the check, the job summary, the outputs and the log are
// masked again as they leave.

describe('mode: publish, with a pull request run whose errors hold the secrets', () => {
  let fake: FakeGitHub
  let workspace: string
  let recorded: string
  let result: ActionStepResult

  before(async () => {
    fake = await startFakeGitHub()
    workspace = await mkdtemp(join(tmpdir(), 'convy-publish-secrets-'))
    await writeFile(join(workspace, 'convy.yml'), CONVY_YML)
    const pr = fake.world.startRun({ event: 'pull_request', headBranch: 'feature', headSha: sha('f'), headRepository: 'mallory/support-bot' })
    fake.world.pulls.set(21, { number: 21, headSha: pr.headSha, headRef: 'feature', headRepository: 'mallory/support-bot', baseRef: 'main' })
    const run = syntheticRun({ agent: 'bot', scenarios: 4, k: 3, agentErrorRate: 0.5, noVerdictRate: 0.3, seed: 23 })
    run.manifest.ci = { commit: pr.headSha, branch: 'feature', pullRequest: 21 }
    for (const attempt of run.attempts) {
      if (attempt.verdict === 'agent_error') attempt.error = `token rejected: ${everyForm(BOT_TOKEN)}`
      if (attempt.verdict === 'no_verdict') attempt.error = `invalid key ${everyForm(API_KEY)}`
    }
    recorded = run.attempts.map((a) => `${JSON.stringify(a)}\n`).join('')
    const artifact = zipOf([
      { name: 'run.json', data: Buffer.from(JSON.stringify(run.manifest)), deflate: true },
      { name: 'attempts.jsonl', data: Buffer.from(recorded), deflate: true },
    ])
    fake.world.addArtifact(pr.id, 'convy-bot', artifact)
    fake.world.finishRun(pr.id, 'success')
    const publish = fake.world.startRun({ event: 'workflow_run', headBranch: 'main', headSha: sha('a') })
    result = await runActionStep(fake, {
      run: publish,
      eventName: 'workflow_run',
      payload: workflowRunEvent(fake.world, pr),
      inputs: { mode: 'publish', agent: 'bot', comment: 'always', baseline: 'none' },
      workspace,
      env: { BOT_TOKEN, CONVY_API_KEY: API_KEY },
    })
  })
  after(async () => {
    await fake.close()
    await rm(workspace, { recursive: true, force: true })
  })

  test('nothing of the pull request\'s artifact is left in RUNNER_TEMP once the step ends', () => {
    assert.equal(result.code, 0, describeStep(result))
    // Before: convy-…/pull-request/bot/run.json and attempts.jsonl stayed there.
    assert.deepEqual(result.leftInTemp.filter((file) => file.split(/[\\/]/).includes('pull-request')), [])
  })

  test('the run held the secrets, and its errors were published (the test is live)', () => {
    assert.equal(result.code, 0, describeStep(result))
    assert.deepEqual(fake.violations, [])
    for (const secret of [BOT_TOKEN, API_KEY]) assert.ok(leaksOf(recorded, [secret]).includes(secret), `the artifact's run holds ${secret}`)
    const [comment, ...others] = fake.world.commentsOn(21)
    assert.equal(others.length, 0)
    // Masked as the run is read, before the comment quotes, escapes and cuts it: every form whole.
    const forms = String.raw`\*\*\* · dXNlcjp\*\*\* · bidi \*\*\* · zero-width \*\*\* · &lt;pre&gt;authorization: Bearer \*\*\*&lt;/pre&gt; · decimal \*\*\* · html \*\*\* · percent \*\*\* · json "\*\*\*" · hex \*\*\*`
    for (const [where, text] of [['comment', comment!.body], ['check', fake.world.checkRuns[0]!.summary!], ['summary', result.summary]] as const) {
      assert.ok(text.includes(`- 7 attempts, agent error: token rejected: ${forms}\n`), `${where}: the agent's error, masked: ${text}`)
      assert.ok(text.includes(`- 3 attempts, no verdict: invalid key ${forms.replace('dXNlcjp\\*\\*\\*', 'dXNlcjp\\*\\*\\*c=')}\n`), `${where}: the model error, masked`)
    }
  })

  test('0 occurrences of either secret in any form in what the job sent and wrote', () => {
    const registered = [...result.stdout.matchAll(/^::add-mask::(.*)$/gm)].map((m) => m[1])
    for (const secret of [API_KEY, BOT_TOKEN, fake.token]) assert.equal(registered.filter((value) => value === secret).length, 1, `${secret} registered with the runner: ${registered.join(', ')}`)
    const places = new Map<string, string>([
      ['step summary', result.summary],
      ['outputs', JSON.stringify(result.outputs)],
      ['stdout', result.stdout.replace(/^::add-mask::.*$/gm, '')],
      ['stderr', result.stderr],
    ])
    for (const c of fake.world.comments) places.set(`comment ${c.id}`, c.body)
    for (const c of fake.world.checkRuns) places.set(`check run ${c.id}`, `${c.name}\n${c.title}\n${c.summary}`)
    for (const [i, request] of fake.received.entries()) if (request.method !== 'GET') places.set(`GitHub request ${i}`, request.body.toString('utf8'))
    const leaks: string[] = []
    for (const [place, text] of places) for (const form of leaksOf(text, [BOT_TOKEN, API_KEY, fake.token])) leaks.push(`${place}: ${form}`)
    assert.deepEqual(leaks, [])
  })
})
