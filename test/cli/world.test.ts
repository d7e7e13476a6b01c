import assert from 'node:assert/strict'
import { readFile } from 'node:fs/promises'
import { basename, join } from 'node:path'
import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, before, describe, test } from 'node:test'
import { judgeByRule, startFakeModelServer, type FakeModelServer } from '../../src/entry/testing/fake-model-server.ts'
import { STOP_WORD } from '../../src/play/simulated-user/simulated-user-prompt.ts'
import { readAllAttempts } from '../../src/records/journal/read-run.ts'
import { makeProject, onlyRun, runInProcess } from './harness.ts'
import { modelsYml } from '../support/convy-yml.ts'

/**
 * The world of a scenario, end to end through the CLI: a set-up that makes an order on a real HTTP
 * server, the order reaching the agent (body, headers, URL), the simulated user's prompt and a check,
 * and a tear-down after every attempt, failed and interrupted ones too.
 */
interface Seen {
  method: string
  path: string
  headers: IncomingHttpHeaders
  body: Record<string, unknown>
}

interface WorldServer {
  url: string
  seen: Seen[]
  /** Resolves when a chat request whose message contains "[hang]" has arrived (it is never answered). */
  hanging: Promise<void>
  close(): Promise<void>
}

async function startWorld(): Promise<WorldServer> {
  const seen: Seen[] = []
  let orders = 0
  let hangs = 0
  let hung!: () => void
  const hanging = new Promise<void>((resolve) => (hung = resolve))
  const server = createServer((req, res) => {
    let raw = ''
    req.on('data', (chunk: Buffer) => (raw += chunk.toString()))
    req.on('end', () => {
      const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {}
      const path = req.url ?? '/'
      seen.push({ method: req.method ?? '', path, headers: req.headers, body })
      const json = (status: number, value: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value))
      if (path === '/seed') return json(200, { order_id: `O-${++orders}`, customer: { tier: 'gold' } })
      if (path === '/seed-broken') return json(500, { error: 'database is down' })
      if (path === '/seed-hang') return
      if (path === '/teardown') return res.writeHead(204).end()
      if (path.startsWith('/chat/')) {
        // Hangs the first time only: the resumed attempt is answered.
        if (String(body.message).includes('[hang]') && !hangs++) return hung()
        return json(200, { answer: `Order ${path.slice('/chat/'.length)} for ${String(req.headers['x-tier'])} is on its way.`, usage: { in: 30, out: 20 } })
      }
      json(404, { error: 'no such path' })
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    hanging,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        // The hung answer's connection is never answered: end it, or close would wait for it.
        server.closeAllConnections()
      }),
  }
}

const botYml = (extra = '') => `agents:
  bot:
    url: \${WORLD_URL}/chat/{context.order_id}
    headers: { X-Tier: "{context.customer.tier}" }
    body: { session_id: "{session}", message: "{text}", order: "{context.order_id}", whole: "{context}" }
    reply: answer
    tokens: [usage.in, usage.out]
    context: { shop: acme }
    setup: { url: "\${WORLD_URL}/seed", body: { session: "{session}", shop: "{context.shop}" } }
    teardown: { url: "\${WORLD_URL}/teardown", body: { order: "{context.order_id}", session: "{session}" } }
${extra}`

describe('a world per scenario: context, set-up and tear-down', () => {
  let world: WorldServer
  let models: FakeModelServer
  before(async () => {
    world = await startWorld()
    models = await startFakeModelServer({
      // The simulated user asks about the order the set-up made: it knows it only from its prompt's context.
      user: ({ dialogue, context }) => (dialogue.length === 0 ? `Where is my order ${String(context?.order_id)}?` : STOP_WORD),
      judge: judgeByRule(() => true),
    })
  })
  after(async () => {
    await world.close()
    await models.close()
  })

  test("set-up's answer reaches the agent (body whole and by key, headers, URL), the simulated user and a check; tear-down follows each attempt", async () => {
    world.seen.length = 0
    const dir = await makeProject({
      'convy.yml': modelsYml({ apiKey: 'k' }) + botYml(),
      'scenarios/where.yml': 'user: Ask where your order is.\ncontext: { channel: web }\njudge: [The agent named the order]\nchecks:\n  - contains: "Order {context.order_id} for gold"\n',
    })
    const result = await runInProcess(['run', 'bot', '-k', '2', '--parallel', '1'], { cwd: dir, env: { CONVY_BASE_URL: models.url, WORLD_URL: world.url } })
    assert.equal(result.code, 0, result.stderr)
    assert.deepEqual(world.seen.map((s) => s.path), ['/seed', '/chat/O-1', '/teardown', '/seed', '/chat/O-2', '/teardown'])
    const [seed, chat, teardown] = world.seen
    assert.equal(seed!.method, 'POST')
    assert.equal(seed!.headers['content-type'], 'application/json')
    assert.equal(seed!.body.shop, 'acme')
    assert.equal(seed!.body.session, chat!.body.session_id)
    assert.equal(chat!.headers['x-tier'], 'gold')
    assert.equal(chat!.body.order, 'O-1')
    assert.deepEqual(chat!.body.whole, { shop: 'acme', channel: 'web', order_id: 'O-1', customer: { tier: 'gold' } })
    assert.deepEqual(teardown!.body, { order: 'O-1', session: chat!.body.session_id })
    assert.equal(chat!.body.message, 'Where is my order O-1?')

    const attempts = await readAllAttempts(await onlyRun(dir, 'bot'))
    assert.deepEqual(attempts.map((a) => [a.verdict, a.context?.order_id]).sort(), [['passed', 'O-1'], ['passed', 'O-2']])
    // The judge is told the context too.
    const judged = models.requests.filter((r) => r.kind === 'judge').map((r) => JSON.stringify(r.body))
    assert.equal(judged.length, 2)
    assert.ok(judged.some((body) => body.includes('<context>') && body.includes('\\"order_id\\":\\"O-1\\"')), judged[0])
    assert.deepEqual(attempts.find((a) => a.context?.order_id === 'O-1')!.checks, [{ kind: 'contains', value: 'Order {context.order_id} for gold', pass: true, detail: 'answer 1 contains it ("Order O-1 for gold")' }])
  })

  test("a module's set-up function: given the session and the context (its ${VAR}s read, masked in the record), its answer merged", async () => {
    const calls: unknown[] = []
    ;(globalThis as { __worldCalls?: unknown[] }).__worldCalls = calls
    const dir = await makeProject({
      'convy.yml': modelsYml({ apiKey: 'k', user: null, judge: null }) + 'agents: {}\n',
      'scenarios/shop/seeded.yml': 'script: [hello]\ncontext: { token: "${SHOP_TOKEN}" }\nsetup: { module: seed.mjs, export: seedOrder }\nteardown: { module: seed.mjs }\nchecks:\n  - contains: hello\n',
      'scenarios/shop/seed.mjs': 'export function seedOrder({ session, context, scenario }) { globalThis.__worldCalls.push(["setup", scenario, typeof session, context.token]); return { order_id: "M-1" } }\nexport async function teardown({ context }) { globalThis.__worldCalls.push(["teardown", context.order_id]) }\n',
    })
    const result = await runInProcess(['run', 'echo', '-k', '1'], { cwd: dir, env: { SHOP_TOKEN: 'sk-shop-secret-123' } })
    assert.equal(result.code, 0, result.stderr)
    assert.deepEqual(calls, [['setup', 'seeded', 'string', 'sk-shop-secret-123'], ['teardown', 'M-1']])
    const run = await onlyRun(dir, 'echo')
    const [attempt] = await readAllAttempts(run)
    assert.deepEqual(attempt!.context, { token: '***', order_id: 'M-1' })
    // The report shows each attempt's context, masked.
    const report = await readFile(join(run, 'report.html'), 'utf8')
    assert.match(report, /<summary>Context<\/summary><pre>\{\n {2}&quot;token&quot;: &quot;\*\*\*&quot;,\n {2}&quot;order_id&quot;: &quot;M-1&quot;\n\}<\/pre>/)
    assert.equal(report.includes('sk-shop-secret-123'), false)
  })

  test('a failing set-up is an agent error of kind setup: the agent is not called, tear-down still runs, the summary says set-up error', async () => {
    world.seen.length = 0
    const dir = await makeProject({
      'convy.yml': modelsYml({ apiKey: 'k' }) + botYml(),
      'scenarios/broken.yml': 'script: [Where is my order?]\ncontext: { order_id: O-9, customer: { tier: silver } }\nsetup: { url: "${WORLD_URL}/seed-broken" }\nchecks:\n  - contains: Order\n',
    })
    const result = await runInProcess(['run', 'bot', '-k', '1'], { cwd: dir, env: { CONVY_BASE_URL: models.url, WORLD_URL: world.url } })
    assert.deepEqual(world.seen.map((s) => s.path), ['/seed-broken', '/teardown'])
    const [attempt] = await readAllAttempts(await onlyRun(dir, 'bot'))
    assert.equal(attempt!.verdict, 'agent_error')
    assert.equal(attempt!.errorKind, 'setup')
    assert.match(attempt!.error!, /^set-up failed: POST http:\/\/127\.0\.0\.1:\d+\/seed-broken answered HTTP 500 Internal Server Error: \{"error":"database is down"\}$/)
    assert.deepEqual(attempt!.turns, [])
    assert.match(result.stderr + result.stdout, /set-up error: set-up failed: POST/)
    assert.equal(result.code, 1)
  })

  test('set-up has the turn\'s deadline (--turn-timeout)', async () => {
    world.seen.length = 0
    const dir = await makeProject({
      'convy.yml': modelsYml({ apiKey: 'k' }) + botYml(),
      'scenarios/slow.yml': 'script: [hello]\ncontext: { order_id: O-7, customer: { tier: silver } }\nsetup: { url: "${WORLD_URL}/seed-hang", method: PUT }\nchecks:\n  - contains: Order\n',
    })
    await runInProcess(['run', 'bot', '-k', '1', '--turn-timeout', '0.3'], { cwd: dir, env: { CONVY_BASE_URL: models.url, WORLD_URL: world.url } })
    assert.deepEqual(world.seen.map((s) => `${s.method} ${s.path}`), ['PUT /seed-hang', 'POST /teardown'])
    const [attempt] = await readAllAttempts(await onlyRun(dir, 'bot'))
    assert.equal(attempt!.error, 'set-up failed: no answer within 0.3 s (--turn-timeout)')
  })

  test('tear-down runs after an attempt interrupted mid-answer (Ctrl+C), and the run exits 130; resume sets up the attempt again', async () => {
    world.seen.length = 0
    const dir = await makeProject({
      'convy.yml': modelsYml({ apiKey: 'k' }) + botYml(),
      'scenarios/hang.yml': 'script: ["[hang] hello"]\nchecks:\n  - contains: Order\n',
    })
    const stop = new AbortController()
    const running = runInProcess(['run', 'bot', '-k', '1'], { cwd: dir, env: { CONVY_BASE_URL: models.url, WORLD_URL: world.url }, signal: stop.signal })
    await world.hanging
    stop.abort(new Error('Ctrl+C'))
    const result = await running
    assert.equal(result.code, 130, result.stderr)
    assert.deepEqual(world.seen.map((s) => s.path), ['/seed', '/chat/O-3', '/teardown'])
    assert.equal(world.seen[2]!.body.order, 'O-3')

    const id = basename(await onlyRun(dir, 'bot')).slice(-4)
    const resumed = await runInProcess(['resume', id], { cwd: dir, env: { CONVY_BASE_URL: models.url, WORLD_URL: world.url } })
    assert.equal(resumed.code, 0, resumed.stderr)
    assert.deepEqual(world.seen.map((s) => s.path).slice(3), ['/seed', '/chat/O-4', '/teardown'])
    const [attempt] = await readAllAttempts(await onlyRun(dir, 'bot'))
    assert.deepEqual([attempt!.verdict, attempt!.context?.order_id], ['passed', 'O-4'])
  })
})
