// What convy-ci itself costs while it plays a run: how close it comes to the fakes' own latency, the
// CPU it spends per conversation, how soon it starts and how much memory it takes.
//
//   npm run build && npm run bench:runner [-- --runs 5] [--profile <dir>] [--cli <a dist/cli.js>] [--source] [--vs <a dist/cli.js>]
//
// --targets N: only the first N of the targets below (the first is --parallel 50).
// --vs: another build measured in the same run, its rounds taking turns with this one's (before,
// after, before, after…), so both see the same load; each figure is printed for both, with the change.
//
// 200 scenario files, one attempt each: the simulated user says 3 lines and then the STOP line, the
// agent answers each of the 3, the judge decides once: 8 calls in a row per conversation, every one
// answered after exactly 50 ms (and once more after 500 ms). The floor is ceil(200 / parallel) × 8 × the latency.
// The built CLI runs in a child process, as users run it; the fakes run in this process, so their
// CPU is not counted as convy-ci's (bench/usage-on-exit.mjs reports the child's own usage).
//
// - window: from the first request of a conversation to the last answer, against the floor;
// - CPU: user + system CPU of the whole convy-ci process (start-up and report included) / conversations;
// - first request: from spawning the process to its first conversation request (after the gateway check),
//   also measured without NODE_EXTRA_CA_CERTS when it is set (see below);
// - peak RSS of the convy-ci process.
// Each figure is the median of --runs runs, with the spread (min–max) beside it: the machine is shared.
import { execFileSync, spawn } from 'node:child_process'
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { judgeByRule, scriptedUser, startFakeModelServer } from '../src/entry/testing/fake-model-server.ts'
import { startFakeAgentServer } from '../test/fakes/agent-server.ts'
import { median } from './median.ts'

const { values: options } = parseArgs({ options: { runs: { type: 'string', default: '5' }, profile: { type: 'string' }, cli: { type: 'string' }, source: { type: 'boolean' }, vs: { type: 'string' }, targets: { type: 'string' } } })
const RUNS = Number(options.runs)
// --cli: another build to measure, e.g. a copy of an earlier dist/cli.js to compare under the same load.
const CLI = options.cli ?? fileURLToPath(new URL('../dist/cli.js', import.meta.url))
// --source: the CLI from src/ through tsx instead of the bundle, for profiles whose frames name their
// files (bench/cpu-owners.ts); slower to start, so its start-up figures are not the bundle's.
const FROM_SOURCE = options.source ? ['--import', import.meta.resolve('tsx'), fileURLToPath(new URL('../src/entry/cli/main.ts', import.meta.url))] : undefined
const USAGE_HOOK = new URL('./usage-on-exit.mjs', import.meta.url).href
const CONVERSATIONS = 200
const LATENCY_MS = 50
const USER_LINES = ['hello', 'where is my order?', 'it is 1234']
/** Per conversation: a user line and an answer per turn, the STOP line, the judge. */
const CALLS = USER_LINES.length * 2 + 2

interface Target {
  parallel: number
  /** Every fake answers after this long; default LATENCY_MS. */
  latencyMs?: number
  /** Window / floor at most. */
  window: number
  cpuMsPerConversation?: number
  firstRequestMs?: number
  peakRssMiB?: number
}
// Issue 22's budget for a runner on well-kept parts (undici, the openai SDK, yaml).
const TARGETS: Target[] = [
  { parallel: 50, window: 1.15, cpuMsPerConversation: 8, firstRequestMs: 350, peakRssMiB: 120 },
  { parallel: 100, window: 1.3, peakRssMiB: 120 },
  { parallel: 50, latencyMs: 500, window: 1.05 },
]

interface Run {
  window: number
  cpuMsPerConversation: number
  firstRequestMs: number
  gatewayCheckMs: number
  peakRssMiB: number
  endToEndS: number
  /** CPU-ms of convy-ci's process before its first conversation request, up to the last answer, after it. */
  cpuStartMs: number
  cpuRunMs: number
  cpuAfterMs: number
}

async function project(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'convy-bench-'))
  await mkdir(join(dir, 'scenarios'))
  await writeFile(
    join(dir, 'convy.yml'),
    `models:\n  base_url: \${MODELS_URL}\n  api_key: bench\n  user: user\n  judge: judge\nagents:\n  bot:\n    url: \${BOT_URL}/api/chat\n    body: { session_id: "{session}", message: "{text}" }\n    reply: data.answer\n`,
  )
  // max_turns leaves room for the STOP line: the user ends the conversation, not the limit.
  const scenario = `max_turns: ${USER_LINES.length + 2}\nuser: Ask about your order.\njudge: [The agent answers]\n`
  await Promise.all(Array.from({ length: CONVERSATIONS }, (_, i) => writeFile(join(dir, 'scenarios', `s${i}.yml`), scenario)))
  return dir
}

async function measure(dir: string, parallel: number, round: number, env: NodeJS.ProcessEnv = process.env, latencyMs = LATENCY_MS, cli: string[] = FROM_SOURCE ?? [CLI]): Promise<Run> {
  const models = await startFakeModelServer({ latencyMs, user: scriptedUser(USER_LINES), judge: judgeByRule(() => true) })
  const bot = await startFakeAgentServer({ latencyMs })
  const usageFile = join(dir, `usage-${parallel}-${round}.json`)
  // Each run starts from an empty results folder: the index page lists every run in it.
  await rm(join(dir, 'results'), { recursive: true, force: true })
  // One file per measured run: the runs at 500 ms and without the CA bundle are at --parallel 50 too.
  const profileName = `runner-p${parallel}-${latencyMs}ms${env.NODE_EXTRA_CA_CERTS === process.env.NODE_EXTRA_CA_CERTS ? '' : '-no-ca'}-${round}.cpuprofile`
  const profile = options.profile === undefined ? [] : ['--cpu-prof', '--cpu-prof-dir', options.profile, '--cpu-prof-name', profileName]
  let stderr = ''
  const spawned = Date.now()
  const code = await new Promise<number | null>((done) => {
    const child = spawn(process.execPath, [...profile, '--import', USAGE_HOOK, ...cli, 'run', 'bot', '-k', '1', '--parallel', String(parallel)], {
      cwd: dir,
      env: { ...env, MODELS_URL: models.url, BOT_URL: bot.url, CI: 'true', CONVY_BENCH_USAGE: usageFile },
      stdio: ['ignore', 'ignore', 'pipe'],
    })
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    child.on('exit', done)
  })
  const ended = Date.now()
  await models.close()
  await bot.close()
  if (code !== 0) throw new Error(`the run ended with exit code ${code}: ${stderr.slice(-2000)}`)
  const chat = models.requests.filter((r) => r.kind !== 'other')
  const gateway = models.requests.find((r) => r.kind === 'other')
  // The shape is part of the measurement: a run that made fewer calls would look faster than it is.
  const modelCalls = CONVERSATIONS * (USER_LINES.length + 2)
  if (chat.length !== modelCalls || bot.requests.length !== CONVERSATIONS * USER_LINES.length) {
    throw new Error(`expected ${modelCalls} model calls and ${CONVERSATIONS * USER_LINES.length} agent calls, got ${chat.length} and ${bot.requests.length}`)
  }
  const times = chat.map((r) => r.at)
  const first = Math.min(...times)
  const floorMs = Math.ceil(CONVERSATIONS / parallel) * CALLS * latencyMs
  const usage = JSON.parse(await readFile(usageFile, 'utf8')) as { userMicros: number; systemMicros: number; maxRssKiB: number; marks: [number, number][] }
  const last = Math.max(...times) + latencyMs
  const total = (usage.userMicros + usage.systemMicros) / 1000
  // The CPU used by a time, from the child's marks every 25 ms, between the two around it.
  const cpuAt = (at: number) => {
    const after = usage.marks.findIndex(([t]) => t >= at)
    if (after <= 0) return after === 0 ? usage.marks[0]![1] : usage.marks.at(-1)![1]
    const [t0, c0] = usage.marks[after - 1]!
    const [t1, c1] = usage.marks[after]!
    return t1 === t0 ? c1 : c0 + ((c1 - c0) * (at - t0)) / (t1 - t0)
  }
  return {
    window: (Math.max(...times) + latencyMs - first) / floorMs,
    cpuMsPerConversation: (usage.userMicros + usage.systemMicros) / 1000 / CONVERSATIONS,
    firstRequestMs: first - spawned,
    gatewayCheckMs: gateway ? gateway.at - spawned : Number.NaN,
    peakRssMiB: usage.maxRssKiB / 1024,
    endToEndS: (ended - spawned) / 1000,
    cpuStartMs: cpuAt(first),
    cpuRunMs: cpuAt(last) - cpuAt(first),
    cpuAfterMs: total - cpuAt(last),
  }
}

/** "1.07 × (1.05–1.12)": the median, then the spread over the runs. */
function figure(runs: Run[], key: keyof Run, digits: number, unit: string): string {
  const values = runs.map((r) => r[key])
  const f = (n: number) => n.toFixed(digits)
  return `${f(median(values))}${unit} (${f(Math.min(...values))}–${f(Math.max(...values))})`
}

function verdict(runs: Run[], key: keyof Run, limit: number | undefined, digits: number, unit: string): string {
  if (limit === undefined) return ''
  return `   target ≤ ${limit.toFixed(digits)}${unit}: ${median(runs.map((r) => r[key])) <= limit ? 'met' : 'NOT MET'}`
}

function medianMs(args: string[], runs: number, env: NodeJS.ProcessEnv = process.env): number {
  const times: number[] = []
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now()
    execFileSync(process.execPath, args, { env })
    times.push(performance.now() - t0)
  }
  return median(times)
}

function load(): string {
  return loadavg()[0]!.toFixed(1)
}

/** Each target with both builds, their rounds in turn; a figure per build and the change. */
async function sideBySide(before: string): Promise<void> {
  const builds = [
    { name: 'before', cli: [before] },
    { name: 'after', cli: FROM_SOURCE ?? [CLI] },
  ]
  console.log(`before: ${before}\nafter:  ${FROM_SOURCE ? 'src/ through tsx' : CLI}\n`)
  for (const target of TARGETS.slice(0, options.targets === undefined ? undefined : Number(options.targets))) {
    const latencyMs = target.latencyMs ?? LATENCY_MS
    const runs: Run[][] = builds.map(() => [])
    const loadBefore = load()
    for (let round = 0; round < RUNS; round++) {
      for (const [index, build] of builds.entries()) runs[index]!.push(await measure(dir, target.parallel, round, process.env, latencyMs, build.cli))
    }
    console.log(`--parallel ${target.parallel}, answers after ${latencyMs} ms (load average ${loadBefore} before, ${load()} after)`)
    const row = (label: string, key: keyof Run, digits: number, unit: string) => {
      const [was, now] = runs.map((r) => median(r.map((run) => run[key])))
      const change = `${now! >= was! ? '+' : '−'}${Math.abs(((now! - was!) / was!) * 100).toFixed(0)}%`
      console.log(`  ${label.padEnd(20)}before ${figure(runs[0]!, key, digits, unit).padEnd(26)} after ${figure(runs[1]!, key, digits, unit).padEnd(26)} ${change}`)
    }
    row('window / floor', 'window', 2, ' ×')
    row('CPU / conversation', 'cpuMsPerConversation', 2, ' ms')
    row('  start-up CPU', 'cpuStartMs', 0, ' ms')
    row('  conversations CPU', 'cpuRunMs', 0, ' ms')
    row('  after the last', 'cpuAfterMs', 0, ' ms')
    row('first request', 'firstRequestMs', 0, ' ms')
    row('peak RSS', 'peakRssMiB', 0, ' MiB')
    row('end to end', 'endToEndS', 2, ' s')
    console.log('')
  }
}

const dir = await project()
try {
  console.log(`${CONVERSATIONS} conversations (${CONVERSATIONS} scenario files, -k 1): ${USER_LINES.length} turns + the STOP line + a judge call, every answer after ${LATENCY_MS} ms`)
  console.log(`median of ${RUNS} runs (min–max); floor = ceil(${CONVERSATIONS} / parallel) × ${CALLS} × the latency\n`)
  if (options.vs !== undefined) await sideBySide(options.vs)
  else for (const target of TARGETS) {
    const runs: Run[] = []
    const loadBefore = load()
    const latencyMs = target.latencyMs ?? LATENCY_MS
    for (let round = 0; round < RUNS; round++) runs.push(await measure(dir, target.parallel, round, process.env, latencyMs))
    const floorS = (Math.ceil(CONVERSATIONS / target.parallel) * CALLS * latencyMs) / 1000
    // The machine is shared: wall-clock figures stretch with its load, CPU-seconds much less.
    console.log(`--parallel ${target.parallel}, answers after ${latencyMs} ms (floor ${floorS.toFixed(2)} s; load average ${loadBefore} before, ${load()} after)`)
    console.log(`  window / floor      ${figure(runs, 'window', 2, ' ×')}${verdict(runs, 'window', target.window, 2, ' ×')}`)
    console.log(`  CPU / conversation  ${figure(runs, 'cpuMsPerConversation', 2, ' ms')}${verdict(runs, 'cpuMsPerConversation', target.cpuMsPerConversation, 0, ' ms')}`)
    console.log(`    (start-up ${figure(runs, 'cpuStartMs', 0, ' ms')}, conversations ${figure(runs, 'cpuRunMs', 0, ' ms')}, after the last answer ${figure(runs, 'cpuAfterMs', 0, ' ms')} of CPU)`)
    console.log(`  first request       ${figure(runs, 'firstRequestMs', 0, ' ms')}${verdict(runs, 'firstRequestMs', target.firstRequestMs, 0, ' ms')}`)
    console.log(`    (gateway check    ${figure(runs, 'gatewayCheckMs', 0, ' ms')}, answered after ${latencyMs} ms)`)
    console.log(`  peak RSS            ${figure(runs, 'peakRssMiB', 0, ' MiB')}${verdict(runs, 'peakRssMiB', target.peakRssMiB, 0, ' MiB')}`)
    console.log(`  end to end          ${figure(runs, 'endToEndS', 2, ' s')}\n`)
  }
  // The figures below are this build's only.
  if (options.vs === undefined) {
    // Node 20 reads every certificate of NODE_EXTRA_CA_CERTS as it starts, before any code runs: with
    // a system bundle (as on this project's sandbox; GitHub's runners set none) that is most of node's
    // own start-up, and a third of the first request's time above. The fakes speak plain HTTP, so the
    // same run without it shows what convy-ci itself takes.
    const without = { ...process.env }
    delete without.NODE_EXTRA_CA_CERTS
    if (process.env.NODE_EXTRA_CA_CERTS) {
      const target = TARGETS[0]!
      const runs: Run[] = []
      for (let round = 0; round < RUNS; round++) runs.push(await measure(dir, target.parallel, round, without))
      console.log(`--parallel ${target.parallel} without NODE_EXTRA_CA_CERTS (${process.env.NODE_EXTRA_CA_CERTS})`)
      console.log(`  CPU / conversation  ${figure(runs, 'cpuMsPerConversation', 2, ' ms')}${verdict(runs, 'cpuMsPerConversation', target.cpuMsPerConversation, 0, ' ms')}`)
      console.log(`  first request       ${figure(runs, 'firstRequestMs', 0, ' ms')}${verdict(runs, 'firstRequestMs', target.firstRequestMs, 0, ' ms')}\n`)
    }
    console.log(`start-up, median of 11: convy-ci --version ${medianMs([CLI, '--version'], 11).toFixed(0)} ms (node -e '' alone: ${medianMs(['-e', ''], 11).toFixed(0)} ms)`)
    if (process.env.NODE_EXTRA_CA_CERTS) {
      console.log(`  NODE_EXTRA_CA_CERTS is set (${process.env.NODE_EXTRA_CA_CERTS}): node -e '' takes ${medianMs(['-e', ''], 11, without).toFixed(0)} ms without it`)
    }
  }
} finally {
  await rm(dir, { recursive: true, force: true })
}
