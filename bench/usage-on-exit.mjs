// Loaded into the measured convy-ci process with `node --import` by bench/runner.ts: at exit it
// writes the process's own resource usage (user and system CPU of all its threads, peak RSS) to the
// file named by CONVY_BENCH_USAGE. Node cannot read a child's rusage, and /proc is gone once the
// child is reaped, so the child reports it; it does nothing else and costs nothing until exit.
import { writeFileSync } from 'node:fs'

const file = process.env.CONVY_BENCH_USAGE
if (file) {
  process.on('exit', () => {
    const usage = process.resourceUsage()
    writeFileSync(file, JSON.stringify({ userMicros: usage.userCPUTime, systemMicros: usage.systemCPUTime, maxRssKiB: usage.maxRSS }))
  })
}
