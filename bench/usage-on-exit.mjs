// Loaded into the measured convy-ci process with `node --import` by bench/runner.ts: at exit it
// writes the process's own resource usage (user and system CPU of all its threads, peak RSS) to the
// file named by CONVY_BENCH_USAGE. Node cannot read a child's rusage, and /proc is gone once the
// child is reaped, so the child reports it. It also notes the CPU used so far every 25 ms (an
// unref'd timer, a few microseconds a tick), so the bench can split the CPU at the times it saw the
// first request and the last answer: start-up, the conversations, the report.
import { writeFileSync } from 'node:fs'
import { setInterval } from 'node:timers'

const file = process.env.CONVY_BENCH_USAGE
if (file) {
  const marks = []
  const mark = () => {
    const usage = process.cpuUsage()
    marks.push([Date.now(), (usage.user + usage.system) / 1000])
  }
  mark()
  setInterval(mark, 25).unref()
  process.on('exit', () => {
    mark()
    const usage = process.resourceUsage()
    writeFileSync(file, JSON.stringify({ userMicros: usage.userCPUTime, systemMicros: usage.systemCPUTime, maxRssKiB: usage.maxRSS, marks }))
  })
}
