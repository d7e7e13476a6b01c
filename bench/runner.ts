// How much time convy-ci adds over the agent's and the models' own latency, and how fast the CLI
// starts. Run: npm run build && npm run bench:runner   (figures go in README.md)
//
// Every attempt is 3 turns against a fake agent and fake models that each answer after LATENCY ms,
// then one judge call: the ideal wall time is ceil(attempts / parallel) × (3 × 2 × LATENCY + LATENCY).
// The built CLI runs in a child process, as users run it; the fake servers run in this process.
// "in run" is from the first request the fakes receive to the last answer: the runner's own overhead,
// without Node's start-up, loading the project and writing the report, which "end to end" includes.
import { execFileSync, spawn } from 'node:child_process'
import { mkdtemp, mkdir, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { judgeByRule, scriptedUser, startFakeModelServer } from '../src/testing/fake-model-server.ts'
import { startFakeAgentServer } from '../test/fakes/agent-server.ts'

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url))
const TURNS = 3
const K = 10

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

interface Measurement {
  ideal: number
  inRun: number
  endToEnd: number
}

async function measure(attempts: number, parallel: number, latencyMs: number): Promise<Measurement> {
  const models = await startFakeModelServer({ latencyMs, user: scriptedUser(['hello', 'where is my order?', 'it is 1234']), judge: judgeByRule(() => true) })
  const bot = await startFakeAgentServer({ latencyMs })
  const dir = await project(attempts / K)
  const started = Date.now()
  const code = await new Promise<number | null>((done) => {
    const child = spawn(process.execPath, [CLI, 'run', 'bot', '-k', String(K), '--parallel', String(parallel)], {
      cwd: dir,
      env: { ...process.env, MODELS_URL: models.url, BOT_URL: bot.url, CI: 'true' },
      stdio: 'ignore',
    })
    child.on('exit', done)
  })
  const ended = Date.now()
  const times = models.requests.map((r) => r.at)
  await models.close()
  await bot.close()
  if (code !== 0) throw new Error(`the run ended with exit code ${code}`)
  const ideal = (Math.ceil(attempts / parallel) * (TURNS * 2 * latencyMs + latencyMs)) / 1000
  const inRun = (Math.max(...times) + latencyMs - Math.min(...times)) / 1000
  return { ideal, inRun, endToEnd: (ended - started) / 1000 }
}

function medianMs(args: string[], runs: number): number {
  const times: number[] = []
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now()
    execFileSync(process.execPath, args)
    times.push(performance.now() - t0)
  }
  times.sort((a, b) => a - b)
  return times[Math.floor(times.length / 2)]!
}

const pct = (actual: number, ideal: number) => `${(((actual - ideal) / ideal) * 100).toFixed(1)}%`
console.log(`${TURNS} turns + a judge call per attempt; the agent and the models answer after the latency shown`)
console.log('parallel  attempts  latency  ideal s  in run s  overhead  end to end s  overhead')
for (const [parallel, attempts, latency] of [
  [1, 20, 50],
  [10, 200, 50],
  [50, 200, 50],
  [100, 200, 50],
  [100, 1000, 500],
] as const) {
  const m = await measure(attempts, parallel, latency)
  console.log(
    `${String(parallel).padStart(8)}  ${String(attempts).padStart(8)}  ${`${latency} ms`.padStart(7)}  ${m.ideal.toFixed(2).padStart(7)}  ${m.inRun.toFixed(2).padStart(8)}  ${pct(m.inRun, m.ideal).padStart(8)}  ${m.endToEnd.toFixed(2).padStart(12)}  ${pct(m.endToEnd, m.ideal).padStart(8)}`,
  )
}
console.log(`\nstart-up, median of 15: convy-ci --version ${medianMs([CLI, '--version'], 15).toFixed(0)} ms (node -e '' alone: ${medianMs(['-e', ''], 15).toFixed(0)} ms)`)
