import assert from 'node:assert/strict'
import { test } from 'node:test'
import { mkdtemp, readdir } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { readAllAttempts } from '../../src/records/journal/read-run.ts'
import { makeProject, onlyRun, runInProcess } from './harness.ts'

// Issue 24: an error says which address failed and where it came from, and still masks what can
// carry a secret (issue 23).
const API_KEY = 'sk-place-key-8421'

test('a wrong gateway address from .env: the error shows it, names the variable, .env and the config file used', async () => {
  const dir = await makeProject({
    'convy2.yml': `models:\n  base_url: \${CONVY_BASE_URL}\n  api_key: \${CONVY_API_KEY}\n  user: u\n  judge: j\nagents:\n  bot: { url: "http://127.0.0.1:1/chat", body: { message: "{text}" }, reply: answer }\n`,
    '.env': `CONVY_BASE_URL=http://127.0.0.1:1/v1\nCONVY_API_KEY=${API_KEY}\n`,
    'scenarios/a.yml': 'user: Say hello.\njudge: [The agent greets]\n',
  })
  const result = await runInProcess(['run', 'bot', '--config', 'convy2.yml'], { cwd: dir, env: {} })
  assert.equal(result.code, 2, result.stderr)
  assert.match(result.stderr, /the model gateway at http:\/\/127\.0\.0\.1:1\/v1 cannot be reached \(ECONNREFUSED\); check models\.base_url in convy2\.yml \(CONVY_BASE_URL=http:\/\/127\.0\.0\.1:1\/v1 \(from \.env\)\)/)
  assert.ok(!result.stderr.includes(API_KEY))
})

test('a password or key inside the address is still masked; the rest of it is shown', async () => {
  const dir = await makeProject({
    'convy.yml': 'models:\n  base_url: ${CONVY_BASE_URL}\n  user: u\n  judge: j\nagents:\n  bot: { url: "http://127.0.0.1:1/chat", body: { message: "{text}" }, reply: answer }\n',
    'scenarios/a.yml': 'user: Say hello.\njudge: [The agent greets]\n',
  })
  const result = await runInProcess(['run', 'bot'], { cwd: dir, env: { CONVY_BASE_URL: 'http://gw:pa55w0rd-x@127.0.0.1:1/v1?api-key=k3y-in-query' } })
  assert.equal(result.code, 2, result.stderr)
  assert.match(result.stderr, /the model gateway at http:\/\/gw:\*\*\*@127\.0\.0\.1:1\/v1\?api-key=\*\*\* cannot be reached/)
  assert.match(result.stderr, /\(CONVY_BASE_URL=http:\/\/gw:\*\*\*@127\.0\.0\.1:1\/v1\?api-key=\*\*\*\)/)
  assert.ok(!result.stderr.includes('pa55w0rd') && !result.stderr.includes('k3y-in-query'))
})

test('the agent down: the attempt’s error names the address it called, the token in it masked', async () => {
  const dir = await makeProject({
    'convy.yml': 'agents:\n  bot:\n    url: ${BOT_URL}/api/chat?token=${BOT_TOKEN}\n    body: { message: "{text}" }\n    reply: answer\n',
    'scenarios/a.yml': 'script: [hello]\nchecks: [{contains: hi}]\n',
  })
  const result = await runInProcess(['run', 'bot'], { cwd: dir, env: { BOT_URL: 'http://127.0.0.1:1', BOT_TOKEN: 'bot-t0ken-77' } })
  assert.equal(result.code, 1, result.stderr)
  const [attempt] = await readAllAttempts(await onlyRun(dir, 'bot'))
  assert.equal(attempt!.verdict, 'agent_error')
  assert.match(attempt!.error ?? '', /http:\/\/127\.0\.0\.1:1\/api\/chat\?token=\*\*\*/)
  assert.ok(!`${JSON.stringify(attempt)}${result.stdout}${result.stderr}`.includes('bot-t0ken-77'))
})

test('run from a folder inside the project reads the nearest convy.yml above it and says which; with none anywhere it says so', async () => {
  const dir = await makeProject({
    'convy.yml': 'agents: {}\n',
    'scenarios/hello.yml': 'script: [hi]\nchecks: [{contains: hi}]\n',
  })
  const inside = await runInProcess(['run', 'echo'], { cwd: join(dir, 'scenarios') })
  assert.equal(inside.code, 0, inside.stderr)
  assert.match(inside.stderr, /using \.\.\/convy\.yml \(the nearest convy\.yml above this folder\)/)
  assert.equal((await readdir(join(dir, 'results', 'echo'))).length, 1, 'the run folder is made in the project, not in the working folder')

  const empty = await mkdtemp(join(tmpdir(), 'convy-no-project-'))
  const outside = await runInProcess(['run', 'echo'], { cwd: empty })
  assert.equal(outside.code, 2)
  assert.match(outside.stderr, /no convy\.yml in .*convy-no-project-.* or any folder above it; run `convy-ci init`/)
})

test('a dead proxy is named as the proxy, with the variable it came from and its password masked; not blamed on the gateway', async () => {
  const dir = await makeProject({
    // A gateway off this machine (loopback always goes straight, proxy or not); through a proxy, only the proxy is dialled.
    'convy.yml': 'models:\n  base_url: http://gateway.invalid/v1\n  user: u\n  judge: j\nagents:\n  bot: { url: "http://127.0.0.1:1/chat", body: { message: "{text}" }, reply: answer }\n',
    'scenarios/a.yml': 'user: Say hello.\njudge: [The agent greets]\n',
  })
  // Port 1 on loopback: nothing listens there, so the proxy refuses at once.
  const result = await runInProcess(['run', 'bot'], { cwd: dir, env: { HTTP_PROXY: 'http://me:pr0xy-pass@127.0.0.1:1' } })
  assert.equal(result.code, 2, result.stderr)
  assert.match(result.stderr, /the proxy at http:\/\/me:\*\*\*@127\.0\.0\.1:1\/ \(from HTTP_PROXY\) cannot be reached \(ECONNREFUSED\) on the way to the model gateway at http:\/\/gateway\.invalid\/v1; check HTTP_PROXY, or set `proxy: none` under models: in convy\.yml/)
  assert.doesNotMatch(result.stderr, /check models\.base_url|OPENAI_BASE_URL/)
  assert.ok(!result.stderr.includes('pr0xy-pass'))
})
