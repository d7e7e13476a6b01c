// What the review of failed attempts costs: extra model calls and tokens per failed attempt, beside
// what the simulated user and the judge spend on every attempt.
//
//   npm run bench:review [-- --scenarios 20 -k 3]
//
// A realistic suite through the fake model server and the real pipeline (in this process): user
// instructions of about 600 characters, a simulated user that speaks 4 lines and stops, an agent over
// HTTP that answers each line with about 700 characters, 3 claims; the judge fails every other
// scenario, so half the attempts are failed and reviewed. Input tokens are the fake server's estimate
// of the real requests convy-ci builds (4 characters a token), so they measure convy-ci's prompts and
// dialogues; output tokens depend on the model, and the fake's findings are sized like a real
// reviewer's (one mistake with a quoted note and a reason, about 90 tokens).
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { mkdtemp, mkdir, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { runCli } from '../src/entry/cli/cli.ts'
import { processWriter } from '../src/entry/cli/writer.ts'
import { readAllAttempts } from '../src/records/journal/read-run.ts'
import type { Attempt } from '../src/records/journal/records.ts'
import type { UserReviewFindings } from '../src/play/conversation/dialogue.ts'
import { scriptedUser, startFakeModelServer } from '../src/entry/testing/fake-model-server.ts'
import { terminalPrinters } from '../src/entry/printers/index.ts'

const { values } = parseArgs({ options: { scenarios: { type: 'string', default: '20' }, k: { type: 'string', short: 'k', default: '3' } } })
const SCENARIOS = Number(values.scenarios)
const K = values.k!
/** gpt-4.1's list price, dollars per million tokens: the judge's model reviews. */
const JUDGE_PRICE: [number, number] = [2, 8]

const INSTRUCTIONS = `You ordered a pair of running shoes (order 48213) three weeks ago and they have not arrived.
Start by saying only that your order is late; give the order number only when the assistant asks for it.
You would accept a refund or a replacement, but you prefer a replacement in the same size (42).
If the assistant offers a discount code instead, push back once, then accept it only if it is at least 20%.
You do not know the tracking number and you do not remember which courier was used.`
const USER_LINES = [
  'Hi, my order is really late and I am getting annoyed.',
  'The order number is 48213, I placed it three weeks ago.',
  'I would rather have a replacement, same size, 42. Can you do that?',
  'OK, please go ahead with the replacement then, thanks.',
]
const ANSWER = 'Thank you for your patience, and I am sorry about the delay. '.repeat(12)
const CLAIMS = ['The agent asked for the order number before looking it up', 'The agent offered a replacement or a refund', 'The agent confirmed the replacement in size 42']
const FINDINGS: UserReviewFindings = {
  mistakes: [{ kind: 'revealed_early', line: 2, note: 'gave "order 48213, placed three weeks ago" in the same line as the complaint, before being asked' }],
  reason: 'The user handed over the order number unasked, but the failed claim is about the size, which the agent never confirmed.',
  decided: false,
}

async function agentServer(): Promise<{ url: string; close: () => void }> {
  const server = createServer((req, res) => {
    req.resume()
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ answer: ANSWER })))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/chat`, close: () => server.close() }
}

async function play(review: boolean, models: string, agent: string): Promise<Attempt[]> {
  const dir = await mkdtemp(join(tmpdir(), 'convy-review-cost-'))
  await mkdir(join(dir, 'scenarios'))
  const yml = `models:\n  base_url: ${models}\n  api_key: bench\n  user: user-model\n  judge: judge-model\n  prices: { judge-model: [${JUDGE_PRICE.join(', ')}] }\nagents:\n  bot:\n    url: ${agent}\n    body: { message: "{text}" }\n    reply: answer\n`
  await writeFile(join(dir, 'convy.yml'), yml)
  for (let i = 0; i < SCENARIOS; i++) {
    const scenario = { user: `${INSTRUCTIONS}\n(scenario ${i})`, max_turns: 8, judge: CLAIMS }
    await writeFile(join(dir, 'scenarios', `s${i}.yml`), JSON.stringify(scenario))
  }
  const ctx = { cwd: dir, env: {}, stdout: { write: () => {} }, stderr: { write: () => {} }, interactive: false, signal: new AbortController().signal, canStripTypes: false, now: () => new Date(), writer: processWriter, printers: terminalPrinters }
  try {
    await runCli(ctx, ['run', 'bot', '-k', K, review ? '--review' : '--no-review'])
    const [run] = await readdir(join(dir, 'results', 'bot'))
    return await readAllAttempts(join(dir, 'results', 'bot', run!))
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

const sum = (attempts: readonly Attempt[], pick: (a: Attempt) => number) => attempts.reduce((n, a) => n + pick(a), 0)
const tokens = (a: Attempt, role: 'user' | 'judge' | 'review') => (a.models[role]?.tokens.input ?? 0) + (a.models[role]?.tokens.output ?? 0)

// Every other judge request fails the last claim: half the attempts are failed, whatever the order.
let judged = 0
const models = await startFakeModelServer({
  user: scriptedUser(USER_LINES),
  judge: ({ claims }) => {
    const fails = judged++ % 2 === 1
    return claims.map((claim) => ({ pass: !(fails && claim === CLAIMS[2]), reason: fails && claim === CLAIMS[2] ? 'The agent never confirmed size 42; it only apologised.' : 'The agent did it in turn 2.' }))
  },
  review: () => FINDINGS,
})
const agent = await agentServer()
try {
  const off = await play(false, models.url, agent.url)
  const on = await play(true, models.url, agent.url)
  const failed = on.filter((a) => a.verdict === 'failed' || a.verdict === 'user_error')
  const reviewed = failed.filter((a) => a.review)
  const perAttempt = (attempts: readonly Attempt[]) => sum(attempts, (a) => tokens(a, 'user') + tokens(a, 'judge') + tokens(a, 'review')) / attempts.length
  const reviewIn = sum(reviewed, (a) => a.models.review?.tokens.input ?? 0) / reviewed.length
  const reviewOut = sum(reviewed, (a) => a.models.review?.tokens.output ?? 0) / reviewed.length
  const calls = sum(reviewed, (a) => a.models.review?.calls ?? 0) / reviewed.length
  const judgeTokens = sum(on, (a) => tokens(a, 'judge')) / on.length
  const userTokens = sum(on, (a) => tokens(a, 'user')) / on.length
  const run = (attempts: readonly Attempt[]) => sum(attempts, (a) => tokens(a, 'user') + tokens(a, 'judge') + tokens(a, 'review'))
  const dollars = (reviewIn * JUDGE_PRICE[0] + reviewOut * JUDGE_PRICE[1]) / 1e6
  const lines = [
    `${on.length} attempts (${SCENARIOS} scenarios × k ${K}), ${failed.length} failed, ${reviewed.length} reviewed`,
    `per failed attempt: ${calls} review call, ${Math.round(reviewIn)} tokens in + ${Math.round(reviewOut)} out (≈ $${dollars.toFixed(4)} at $${JUDGE_PRICE[0]}/$${JUDGE_PRICE[1]} per M)`,
    `per attempt, every attempt: simulated user ${Math.round(userTokens)} tokens, judge ${Math.round(judgeTokens)} tokens`,
    `model calls in the run: ${sum(off, (a) => (a.models.user?.calls ?? 0) + (a.models.judge?.calls ?? 0))} without the review, ${sum(on, (a) => (a.models.user?.calls ?? 0) + (a.models.judge?.calls ?? 0) + (a.models.review?.calls ?? 0))} with it`,
    `tokens of convy-ci's models per attempt: ${Math.round(perAttempt(off))} without the review, ${Math.round(perAttempt(on))} with it (+${((run(on) / run(off) - 1) * 100).toFixed(1)}% at ${Math.round((100 * failed.length) / on.length)}% failed)`,
  ]
  console.log(lines.join('\n'))
} finally {
  agent.close()
  await models.close()
}
