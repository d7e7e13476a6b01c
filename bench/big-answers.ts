// Memory for answers past the size cut (issue 36): 16 scenarios whose agent answers 60 MiB each in
// one JSON string, at --parallel 16, through the built CLI in a child process; its peak RSS.
//
//   npm run build && node --import tsx bench/big-answers.ts [--cli <another dist/cli.js>] [--mib 60] [--parallel 16]
//
// 60 MiB: under the 64 MiB an answer was read up to before (past it the turn failed), so a build from
// before the streamed cut runs the same turns and passes them too.
import { spawn } from 'node:child_process'
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { startHostileAgent } from '../test/fakes/hostile-agent.ts'

const { values: options } = parseArgs({ options: { cli: { type: 'string', multiple: true }, mib: { type: 'string', default: '60' }, parallel: { type: 'string', default: '16' } } })
const CLIS = options.cli ?? [fileURLToPath(new URL('../dist/cli.js', import.meta.url))]
const PARALLEL = Number(options.parallel)
const USAGE_HOOK = new URL('./usage-on-exit.mjs', import.meta.url).href

const agent = await startHostileAgent()
try {
  for (const cli of CLIS) {
    // A project of its own for each build: nothing of one run is seen by the next.
    const dir = await mkdtemp(join(tmpdir(), 'convy-big-'))
    await mkdir(join(dir, 'scenarios'))
    await writeFile(join(dir, 'convy.yml'), 'agents:\n  bot:\n    url: ${BOT_URL}/chat\n    body: { message: "{text}" }\n    reply: answer\n')
    for (let i = 0; i < PARALLEL; i++) await writeFile(join(dir, 'scenarios', `s${i}.yml`), `script:\n  - "huge:${Number(options.mib) * 2 ** 20}"\nchecks:\n  - contains: y\n`)
    const usageFile = join(dir, 'usage.json')
    const started = Date.now()
    const code = await new Promise<number | null>((done) => {
      const child = spawn(process.execPath, ['--import', USAGE_HOOK, cli, 'run', 'bot', '--parallel', String(PARALLEL)], { cwd: dir, env: { ...process.env, BOT_URL: agent.url, CI: 'true', CONVY_BENCH_USAGE: usageFile }, stdio: ['ignore', 'ignore', process.env.BENCH_STDERR ? 'inherit' : 'ignore'] })
      child.on('exit', done)
    })
    const usage = JSON.parse(await readFile(usageFile, 'utf8')) as { userMicros: number; systemMicros: number; maxRssKiB: number }
    await rm(dir, { recursive: true, force: true })
    console.log(`${cli}: exit ${code}, ${PARALLEL} answers of ${options.mib} MiB at --parallel ${PARALLEL}: peak RSS ${(usage.maxRssKiB / 1024).toFixed(0)} MiB, CPU ${((usage.userMicros + usage.systemMicros) / 1e6).toFixed(2)} s, ${((Date.now() - started) / 1000).toFixed(1)} s`)
  }
} finally {
  await agent.close()
}
