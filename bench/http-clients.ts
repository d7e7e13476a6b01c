// The CPU one request costs the client, for each HTTP client a run could use: why turns and chat
// completions go through convy-ci's own (src/base/http/h1/).
//
//   npm run bench:http
//
// A node:http server in its own process answers every POST after 50 ms with a chat completion; each
// client, in a process of its own, sends it 1,600 requests of about 2 KB, 50 at a time (what a run at
// --parallel 50 does), and reports the CPU it used from the first request to the last answer.
import { execFileSync, spawn } from 'node:child_process'
import { createServer } from 'node:http'
import { fileURLToPath } from 'node:url'

const REQUESTS = 1600
const PARALLEL = 50
const KINDS = ['convy-ci h1', 'undici request', 'node:http', 'built-in fetch'] as const
const [mode, arg] = process.argv.slice(2)

if (mode === '--serve') {
  const answer = JSON.stringify({ id: 'x', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: 'Where is my order? I placed it last week.' }, finish_reason: 'stop' }], usage: { prompt_tokens: 300, completion_tokens: 20 } })
  const server = createServer((req, res) => {
    req.resume()
    req.on('end', () => setTimeout(() => res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(answer) }).end(answer), 50))
  })
  server.keepAliveTimeout = 60_000
  server.listen(0, '127.0.0.1', () => console.log((server.address() as { port: number }).port))
} else if (mode === '--client') {
  const url = `http://127.0.0.1:${process.env.PORT}/v1/chat/completions`
  const body = JSON.stringify({ model: 'user', messages: Array.from({ length: 6 }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: 'The simulated user is vague about the order and changes their mind. '.repeat(4) })) })
  const headers = { 'content-type': 'application/json', authorization: 'Bearer bench' }
  let send: () => Promise<unknown>
  if (arg === 'convy-ci h1') {
    const { createH1Client } = await import('../src/base/http/h1/h1-client.ts')
    const whole = createH1Client()
    send = async () => JSON.parse((await whole(url, { method: 'POST', headers, body })).text)
  } else if (arg === 'undici request') {
    const { Agent, request } = await import('../src/base/http/undici.ts')
    const dispatcher = new Agent({ connections: 256 })
    send = async () => (await request(url, { method: 'POST', headers, body, dispatcher })).body.json()
  } else if (arg === 'node:http') {
    const http = await import('node:http')
    const agent = new http.Agent({ keepAlive: true, maxSockets: 256 })
    send = () =>
      new Promise((resolve, reject) => {
        const req = http.request(url, { method: 'POST', agent, headers: { ...headers, 'content-length': Buffer.byteLength(body) } }, (res) => {
          const chunks: Buffer[] = []
          res.on('data', (chunk: Buffer) => chunks.push(chunk))
          res.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString())))
        })
        req.on('error', reject)
        req.end(body)
      })
  } else {
    send = async () => (await fetch(url, { method: 'POST', headers, body })).json()
  }
  await send() // connection and first compile, not counted
  const cpu = process.cpuUsage()
  const started = performance.now()
  await Promise.all(Array.from({ length: PARALLEL }, async () => {
    for (let i = 0; i < REQUESTS / PARALLEL; i++) await send()
  }))
  const used = process.cpuUsage(cpu)
  console.log(JSON.stringify({ micros: (used.user + used.system) / REQUESTS, wall: (performance.now() - started) / 1000 }))
  process.exit(0)
} else {
  const self = fileURLToPath(import.meta.url)
  const server = spawn(process.execPath, ['--import', 'tsx', self, '--serve'], { stdio: ['ignore', 'pipe', 'inherit'] })
  const port = await new Promise<string>((resolve) => server.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString().trim())))
  console.log(`${REQUESTS} POSTs of about 2 KB, ${PARALLEL} at a time, each answered after 50 ms; client CPU per request, median of 3 runs`)
  try {
    for (const kind of KINDS) {
      const runs = Array.from({ length: 3 }, () => JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', self, '--client', kind], { env: { ...process.env, PORT: port } }).toString()) as { micros: number; wall: number })
      const micros = runs.map((r) => r.micros).sort((a, b) => a - b)
      console.log(`  ${kind.padEnd(16)} ${micros[1]!.toFixed(0).padStart(5)} µs (${micros[0]!.toFixed(0)}–${micros[2]!.toFixed(0)})   wall ${runs[1]!.wall.toFixed(2)} s`)
    }
  } finally {
    server.kill()
  }
}
