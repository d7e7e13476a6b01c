import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { after, before, describe, test } from 'node:test'
import { startFakeGitHub, type FakeGitHub } from '../fakes/github-server.ts'
import { syntheticRun, writeRunRecord } from '../fakes/synthetic-run.ts'
import { sha } from '../action/steps.ts'
import { leaksOf } from './leak-search.ts'
import { API_KEY, BOT_TOKEN, everyForm, LEAKY_CONVY_YML as CONVY_YML } from './leaky-project.ts'

// Issue 23: `convy-ci publish` (the bundled CLI) masks what it sends and writes as the action does:
// the comment, the check, the markdown on stdout, the job summary it appends to, and its lines on
// stderr. The run it publishes holds the agent's token and the model key in its errors, raw and in
// every form (a run recorded by a convy-ci that masked less); the command knows them from its
// convy.yml and its environment.
const CLI = fileURLToPath(new URL('../../dist/cli.js', import.meta.url))

describe('convy-ci publish, with a run whose errors hold the secrets', () => {
  let fake: FakeGitHub
  let project: string
  let recorded: string
  let summary: string
  let result: { code: number; stdout: string; stderr: string }

  before(async () => {
    fake = await startFakeGitHub()
    project = await mkdtemp(join(tmpdir(), 'convy-publish-command-secrets-'))
    await writeFile(join(project, 'convy.yml'), CONVY_YML)
    const run = syntheticRun({ agent: 'bot', scenarios: 4, k: 3, agentErrorRate: 0.5, noVerdictRate: 0.3, seed: 23 })
    for (const attempt of run.attempts) {
      if (attempt.verdict === 'agent_error') attempt.error = `token rejected: ${everyForm(BOT_TOKEN)}`
      if (attempt.verdict === 'no_verdict') attempt.error = `invalid key ${everyForm(API_KEY)}`
    }
    recorded = run.attempts.map((a) => JSON.stringify(a)).join('\n')
    await writeRunRecord(join(project, 'results'), run)
    summary = join(project, 'summary.md')
    await writeFile(summary, '')
    const env = { PATH: process.env.PATH ?? '', HOME: project, GITHUB_TOKEN: fake.token, GITHUB_API_URL: fake.url, GITHUB_REPOSITORY: fake.world.fullName, GITHUB_STEP_SUMMARY: summary, BOT_TOKEN, CONVY_API_KEY: API_KEY }
    result = await new Promise((resolve) => {
      execFile(process.execPath, [CLI, 'publish', run.manifest.id, '--pr', '12', '--sha', sha('b'), '--comment', 'always', '--fail-on', 'failing'], { cwd: project, env, timeout: 30_000 }, (error, stdout, stderr) => {
        resolve({ code: error ? Number(error.code) : 0, stdout, stderr })
      })
    })
  })
  after(async () => {
    await fake.close()
    await rm(project, { recursive: true, force: true })
  })

  test('the run held both secrets, and its errors were posted, printed and summarised (the test is live)', async () => {
    assert.equal(result.code, 1, result.stderr)
    assert.deepEqual(fake.violations, [])
    for (const secret of [BOT_TOKEN, API_KEY]) assert.ok(leaksOf(recorded, [secret]).includes(secret), `the run holds ${secret}`)
    const [comment, ...others] = fake.world.commentsOn(12)
    assert.equal(others.length, 0)
    const forms = String.raw`\*\*\* · dXNlcjp\*\*\* · bidi \*\*\* · zero-width \*\*\* · &lt;pre&gt;authorization: Bearer \*\*\*&lt;/pre&gt; · decimal \*\*\* · html \*\*\* · percent \*\*\* · json "\*\*\*" · hex \*\*\*`
    for (const [where, text] of [['comment', comment!.body], ['check', fake.world.checkRuns[0]!.summary!], ['stdout', result.stdout], ['summary', await readFile(summary, 'utf8')]] as const) {
      assert.ok(text.includes(`agent error: token rejected: ${forms}\n`), `${where}: the agent's error, masked whole: ${text}`)
    }
  })

  test('0 occurrences of either secret, or the GitHub token, in any form in what it sent and wrote', async () => {
    const places = new Map<string, string>([
      ['stdout', result.stdout],
      ['stderr', result.stderr],
      ['summary', await readFile(summary, 'utf8')],
    ])
    for (const c of fake.world.comments) places.set(`comment ${c.id}`, c.body)
    for (const c of fake.world.checkRuns) places.set(`check run ${c.id}`, `${c.name}\n${c.title}\n${c.summary}`)
    for (const [i, request] of fake.received.entries()) places.set(`GitHub request ${i} ${request.method}`, `${request.url}\n${request.body.toString('utf8')}`)
    assert.ok(places.size >= 7)
    const leaks: string[] = []
    for (const [place, text] of places) for (const form of leaksOf(text, [BOT_TOKEN, API_KEY, fake.token])) leaks.push(`${place}: ${form}`)
    assert.deepEqual(leaks, [])
  })
})
