import assert from 'node:assert/strict'
import { cpSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { loadProjectConfig } from '../../src/records/config/load-config.ts'
import { prepareAgent } from '../../src/play/runner/prepare.ts'
import { ExitCode, InputError } from '../../src/base/shared/errors.ts'
import { botAnswer } from '../fakes/agent-server.ts'
import { testCertificates } from '../fakes/certificates.ts'
import { readJson, sendJson, serve, type Served } from '../fakes/serve.ts'
import { talkWith } from './protocol-contract.ts'

/**
 * Agent protocols as a user writes them in convy.yml: checked when the run is prepared (exit 2,
 * nothing runs), with `${VAR}`s, and with `tls:` paths relative to convy.yml.
 */
async function project(agents: string, env: Record<string, string> = {}, files: Record<string, string> = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'convy-agents-'))
  writeFileSync(join(dir, 'convy.yml'), `agents:\n${agents}`)
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content)
  const config = await loadProjectConfig(join(dir, 'convy.yml'))
  return { dir, prepare: (name: string) => prepareAgent(config, name, env, { canStripTypes: false }) }
}

describe('agent protocols in convy.yml', () => {
  test('each protocol takes its own keys; a misspelt one is named with the keys it takes', async () => {
    const { prepare } = await project(`  bot:\n    protocol: ai-sdk\n    url: http://localhost:3000/api/chat\n    token: [a, b]\n`)
    await assert.rejects(prepare('bot'), (error: unknown) => error instanceof InputError && /convy\.yml:5: .*token.*tokens/s.test(error.message))
  })

  test('a generic stream needs delta or text; tls cert and key go together', async () => {
    const { prepare } = await project(`  sse:\n    protocol: sse\n    url: http://localhost/s\n    body: {}\n  mtls:\n    protocol: openai-chat\n    url: https://localhost/v1\n    model: m\n    tls: { cert: client.crt }\n`)
    await assert.rejects(prepare('sse'), /set `delta` \(a piece of text in each event\) or `text`/)
    await assert.rejects(prepare('mtls'), /tls\.cert and tls\.key go together/)
  })

  test('a tls path that does not exist stops the run before it starts, with exit code 2', async () => {
    const { prepare } = await project(`  bot:\n    protocol: a2a\n    url: https://localhost:8443\n    tls: { ca: certs/corporate-ca.pem }\n`)
    await assert.rejects(prepare('bot'), (error: unknown) => {
      assert.ok(error instanceof InputError)
      assert.equal(error.exitCode, ExitCode.BadInput)
      assert.match(error.message, /agent "bot": tls\.ca: no such file \(.*certs\/corporate-ca\.pem\)/)
      return true
    })
  })

  test('a file that is not a certificate is a configuration error too', async () => {
    const { prepare } = await project(`  bot:\n    protocol: langgraph\n    url: https://localhost:2024\n    tls: { ca: ca.pem }\n`, {}, { 'ca.pem': 'not a certificate' })
    await assert.rejects(prepare('bot'), (error: unknown) => error instanceof InputError && /agent "bot": tls\.ca: ca\.pem holds no PEM certificate/.test(error.message))
  })

  describe('a JSON agent over mutual TLS, with a header from the environment', () => {
    let server: Served
    const seen: { authorization?: string }[] = []
    before(async () => {
      server = await serve(async (req, res) => {
        const body = await readJson(req)
        seen.push({ authorization: req.headers.authorization })
        sendJson(res, 200, { answer: botAnswer([String(body['message'])]) })
      }, testCertificates())
    })
    after(() => server.close())

    test('answers with the CA and client certificate of convy.yml', async () => {
      const { dir, prepare } = await project(
        `  bot:\n    url: ${server.url}/chat\n    headers: { Authorization: "Bearer \${BOT_TOKEN}" }\n    body: { message: "{text}" }\n    reply: answer\n    tls: { ca: certs/ca.crt, cert: certs/client.crt, key: certs/client.key }\n`,
        { BOT_TOKEN: 'secret-token' },
      )
      cpSync(testCertificates().dir, join(dir, 'certs'), { recursive: true })
      const prepared = await prepare('bot')
      assert.equal(prepared.kind, 'json')
      const [answer] = await talkWith(prepared.agent, ['hello'])
      assert.equal(answer?.text, botAnswer(['hello']))
      assert.equal(seen.at(-1)?.authorization, 'Bearer secret-token')
      assert.deepEqual(prepared.secrets, ['secret-token'])
    })
  })
})
