// How much time convy-ci adds over the agent's and the models' own latency, and how fast the CLI
// starts. Run: npm run bench:runner   (figures go in README.md)
//
// Every attempt is 3 turns against a fake agent and fake models that each answer in LATENCY_MS, then
// one judge call: the ideal wall time is ceil(attempts / parallel) × (3 × (2 × LATENCY) + LATENCY).
import { execFileSync, spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { mkdtemp, mkdir, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { judgeByRule, scriptedUser, startFakeModelServer } from '../src/testing/fake-model-server.ts'
import { startFakeAgentServer } from '../test/fakes/agent-server.ts'

const LATENCY_MS = 50
const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url))
const TURNS = 3

async function project(scenarios: number): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'convy-bench-'))
  await mkdir(join(dir, 'scenarios'))
  await writeFile(
    join(dir, 'convy.yml'),
    `models:\n  base_url: \${MODELS_URL}\n  api_key: bench\n  user: user\n  judge: judge\nagents:\n  bot:\n    url: \${BOT_URL}/api/chat\n    body: { session_id: "{session}", message: "{text}" }\n    reply: data.answer\n`,
  )
  for (let i = 0; i < scenarios; i++) {
    await writeFile(join(dir, 'scenarios', `s${i}.yml`), `max_turns: ${TURNS}\nuser: Ask about your order.\njudge: [The agent answers]\n`)
  }
  return dir
}

async function measure(attempts: number, parallel: number): Promise<{ seconds: number; ideal: number }> {
  const models = await startFakeModelServer({ latencyMs: LATENCY_MS, user: scriptedUser(['hello', 'where is my order?', 'it is 1234']), judge: judgeByRule(() => true) })
  const bot = await startFakeAgentServer({ latencyMs: LATENCY_MS })
  const k = 10
  const dir = await project(attempts / k)
  // The built CLI in a child process, as users run it; the fake servers stay in this process.
  const started = performance.now()
  const code = await new Promise<number | null>((done) => {
    const child = spawn(process.execPath, [CLI, 'run', 'bot', '-k', String(k), '--parallel', String(parallel)], {
      cwd: dir,
      env: { ...process.env, MODELS_URL: models.url, BOT_URL: bot.url, CI: 'true' },
      stdio: 'ignore',
    })
    child.on('exit', done)
  })
  const seconds = (performance.now() - started) / 1000
  await models.close()
  await bot.close()
  if (code !== 0) throw new Error(`the run ended with exit code ${code}`)
  const ideal = (Math.ceil(attempts / parallel) * (TURNS * 2 * LATENCY_MS + LATENCY_MS)) / 1000
  return { seconds, ideal }
}

function startupMs(runs: number): number {
  const times: number[] = []
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now()
    execFileSync(process.execPath, [CLI, '--version'])
    times.push(performance.now() - t0)
  }
  times.sort((a, b) => a - b)
  return times[Math.floor(times.length / 2)]!
}

function nodeBaselineMs(runs: number): number {
  const times: number[] = []
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now()
    execFileSync(process.execPath, ['-e', ''])
    times.push(performance.now() - t0)
  }
  times.sort((a, b) => a - b)
  return times[Math.floor(times.length / 2)]!
}

console.log(`runner overhead: ${TURNS} turns + judge per attempt, agent and models at ${LATENCY_MS} ms each`)
console.log('parallel  attempts  ideal s  actual s  overhead')
for (const [parallel, attempts] of [
  [1, 20],
  [10, 200],
  [50, 200],
  [100, 200],
] as const) {
  const { seconds, ideal } = await measure(attempts, parallel)
  console.log(`${String(parallel).padStart(8)}  ${String(attempts).padStart(8)}  ${ideal.toFixed(2).padStart(7)}  ${seconds.toFixed(2).padStart(8)}  ${(((seconds - ideal) / ideal) * 100).toFixed(1).padStart(7)}%`)
}
console.log(`\nstart-up (median of 15): convy-ci --version ${startupMs(15).toFixed(0)} ms; node -e '' ${nodeBaselineMs(15).toFixed(0)} ms`)
