import assert from 'node:assert/strict'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, describe, test } from 'node:test'
import { loadProjectConfig, projectSecrets } from '../../src/records/config/load-config.ts'

// The values the action registers with the runner and masks its outputs with, known before anything
// runs: as a run reads them (an address only for its secret parts), and without the run's errors.
const dirs: string[] = []
after(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))))

async function secretsOf(yaml: string, env: Record<string, string>): Promise<string[]> {
  const dir = await mkdtemp(join(tmpdir(), 'convy-project-secrets-'))
  dirs.push(dir)
  await writeFile(join(dir, 'convy.yml'), yaml)
  return projectSecrets(await loadProjectConfig(join(dir, 'convy.yml')), env)
}

describe('the secrets of a project', () => {
  test('every value convy.yml reads, in agents and models, whichever agent runs; an address only for its password and query values', async () => {
    const yaml = `models:
  base_url: \${GATEWAY_URL}
  api_key: \${CONVY_API_KEY}
  user: u
agents:
  bot:
    url: \${BOT_URL}/chat?key=\${BOT_KEY}
    headers: { Authorization: "Bearer \${BOT_TOKEN}", X-Extra: ["\${EXTRA}"] }
    body: { message: "{text}" }
    reply: answer
  other: agents/other.ts
`
    const env = { GATEWAY_URL: 'http://gw:gw-p4ss@127.0.0.1:1/v1?api-key=q-v4lue', CONVY_API_KEY: 'sk-key-1', BOT_URL: 'http://127.0.0.1:9', BOT_KEY: 'k&y/1', BOT_TOKEN: 'bot-token-1', EXTRA: 'extra-value' }
    assert.deepEqual((await secretsOf(yaml, env)).sort(), ['gw', 'gw-p4ss', 'q-v4lue', 'sk-key-1', 'k&y/1', 'bot-token-1', 'extra-value'].sort())
  })

  test('a variable that is not set is skipped, not an error; a default in use is no secret of the environment; OPENAI_API_KEY and proxy passwords are', async () => {
    const yaml = `models:
  user: u
agents:
  bot:
    url: http://127.0.0.1:9/chat
    headers: { Authorization: "Bearer \${MISSING}", X-Mode: "\${MODE:-plain}" }
    body: { message: "{text}" }
    reply: answer
`
    const env = { OPENAI_API_KEY: 'sk-openai-1', HTTPS_PROXY: 'http://me:pr0xy%21pw@proxy:3128' }
    assert.deepEqual((await secretsOf(yaml, env)).sort(), ['sk-openai-1', 'pr0xy%21pw', 'pr0xy!pw'].sort())
  })
})
