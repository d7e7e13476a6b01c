import assert from 'node:assert/strict'
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { fakeReply, judgeByRule, startFakeModelServer, type FakeModelServer } from '../../src/entry/testing/fake-model-server.ts'
import { makeProject, runInProcess, type CliResult } from '../cli/harness.ts'
import { startHostileAgent, tokenForms, type HostileAgent } from '../fakes/hostile-agent.ts'
import { convyYml } from '../support/convy-yml.ts'
import { leaksOf } from './leak-search.ts'

// Issue 23: a secret the agent or the gateway hands back in a form a plain search misses, or split by
// a character a clean-up later drops, must appear nowhere: not in the run folder, the pages, the
// markdown, the terminal, the model cache, nor in what convy-ci sends its own models.
const BOT_TOKEN = 'Cn4ry-b0t-t0ken-9f8e7d'
const API_KEY = 'sk-Cn4ry-m0del-key-31337'

const CONVY_YML = convyYml({
  models: { apiKey: '${CONVY_API_KEY}' },
  agents: ['  bot:\n    url: ${BOT_URL}/chat\n    headers: { Authorization: "Bearer ${BOT_TOKEN}" }\n    body: { message: "{text}" }\n    reply: answer\n'],
})

/** Every form of the agent's token and the model key in `text` (leak-search.ts: read as a reader could see it). */
function leaksIn(text: string): string[] {
  return leaksOf(text, [BOT_TOKEN, API_KEY])
}

async function everythingWritten(dir: string): Promise<Map<string, string>> {
  const files = new Map<string, string>()
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile() && !entry.name.endsWith('.yml')) files.set(join(entry.parentPath, entry.name), await readFile(join(entry.parentPath, entry.name), 'utf8'))
  }
  return files
}

describe('secrets handed back in forms a plain search misses', () => {
  let agent: HostileAgent
  let models: FakeModelServer
  let dir: string
  const outputs: CliResult[] = []
  before(async () => {
    agent = await startHostileAgent()
    models = await startFakeModelServer({
      // The judge quotes the dialogue it was sent, so whatever reaches it is written back.
      judge: judgeByRule((_claim, dialogue) => ({ pass: true, reason: `quoted: ${dialogue.map((line) => line.text).join(' | ')}` })),
      // The gateway refuses the judge of one scenario, quoting the key split by a bidi override.
      handler: (request) =>
        request.judge?.claims.some((claim) => claim.includes('gateway')) ? fakeReply.error(400, `invalid key ${API_KEY.slice(0, 5)}\u202E${API_KEY.slice(5)}`) : undefined,
    })
    dir = await makeProject({
      'convy.yml': CONVY_YML,
      'scenarios/forms.yml': 'script: [forms]\njudge:\n  - The agent answered\n',
      'scenarios/reject.yml': 'script: [reject]\njudge:\n  - The agent answered\n',
      'scenarios/gateway.yml': 'script: [hello]\njudge:\n  - The gateway answered\n',
    })
    const env = { BOT_URL: agent.url, BOT_TOKEN, CONVY_BASE_URL: models.url, CONVY_API_KEY: API_KEY }
    for (const _ of [1, 2]) outputs.push(await runInProcess(['run', 'bot', '--cache', 'readwrite', '-k', '2'], { cwd: dir, env }))
    const runs = (await readdir(join(dir, 'results', 'bot'))).sort().map((stamp) => `bot/${stamp}`)
    outputs.push(await runInProcess(['compare', runs[0]!, runs[1]!], { cwd: dir, env }))
    outputs.push(await runInProcess(['compare', runs[0]!, runs[1]!, '--markdown'], { cwd: dir, env }))
  })
  after(async () => {
    await agent.close()
    await models.close()
  })

  test('the hostile answers, errors and gateway error came back (the test is live)', async () => {
    const attempts = (await readFile(join((await readdir(join(dir, 'results', 'bot'))).map((s) => join(dir, 'results', 'bot', s))[0]!, 'attempts.jsonl'), 'utf8')).split('\n').filter(Boolean)
    const text = attempts.join('\n')
    assert.match(text, /bidi \*\*\*/)
    assert.match(text, /<pre>authorization: Bearer \*\*\*<\/pre>/)
    assert.match(text, /token rejected: \*\*\*/)
    assert.match(text, /invalid key \*\*\*/)
    assert.equal(tokenForms(BOT_TOKEN).length, 8)
  })

  test('0 occurrences of either secret in any form: every file written, every output, every model request', async () => {
    const written = await everythingWritten(dir)
    assert.ok([...written.keys()].some((f) => f.endsWith('report.html')) && [...written.keys()].some((f) => f.includes(join('results', 'compare'))))
    assert.ok([...written.keys()].some((f) => f.includes(join('.convy', 'cache'))), 'the model cache was written')
    const leaks: string[] = []
    for (const [file, text] of written) for (const form of leaksIn(text)) leaks.push(`${file}: ${form}`)
    outputs.forEach((output, i) => {
      for (const form of leaksIn(`${output.stdout}\n${output.stderr}`)) leaks.push(`output ${i}: ${form}`)
    })
    // The bodies: the API key itself is in the Authorization header, where it belongs.
    assert.ok(models.requests.some((r) => r.kind === 'judge'))
    for (const form of leaksIn(JSON.stringify(models.requests.map((r) => r.body)))) leaks.push(`sent to convy-ci's models: ${form}`)
    assert.deepEqual(leaks, [])
  })
})
