import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { gunzipSync } from 'node:zlib'
import { after, before, describe, test } from 'node:test'
import { unzip } from '../../src/adapters/github/unzip.ts'
import { fakeReply, judgeByRule, startFakeModelServer, type FakeModelServer } from '../../src/entry/testing/fake-model-server.ts'
import { startFakeGitHub, type FakeGitHub } from '../fakes/github-server.ts'
import { startHostileAgent, tokenForms, type HostileAgent } from '../fakes/hostile-agent.ts'
import { describeStep, runActionStep, type ActionStepResult } from '../action/harness.ts'
import { pullRequestStep, sha } from '../action/steps.ts'
import { leaksOf } from './leak-search.ts'

// Issue 23: what the action itself sends and writes — the comment, the check run, the artifacts and
// the cache it uploads, its outputs, the job summary, its log and annotations, and what it leaves in
// the workspace and RUNNER_TEMP — holds no secret in any form, after every clean-up and cut. The real
// bundle (dist/action.js: run `npm run build` first) plays a pull request's run against an agent that
// echoes its token raw, split by a bidi override and a zero-width space, as HTML entities, %xx, \u
// escapes, hex and base64, and in its errors, and a gateway that quotes the API key in its 400 and in
// the judge's reasons.
const BOT_TOKEN = 'Cn4ry-b0t-t0ken-9f8e7d'
const API_KEY = 'sk-Cn4ry-m0del-key-31337'

const FILES: Record<string, string> = {
  'convy.yml': `models:
  base_url: \${CONVY_BASE_URL}
  api_key: \${CONVY_API_KEY}
  user: user-model
  judge: judge-model
agents:
  bot:
    url: \${BOT_URL}/chat
    headers: { Authorization: "Bearer \${BOT_TOKEN}" }
    body: { message: "{text}" }
    reply: answer
`,
  'scenarios/echo.yml': 'script: [echo]\njudge:\n  - The agent quoted nothing secret\n',
  'scenarios/forms.yml': 'script: [forms]\njudge:\n  - The agent answered\n',
  'scenarios/reject.yml': 'script: [reject]\njudge:\n  - The agent answered\n',
  'scenarios/gateway.yml': 'script: [hello]\njudge:\n  - The gateway answered\n',
}

/** Each form a hostile server writes the key in, as one text (the judge's reason, a gateway's error). */
const keyForms = () => [`raw ${API_KEY}`, `base64 ${Buffer.from(`user:${API_KEY}`).toString('base64')}`, ...tokenForms(API_KEY)].join('\n')

/** Every file under a folder, as text. */
async function filesUnder(dir: string): Promise<Map<string, string>> {
  const files = new Map<string, string>()
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) files.set(join(entry.parentPath, entry.name), await readFile(join(entry.parentPath, entry.name), 'utf8'))
  }
  return files
}

/** What a blob holds, unpacked as far as it goes: a zip's files, a cache's tar (zstd or gzip), or itself. */
async function blobText(data: Buffer): Promise<string> {
  if (data.subarray(0, 4).toString('latin1') === 'PK\x03\x04') {
    const dir = await mkdtemp(join(tmpdir(), 'convy-leak-zip-'))
    await unzip(data, dir)
    const text = [...(await filesUnder(dir)).values()].join('\n')
    await rm(dir, { recursive: true, force: true })
    return text
  }
  if (data.length >= 4 && data.readUInt32LE(0) === 0xfd2fb528) return execFileSync('zstd', ['-d', '-c'], { input: data, maxBuffer: 256 * 2 ** 20 }).toString('utf8')
  if (data[0] === 0x1f && data[1] === 0x8b) return gunzipSync(data).toString('utf8')
  return data.toString('utf8')
}

describe('what the action sends and writes, with an agent and a gateway that echo the secrets', () => {
  let fake: FakeGitHub
  let agent: HostileAgent
  let models: FakeModelServer
  let workspace: string
  let runnerTemp: string
  let result: ActionStepResult
  let runId: number

  before(async () => {
    fake = await startFakeGitHub()
    agent = await startHostileAgent()
    models = await startFakeModelServer({
      // The judge fails the claim, with a reason that quotes the key in every form and the dialogue it was sent.
      judge: judgeByRule((_claim, dialogue) => ({ pass: false, reason: `key ${keyForms()}\nquoted: ${dialogue.map((line) => line.text).join(' | ')}` })),
      // The gateway refuses the judge of one scenario, quoting the key split by a bidi override.
      handler: (request) => (request.judge?.claims.some((claim) => claim.includes('gateway')) ? fakeReply.error(400, `invalid key ${API_KEY.slice(0, 5)}\u202E${API_KEY.slice(5)}`) : undefined),
    })
    workspace = await mkdtemp(join(tmpdir(), 'convy-leak-workspace-'))
    runnerTemp = await mkdtemp(join(tmpdir(), 'convy-leak-temp-'))
    for (const [path, text] of Object.entries(FILES)) {
      await mkdir(dirname(join(workspace, path)), { recursive: true })
      await writeFile(join(workspace, path), text)
    }
    const run = fake.world.startRun({ event: 'pull_request', headBranch: 'leaky', headSha: sha('c') })
    runId = run.id
    const inputs = { agent: 'bot', attempts: '2', comment: 'always', 'fail-on': 'failing' }
    const env = { BOT_URL: agent.url, BOT_TOKEN, CONVY_BASE_URL: models.url, CONVY_API_KEY: API_KEY, RUNNER_TEMP: runnerTemp }
    result = await runActionStep(fake, pullRequestStep(fake, workspace, { number: 7, run, inputs }, { env }))
  })
  after(async () => {
    await fake.close()
    await agent.close()
    await models.close()
    await rm(workspace, { recursive: true, force: true })
    await rm(runnerTemp, { recursive: true, force: true })
  })

  test('the run met the hostile answers and errors, and posted a comment, a check, artifacts and a cache (the test is live)', () => {
    // fail-on: failing, and the judge fails every claim: the step fails, with its failure in the log.
    assert.equal(result.code, 1, describeStep(result))
    assert.deepEqual(fake.violations, [])
    const [comment, ...otherComments] = fake.world.commentsOn(7)
    assert.equal(otherComments.length, 0)
    // Quoted, masked, where people read the run (markdown escapes the stars): the agent's 401 and the gateway's 400.
    const stars = String.raw`\*\*\*`
    const [check, ...otherChecks] = fake.world.checkRuns
    assert.equal(otherChecks.length, 0)
    assert.equal(check!.conclusion, 'failure')
    for (const [where, text] of [['comment', comment!.body], ['check', check!.summary!], ['summary', result.summary]] as const) {
      assert.ok(text.includes(`token rejected: ${stars}`), `${where}: the agent's error, masked`)
      assert.ok(text.includes(`invalid key ${stars}`), `${where}: the gateway's error, masked`)
    }
    assert.equal(fake.world.artifactsOf(runId).length, 3, 'the run folder, its report and its summary')
    assert.ok(fake.world.cacheEntries.some((entry) => entry.finalized), 'the model cache was saved')
    assert.ok(models.requests.some((r) => r.kind === 'judge'))
  })

  test('0 occurrences of either secret in any form: posted to GitHub, summary, outputs, log, workspace, RUNNER_TEMP, models', async () => {
    const places = new Map<string, string>()
    fake.received.forEach((request, i) => places.set(`GitHub request ${i} ${request.method} ${request.url}`, request.url))
    for (const [i, request] of fake.received.entries()) places.set(`GitHub request ${i} body`, await blobText(request.body))
    for (const [key, blob] of fake.world.blobs) if (blob.data) places.set(`GitHub blob ${key}`, await blobText(blob.data))
    for (const c of fake.world.comments) places.set(`comment ${c.id}`, c.body)
    for (const c of fake.world.checkRuns) places.set(`check run ${c.id}`, `${c.name}\n${c.title}\n${c.summary}`)
    places.set('step summary', result.summary)
    places.set('outputs', JSON.stringify(result.outputs))
    // `::add-mask::` is core.setSecret's command to the runner, which takes it out of the log: the one
    // place the values must be, each once (the toolkit registers values of its own too).
    const registered = [...result.stdout.matchAll(/^::add-mask::(.*)$/gm)].map((m) => m[1])
    for (const secret of [API_KEY, BOT_TOKEN, fake.token]) assert.equal(registered.filter((value) => value === secret).length, 1, `${secret} registered with the runner`)
    places.set('stdout', result.stdout.replace(/^::add-mask::.*$/gm, ''))
    places.set('stderr', result.stderr)
    for (const [file, text] of await filesUnder(workspace)) places.set(file, text)
    for (const [file, text] of await filesUnder(runnerTemp)) places.set(file, text)
    // What convy-ci sent its own models: the key belongs in the Authorization header, not in a body.
    places.set('model requests', JSON.stringify(models.requests.map((r) => r.body)))
    assert.ok([...places.keys()].some((place) => place.includes(join('.convy', 'cache'))), 'the model cache was written')
    assert.ok([...places.keys()].some((place) => place.endsWith('report.html')), 'the report was written')

    const leaks: string[] = []
    for (const [place, text] of places) for (const form of leaksOf(text, [BOT_TOKEN, API_KEY, fake.token])) leaks.push(`${place}: ${form}`)
    assert.deepEqual(leaks, [])
  })
})
