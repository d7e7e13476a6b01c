import assert from 'node:assert/strict'
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { makeProject, runInProcess, type CliResult } from '../cli/harness.ts'
import { readerForms, startHostileAgent, type HostileAgent } from '../fakes/hostile-agent.ts'
import { leaksOf } from './leak-search.ts'

// Issue 36, through the real CLI: an agent that echoes its token in the forms the mask of issue 23
// let through (splits by U+034F, U+FE0F, U+E0020, U+206F, U+180B, U+17B4; `%2526`; `\\u0026`;
// 8-digit entities; `\x`; `\u{…}`; MIME base64 at 76; xxd-grouped hex; fullwidth letters), and its
// all-digit PIN as the JSON number of its usage and in fullwidth digits. Nothing of either may reach
// the run folder or the terminal.
const BOT_TOKEN = 'Cn4ry-b0t-t0ken-9f8e7d'
const BOT_PIN = '8675309123'

const CONVY_YML = `agents:
  bot:
    url: \${BOT_URL}/chat
    headers: { Authorization: "Bearer \${BOT_TOKEN}", X-Pin: "\${BOT_PIN}" }
    body: { message: "{text}" }
    reply: answer
    tokens: [usage.in, usage.out]
`

describe('secrets echoed in the forms issue 36 found unmasked, through the CLI', () => {
  let agent: HostileAgent
  let dir: string
  let output: CliResult
  let files: Map<string, string>
  before(async () => {
    agent = await startHostileAgent()
    dir = await makeProject({ 'convy.yml': CONVY_YML, 'scenarios/reader.yml': 'script: [reader]\nchecks:\n  - contains: fullwidth\n' })
    output = await runInProcess(['run', 'bot', '-k', '2'], { cwd: dir, env: { BOT_URL: agent.url, BOT_TOKEN, BOT_PIN } })
    files = new Map()
    for (const entry of await readdir(join(dir, 'results'), { recursive: true, withFileTypes: true })) {
      if (entry.isFile()) files.set(join(entry.parentPath, entry.name), await readFile(join(entry.parentPath, entry.name), 'utf8'))
    }
  })
  after(() => agent.close())

  test('the agent answered every form, and the attempts were recorded (the test is live)', () => {
    assert.equal(output.code, 0, output.stderr)
    const attempts = [...files].find(([file]) => file.endsWith('attempts.jsonl'))![1].trim().split('\n').map((line) => JSON.parse(line) as { turns: { text: string; tokens: { input: number; output: number } | null }[] })
    assert.equal(attempts.length, 2)
    const answer = attempts[0]!.turns[1]!
    // Each form is there, masked: its label, then the stars.
    for (const label of ['split', 'double-percent', 'double-json', 'entities', 'x-escapes', 'braces', 'mime', 'xxd', 'fullwidth', 'pin']) assert.match(answer.text, new RegExp(`${label} .*\\*\\*\\*`, 's'), label)
    assert.equal(answer.text.split('\n').length, [...readerForms(BOT_TOKEN), 'pin'].join('\n').split('\n').length)
    // The PIN as the usage's number: a count the record types as a number, so 0, and the record still reads.
    assert.deepEqual(answer.tokens, { input: 0, output: 7 })
  })

  test('0 occurrences of the token or the PIN, in any form, in attempts.jsonl, run.json, report.html, stdout and stderr', () => {
    assert.ok([...files.keys()].some((file) => file.endsWith('report.html')))
    const leaks: string[] = []
    for (const [file, text] of files) for (const form of leaksOf(text, [BOT_TOKEN, BOT_PIN])) leaks.push(`${file}: ${form}`)
    for (const form of leaksOf(`${output.stdout}\n${output.stderr}`, [BOT_TOKEN, BOT_PIN])) leaks.push(`output: ${form}`)
    assert.deepEqual(leaks, [])
    // The control: the same search finds every form in what the agent sent.
    assert.notDeepEqual(leaksOf(readerForms(BOT_TOKEN).join('\n'), [BOT_TOKEN]), [])
  })
})
