import assert from 'node:assert/strict'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { after, before, test } from 'node:test'
import { startFakeModelServer, type FakeModelServer } from '../../src/entry/testing/fake-model-server.ts'
import { readTally } from '../../src/records/tally/read-tally.ts'
import { runCounts } from '../../src/records/tally/run-counts.ts'
import { runMarkdown } from '../../src/views/markdown/publish-markdown.ts'
import { makeProject, readJsonLines, runInProcess } from './harness.ts'

// Issue 24: one word per meaning on every surface. *agent error*: the agent failed; *no verdict*:
// convy-ci's own models failed; *not decided*: nothing asked for a decision (smoke). Two runs make
// each happen, and the terminal, report.html, the compare page, the comment's markdown, the job
// summary and the JSON all say them with these words, and never with another.

const BOT = `export const agent = {
  conversation() {
    return { answer(message) { if (message.includes('boom')) throw new Error('the bot broke'); return { text: 'hello: ' + message } } }
  },
}
`

let models: FakeModelServer
before(async () => {
  models = await startFakeModelServer({
    // A judge that answers nothing usable about one claim: asked twice, then the attempt has no verdict.
    judge: ({ claims }) => (claims.some((c) => c.includes('unjudgeable')) ? [] : claims.map(() => ({ pass: true, reason: 'it answered' }))),
  })
})
after(async () => models.close())

/** Words that meant two things before issue 24, or none of the four. */
const NOT_OUR_WORDS = [/without (a )?verdict/i, /no verdict 0\/0/i, /\+\d+ ⚠/]

test('agent error, no verdict and not decided: the same words on the terminal, the report, the compare page, the comment, the summary and in JSON', async () => {
  const dir = await makeProject({
    'convy.yml': `models:\n  base_url: \${GATEWAY}\n  api_key: sk-words\n  user: user-model\n  judge: judge-model\n  review: false\nagents:\n  bot: agents/bot.mjs\n`,
    'agents/bot.mjs': BOT,
    'scenarios/ok.yml': 'script: [hello]\nchecks: [{contains: hello}]\n',
    'scenarios/broken.yml': 'script: [boom]\nchecks: [{contains: hello}]\n',
    'scenarios/unjudged.yml': 'script: [hello]\njudge:\n  - unjudgeable claim\n',
    'scenarios/judged.yml': 'user: Say hello, then stop.\njudge:\n  - The agent answered\nmax_turns: 2\n',
  })
  const env = { GATEWAY: models.url }
  const full = await runInProcess(['run', 'bot'], { cwd: dir, env })
  const smoke = await runInProcess(['run', 'bot', '--smoke'], { cwd: dir, env })
  assert.equal(full.code, 1, full.stderr)
  assert.equal(smoke.code, 1, smoke.stderr)

  // The terminal.
  assert.match(full.stdout, /^bot: pass rate 67% · 2 of 3 counted \(of 4 attempts\) · 1 agent error · 1 no verdict \(convy-ci's models failed\)/m)
  assert.match(full.stdout, /^broken\s+agent error\s+0\/1\s+1/m)
  assert.match(full.stdout, /^unjudged\s+no verdict\s+–\s+1/m)
  assert.match(smoke.stdout, /^judged\s+not decided\s+–/m)
  assert.match(smoke.stdout, /^unjudged\s+not decided\s+–/m)
  assert.match(smoke.stdout, /· 2 not decided \(no check, and the judge was not asked/)
  assert.match(smoke.stderr, /broken {2}1 agent error/)

  // The JSON of the run folders.
  const [fullRun, smokeRun] = [/run (bot\/\S+)/.exec(full.stdout)![1]!, /run (bot\/\S+)/.exec(smoke.stdout)![1]!]
  const verdicts = async (id: string) => Object.fromEntries((await readJsonLines(join(dir, 'results', id, 'attempts.jsonl'))).map((a) => [a.scenario, a.verdict]))
  assert.deepEqual(await verdicts(fullRun), { ok: 'passed', broken: 'agent_error', unjudged: 'no_verdict', judged: 'passed' })
  assert.deepEqual(await verdicts(smokeRun), { ok: 'passed', broken: 'agent_error', unjudged: 'not_decided', judged: 'not_decided' })

  // report.html: each scenario's status says why nothing was decided.
  const report = (id: string) => readFile(join(dir, 'results', id, 'report.html'), 'utf8')
  const status = (page: string, scenario: string) => new RegExp(`id="scenario-${scenario}"[^>]*data-status="([a-z_]+)"`).exec(page)?.[1]
  const fullPage = await report(fullRun)
  const smokePage = await report(smokeRun)
  assert.deepEqual(['ok', 'broken', 'unjudged', 'judged'].map((s) => status(fullPage, s)), ['passing', 'agent_error', 'no_verdict', 'passing'])
  assert.deepEqual(['ok', 'broken', 'unjudged', 'judged'].map((s) => status(smokePage, s)), ['passing', 'agent_error', 'not_decided', 'not_decided'])
  assert.match(fullPage, /<span class="badge s-agent_error">Agent error<\/span>/)
  assert.match(fullPage, /<span class="badge s-no_verdict">No verdict<\/span>/)
  assert.match(smokePage, /<span class="badge s-not_decided">Not decided<\/span>/)
  assert.doesNotMatch(smokePage, /class="badge s-no_verdict"/)

  // The compare page, the comment's markdown and the comparison as JSON.
  const compared = await runInProcess(['compare', fullRun, smokeRun], { cwd: dir })
  const markdown = (await runInProcess(['compare', fullRun, smokeRun, '--markdown'], { cwd: dir })).stdout
  const json = (await runInProcess(['compare', fullRun, smokeRun, '--json'], { cwd: dir })).stdout
  const comparePage = await readFile(join(dir, /(results\/compare\/\S+\.html)/.exec(compared.stdout)![1]!), 'utf8')
  assert.match(comparePage, /1 agent error/)
  assert.match(comparePage, /none decided/)
  assert.match(markdown, /none decided/)
  assert.ok(JSON.parse(json).scenarios, 'the comparison as JSON')

  // One pass rate, the same figure on every surface: 67% for the full run (an agent error did not
  // pass; the no verdict is left out), 50% for the smoke run.
  const reportTile = (page: string) => /<div class="label">Pass rate<\/div><div class="value">([^<]+?) ?</.exec(page)?.[1]
  assert.deepEqual([reportTile(fullPage), reportTile(smokePage)], ['67%', '50%'])
  assert.match(markdown, /\| Pass rate \| 67% · 2 of 3 \| 50% · 1 of 2 \|/)
  assert.deepEqual([JSON.parse(json).tiles.passRate.before, JSON.parse(json).tiles.passRate.after].map((rate: number) => Math.round(rate * 100)), [67, 50])
  assert.match(comparePage, /<div class="label">Pass rate<\/div><div class="value">67% <span class="arrow">→<\/span> 50%</)

  // The job summary of a run without a baseline.
  const summary = runMarkdown('bot', runCounts(await readTally(join(dir, 'results', smokeRun))), { reportUrl: null, noComparison: 'no baseline yet' })
  assert.match(summary, /This run: pass rate 50% · 1 of 2 counted \(of 4 attempts\) over 4 scenarios/)
  assert.match(summary, /1 agent error · 2 not decided/)

  for (const [surface, text] of Object.entries({ terminal: full.stdout + smoke.stdout + smoke.stderr, report: fullPage + smokePage, comparePage, markdown, summary, json })) {
    for (const word of NOT_OUR_WORDS) assert.doesNotMatch(text, word, `${surface} says ${word}`)
  }
})
