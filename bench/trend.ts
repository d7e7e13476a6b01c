// The figures of docs/trend.md: the size of a run summary, and the time the action's history read
// adds, against the fake GitHub (a real HTTP server on 127.0.0.1, the same REST and blob routes the
// action's tests use; GitHub itself adds its own latency per request).
//
//   node --import tsx bench/trend.ts
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fetchHistory } from '../src/adapters/github/history.ts'
import { createOctokit } from '../src/adapters/github/octokit.ts'
import { summarizeRun, summaryJson } from '../src/records/tally/run-summary.ts'
import { tallyRecord } from '../src/records/tally/run-tally.ts'
import { startFakeGitHub } from '../test/fakes/github-server.ts'
import { syntheticRun } from '../test/fakes/synthetic-run.ts'
import { zipOf } from '../test/fakes/zip.ts'

const summaryOf = (seed: number, scenarios: number) =>
  summaryJson(summarizeRun(tallyRecord(syntheticRun({ seed, scenarios, k: 5, prices: true, startedAt: new Date(Date.UTC(2026, 10, seed, 9)) }))))

for (const scenarios of [20, 100]) {
  const text = summaryOf(1, scenarios)
  console.log(`summary of ${scenarios} scenarios (k = 5, priced): ${Buffer.byteLength(text)} bytes, ${zipOf([{ name: 'summary.json', data: Buffer.from(text), deflate: true }]).length} bytes zipped`)
}

const fake = await startFakeGitHub()
const scratch = await mkdtemp(join(tmpdir(), 'convy-trend-bench-'))
try {
  for (let day = 1; day <= 50; day++) {
    const run = fake.world.startRun({ event: 'push', headBranch: 'main', headSha: 'c'.repeat(40) })
    fake.world.addArtifact(run.id, 'convy-support_bot+summary', zipOf([{ name: 'summary.json', data: Buffer.from(summaryOf(day, 20)), deflate: true }]))
    fake.world.finishRun(run.id, 'success')
  }
  const octokit = createOctokit(fake.token, fake.url)
  for (const runs of [10, 50]) {
    const times: number[] = []
    let requests = 0
    for (let i = 0; i < 7; i++) {
      const calls = fake.calls.length
      const started = performance.now()
      const fetched = await fetchHistory(octokit, { owner: 'acme', repo: 'support-bot', workflow: null, branch: 'main', prefix: 'convy', agent: 'support_bot', runs }, scratch)
      times.push(performance.now() - started)
      requests = fake.calls.length - calls
      if (fetched.entries.length !== runs) throw new Error(`read ${fetched.entries.length} of ${runs}`)
    }
    times.sort((a, b) => a - b)
    console.log(`history: ${runs} runs of 20 scenarios: median ${times[3]!.toFixed(0)} ms (min ${times[0]!.toFixed(0)}, max ${times[6]!.toFixed(0)}) over 7 reads, ${requests} requests each`)
  }
} finally {
  await fake.close()
  await rm(scratch, { recursive: true, force: true })
}
