import { mkdir, open, readdir, rm, stat } from 'node:fs/promises'
import { join, relative, resolve, sep } from 'node:path'
import { listRuns, readAttempts, readManifest } from '../../records/journal/read-run.ts'
import { REPORT_FILE } from '../../records/journal/run-folder.ts'
import { removeOldTemporariesOf, STRAY_TEMPORARY_AGE_MS, writeFileAtomic } from '../../base/shared/atomic-file.ts'
import { errorMessage } from '../../base/shared/errors.ts'
import { passRate, runCounts, type PassCounts } from '../../records/tally/run-counts.ts'
import type { RunTally } from '../../records/tally/run-tally.ts'
import { renderIndex, type IndexEntry, type UnreadableRun } from '../../views/run/index-page.ts'
import { expectedAttempts } from '../../records/journal/adaptive-record.ts'

/**
 * Writes results/index.html: every run folder listed and counted, then rendered by
 * views/run/index-page.ts. Counting a run's verdicts streams its attempts, so the index costs little
 * memory however many runs there are.
 */

async function comparePages(resultsDir: string): Promise<string[]> {
  try {
    return (await readdir(join(resultsDir, 'compare'))).filter((name) => name.endsWith('.html')).sort().reverse()
  } catch {
    return []
  }
}

/** A run the caller has just tallied: the index counts it from the tally instead of reading it again. */
export interface CountedRun {
  dir: string
  tally: RunTally
}

/** Writes `<resultsDir>/index.html` and returns its path; the `counted` runs are not read a second time. */
export async function writeIndex(resultsDir: string, counted: readonly CountedRun[] = []): Promise<string> {
  const target = join(resultsDir, 'index.html')
  await mkdir(resultsDir, { recursive: true })
  await withIndexLock(target, () => writeIndexNow(resultsDir, target, counted))
  return target
}

/** Lists, renders and writes the index; called by the holder of the index's lock. */
async function writeIndexNow(resultsDir: string, target: string, counted: readonly CountedRun[]): Promise<void> {
  const entries: IndexEntry[] = []
  const unreadable: UnreadableRun[] = []
  for (const run of await listRuns(resultsDir)) {
    try {
      entries.push(await indexEntry(resultsDir, run.dir, counted.find((c) => resolve(c.dir) === resolve(run.dir))?.tally))
    } catch (error) {
      unreadable.push({ id: run.id, problem: errorMessage(error) })
    }
  }
  const comparisons = await comparePages(resultsDir)
  const page = renderIndex(entries, unreadable, comparisons)
  await writeFileAtomic(target, page)
  // Concurrent runs each write the index under their own temporary name; what a killed one left is
  // removed once it is surely nobody's (no index takes an hour to write).
  await removeOldTemporariesOf(target, STRAY_TEMPORARY_AGE_MS)
}

function hrefFor(resultsDir: string, runDir: string): string {
  return [...relative(resultsDir, runDir).split(sep), REPORT_FILE].map(encodeURIComponent).join('/')
}

async function indexEntry(resultsDir: string, runDir: string, counted: RunTally | undefined): Promise<IndexEntry> {
  // A run just counted brings its run.json as counted, in its end state: not read again.
  const manifest = counted?.manifest ?? (await readManifest(runDir))
  const entry: IndexEntry = {
    id: manifest.id,
    href: hrefFor(resultsDir, runDir),
    agent: manifest.agent.name,
    state: manifest.state,
    startedAt: manifest.startedAt,
    passed: 0,
    decided: 0,
    counted: 0,
    rate: null,
    attempts: 0,
    expected: expectedAttempts(manifest),
    errors: 0,
  }
  if (counted) {
    const counts = runCounts(counted)
    const rate = passRate(counts.scenarios)
    return { ...entry, attempts: counts.attempts - counted.replays, decided: counts.judged, counted: counts.counted, rate, passed: counts.passed, errors: counts.attempts - counts.judged }
  }
  const byScenario = new Map<string, PassCounts>()
  for await (const attempt of readAttempts(runDir)) {
    // Replays of user errors are played beyond k: the column says planned attempts "of" k × scenarios.
    if (attempt.replayOf === undefined) entry.attempts++
    if (attempt.verdict === 'passed' || attempt.verdict === 'failed') entry.decided++
    else entry.errors++
    if (attempt.verdict === 'passed') entry.passed++
    if (attempt.verdict === 'passed' || attempt.verdict === 'failed' || attempt.verdict === 'agent_error') {
      entry.counted++
      const scenario = byScenario.get(attempt.scenario) ?? { passed: 0, counted: 0 }
      scenario.counted++
      if (attempt.verdict === 'passed') scenario.passed++
      byScenario.set(attempt.scenario, scenario)
    }
  }
  return { ...entry, rate: passRate([...byScenario.values()]) }
}

/**
 * Runs that end at the same time each rewrite results/index.html from the run folders they see. Each
 * write is whole (a temporary file and a rename), but the last writer won even when it had listed the
 * folders before another run finished, and that run was missing from the index. Writers now take
 * turns: `index.html.lock` is created exclusively, and whoever holds it lists, renders and renames.
 * A lock older than STALE_MS is a killed writer's (an index takes well under a second to write).
 */
export const STALE_MS = 60_000
const WAIT_MS = 25

export async function withIndexLock<T>(target: string, write: () => Promise<T>, now: () => number = Date.now): Promise<T> {
  const lock = `${target}.lock`
  for (;;) {
    try {
      const handle = await open(lock, 'wx')
      await handle.close()
      break
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      const since = await stat(lock).then((s) => s.mtimeMs, () => undefined)
      if (since !== undefined && now() - since > STALE_MS) await rm(lock, { force: true })
      else await new Promise((resolve) => setTimeout(resolve, WAIT_MS))
    }
  }
  try {
    return await write()
  } finally {
    await rm(lock, { force: true })
  }
}
