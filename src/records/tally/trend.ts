import { mkdir, readFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import * as z from '../../base/shared/zod.ts'
import { writeFileAtomic } from '../../base/shared/atomic-file.ts'
import { parseRunSummary, type RunSummary } from './run-summary.ts'

/**
 * The default branch's trend: the summaries of its last runs (run-summary.ts), kept beside an agent's
 * runs as results/<agent>/history.json, and what they say per scenario. The action and `convy-ci
 * baseline --history N` write the file; report.html and the compare page read it when it is there.
 */
export const HISTORY_FILE = 'history.json'
const HISTORY_FORMAT = 1
/** The file holds at most this many runs' summaries: the action's `history` input is capped the same. */
export const HISTORY_MAX_RUNS = 50

/** One run of the default branch: its summary and the workflow run that uploaded it, when known. */
export interface HistoryEntry {
  workflowRun: number | null
  summary: RunSummary
}

/** The history fetched for an agent, newest run first. */
export interface History {
  branch: string | null
  entries: HistoryEntry[]
}

const HistoryFileSchema = z.object({
  format: z.literal(HISTORY_FORMAT),
  branch: z.nullable(z.string().check(z.maxLength(300))),
  fetchedAt: z.string(),
  runs: z.array(z.object({ workflowRun: z.nullable(z.int()), summary: z.unknown() })).check(z.maxLength(HISTORY_MAX_RUNS)),
})

/** The history file of the agent whose run folder is `runDir` (results/<agent>/<stamp>/). */
export function historyFileBeside(runDir: string): string {
  return join(dirname(runDir), HISTORY_FILE)
}

export async function writeHistory(file: string, history: History, now: Date): Promise<void> {
  await mkdir(dirname(file), { recursive: true })
  const runs = history.entries.slice(0, HISTORY_MAX_RUNS).map((e) => ({ workflowRun: e.workflowRun, summary: e.summary }))
  await writeFileAtomic(file, `${JSON.stringify({ format: HISTORY_FORMAT, branch: history.branch, fetchedAt: now.toISOString(), runs }, null, 1)}\n`)
}

/**
 * The history file, or null when there is none. A file that cannot be read as a whole is a problem
 * and no history; a summary in it that does not parse is left out with a problem each.
 */
export async function readHistory(file: string): Promise<{ history: History | null; problems: string[] }> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch {
    return { history: null, problems: [] }
  }
  if (text.length > HISTORY_MAX_RUNS * 300 * 1024) return { history: null, problems: [`${file} is too large to be a history`] }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    return { history: null, problems: [`${file} is not JSON`] }
  }
  const parsed = HistoryFileSchema.safeParse(json)
  if (!parsed.success) return { history: null, problems: [`${file} is not a history of runs`] }
  const problems: string[] = []
  const entries: HistoryEntry[] = []
  for (const [index, run] of parsed.data.runs.entries()) {
    const read = parseRunSummary(JSON.stringify(run.summary))
    if ('problem' in read) problems.push(`${file}: run ${index + 1} left out: ${read.problem}`)
    else entries.push({ workflowRun: run.workflowRun, summary: read.summary })
  }
  return { history: { branch: parsed.data.branch, entries }, problems }
}

/** A scenario in one run of the history. */
export interface TrendPoint {
  run: string
  startedAt: string
  passed: number
  /** Passed, failed or ended by an agent error: the pass rate's denominator (run-counts.ts). */
  judged: number
}

/** One scenario over the history: a point per run, oldest first; null where that run has no verdict for it. */
export interface ScenarioTrend {
  id: string
  points: (TrendPoint | null)[]
  /** The lowest and highest pass rate among the runs with a verdict; null with none. */
  low: number | null
  high: number | null
  /** Runs with a verdict for it. */
  runs: number
  /** Its pass rate varied on the branch (flakyOnBranch). */
  flaky: boolean
}

export interface Trend {
  branch: string | null
  /** Runs of the history, oldest first. */
  runs: { run: string; startedAt: string; workflowRun: number | null }[]
  scenarios: Map<string, ScenarioTrend>
}

/** At least this many runs must vary before a scenario is called flaky on the branch. */
export const FLAKY_RUNS = 3

/**
 * What the history says of each scenario, for a run of the agent: runs of other agents, the run
 * itself and runs started after it are left out (a report made again later shows the history before it).
 */
export function trendOf(history: History, run: { id: string; agent: string; startedAt: string }): Trend | null {
  const started = Date.parse(run.startedAt)
  const entries = history.entries
    .filter((e) => e.summary.agent === run.agent && e.summary.run !== run.id && !(Date.parse(e.summary.startedAt) >= started))
    .sort((a, b) => a.summary.startedAt.localeCompare(b.summary.startedAt))
  const seen = new Set<string>()
  const unique = entries.filter((e) => !seen.has(e.summary.run) && seen.add(e.summary.run))
  if (unique.length === 0) return null
  const scenarios = new Map<string, ScenarioTrend>()
  for (const [index, entry] of unique.entries()) {
    for (const s of entry.summary.scenarios) {
      let trend = scenarios.get(s.id)
      if (!trend) {
        trend = { id: s.id, points: new Array<TrendPoint | null>(unique.length).fill(null), low: null, high: null, runs: 0, flaky: false }
        scenarios.set(s.id, trend)
      }
      // The pass rate as every surface counts it (run-counts.ts): an agent error did not pass.
      const counted = s.judged + s.errors
      if (counted > 0) trend.points[index] = { run: entry.summary.run, startedAt: entry.summary.startedAt, passed: s.passed, judged: counted }
    }
  }
  for (const trend of scenarios.values()) {
    const rates = trend.points.filter((p): p is TrendPoint => p !== null).map((p) => p.passed / p.judged)
    trend.runs = rates.length
    trend.low = rates.length ? Math.min(...rates) : null
    trend.high = rates.length ? Math.max(...rates) : null
    trend.flaky = flakyOnBranch(trend.points)
  }
  return {
    branch: history.branch,
    runs: unique.map((e) => ({ run: e.summary.run, startedAt: e.summary.startedAt, workflowRun: e.workflowRun })),
    scenarios,
  }
}

/**
 * Flaky on the branch: in at least FLAKY_RUNS runs it passed some attempts and failed others, or at
 * least FLAKY_RUNS runs' rates differ from its most common one. Either way a reviewer should not read
 * one bad run of it as the pull request's doing.
 */
export function flakyOnBranch(points: readonly (TrendPoint | null)[]): boolean {
  const played = points.filter((p): p is TrendPoint => p !== null)
  if (played.filter((p) => p.passed > 0 && p.passed < p.judged).length >= FLAKY_RUNS) return true
  const counts = new Map<number, number>()
  for (const p of played) {
    const rate = p.passed / p.judged
    counts.set(rate, (counts.get(rate) ?? 0) + 1)
  }
  const mostCommon = Math.max(0, ...counts.values())
  return played.length - mostCommon >= FLAKY_RUNS
}
