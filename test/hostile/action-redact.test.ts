import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { unzip } from '../../src/adapters/github/unzip.ts'
import { judgeByRule, startFakeModelServer, type FakeModelServer } from '../../src/entry/testing/fake-model-server.ts'
import { startFakeGitHub, type FakeGitHub } from '../fakes/github-server.ts'
import { describeStep, runActionStep, type ActionStepResult } from '../action/harness.ts'
import { pullRequestStep, sha } from '../action/steps.ts'

// Issue 36, item 3: convy.yml's redact: patterns, through the real bundle (dist/action.js: run
// `npm run build` first) on a pull request. A scenario types a card number and an e-mail address; the
// echo agent says them back; the judge quotes them in its reasons, the card as digits alone. None of
// them may reach the comment, the check, the summary, the log, the artifacts, the model cache, the
// workspace, RUNNER_TEMP or the requests to convy-ci's models.
const CARD = '4111 1111 1111 1111'
const EMAIL = 'ann.lee@example.com'

const FILES: Record<string, string> = {
  'convy.yml': `models:
  base_url: \${CONVY_BASE_URL}
  api_key: test-key
  judge: judge-model
redact:
  - '\\b\\d{4}(?:[ -]?\\d{4}){3}\\b'
  - '[a-z0-9._%+-]+@[a-z0-9.-]+\\.[a-z]{2,}'
`,
  'scenarios/pay.yml': `script:\n  - "pay with ${CARD}, receipt to ${EMAIL}"\njudge:\n  - The agent repeated the card number\n`,
}

/** The forms searched: as typed, the card without spaces, the address percent-encoded and upper-cased. */
const FORMS = [CARD, CARD.replaceAll(' ', ''), EMAIL, EMAIL.replace('@', '%40'), EMAIL.toUpperCase()]

async function filesUnder(dir: string): Promise<Map<string, string>> {
  const files = new Map<string, string>()
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) files.set(join(entry.parentPath, entry.name), await readFile(join(entry.parentPath, entry.name), 'utf8'))
  }
  return files
}

async function blobText(data: Buffer): Promise<string> {
  if (data.subarray(0, 4).toString('latin1') === 'PK\x03\x04') {
    const dir = await mkdtemp(join(tmpdir(), 'convy-redact-zip-'))
    await unzip(data, dir)
    const text = [...(await filesUnder(dir)).values()].join('\n')
    await rm(dir, { recursive: true, force: true })
    return text
  }
  if (data.length >= 4 && data.readUInt32LE(0) === 0xfd2fb528) return execFileSync('zstd', ['-d', '-c'], { input: data, maxBuffer: 256 * 2 ** 20 }).toString('utf8')
  return data.toString('utf8')
}

describe('redact: through the action bundle on a pull request', () => {
  let fake: FakeGitHub
  let models: FakeModelServer
  let workspace: string
  let runnerTemp: string
  let result: ActionStepResult

  before(async () => {
    fake = await startFakeGitHub()
    models = await startFakeModelServer({
      judge: judgeByRule((_claim, dialogue) => ({ pass: false, reason: `it said ${CARD.replaceAll(' ', '')} and ${EMAIL}; quoted: ${dialogue.map((line) => line.text).join(' | ')}` })),
    })
    workspace = await mkdtemp(join(tmpdir(), 'convy-redact-workspace-'))
    runnerTemp = await mkdtemp(join(tmpdir(), 'convy-redact-temp-'))
    for (const [path, text] of Object.entries(FILES)) {
      await mkdir(dirname(join(workspace, path)), { recursive: true })
      await writeFile(join(workspace, path), text)
    }
    const run = fake.world.startRun({ event: 'pull_request', headBranch: 'pay', headSha: sha('c') })
    const inputs = { agent: 'echo', attempts: '2', comment: 'always', 'fail-on': 'failing' }
    result = await runActionStep(fake, pullRequestStep(fake, workspace, { number: 8, run, inputs }, { env: { CONVY_BASE_URL: models.url, RUNNER_TEMP: runnerTemp } }))
  })
  after(async () => {
    await fake.close()
    await models.close()
    await rm(workspace, { recursive: true, force: true })
    await rm(runnerTemp, { recursive: true, force: true })
  })

  test('0 occurrences of the card or the address anywhere the action writes, sends or leaves', async () => {
    assert.equal(result.code, 1, describeStep(result))
    assert.equal(fake.world.commentsOn(8).length, 1, describeStep(result))
    assert.ok(models.requests.some((r) => r.kind === 'judge'))
    const places = new Map<string, string>()
    for (const [i, request] of fake.received.entries()) places.set(`GitHub request ${i} ${request.method} ${request.url}`, `${request.url}\n${await blobText(request.body)}`)
    for (const [key, blob] of fake.world.blobs) if (blob.data) places.set(`GitHub blob ${key}`, await blobText(blob.data))
    for (const c of fake.world.comments) places.set(`comment ${c.id}`, c.body)
    for (const c of fake.world.checkRuns) places.set(`check run ${c.id}`, `${c.title}\n${c.summary}`)
    places.set('step summary', result.summary)
    places.set('outputs', JSON.stringify(result.outputs))
    places.set('stdout', result.stdout)
    places.set('stderr', result.stderr)
    // The workspace but for the scenario file, which holds what the user typed.
    for (const [file, text] of await filesUnder(workspace)) if (!file.endsWith('pay.yml')) places.set(file, text)
    for (const [file, text] of await filesUnder(runnerTemp)) places.set(file, text)
    places.set('model requests', JSON.stringify(models.requests.map((r) => r.body)))
    assert.ok([...places.keys()].some((place) => place.endsWith('report.html')), 'the report was written')
    assert.ok([...places.values()].some((text) => text.includes('pay with ***, receipt to ***')), 'the masked line is there: the test is live')
    const leaks: string[] = []
    for (const [place, text] of places) for (const form of FORMS) if (text.includes(form)) leaks.push(`${place}: ${form}`)
    assert.deepEqual(leaks, [])
  })
})
