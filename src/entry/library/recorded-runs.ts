import { resolve } from 'node:path'
import { readAllAttempts } from '../../records/journal/read-run.ts'
import { readTally } from '../../records/tally/read-tally.ts'
import { compareRuns } from '../../verdict/compare-runs.ts'
import { FAIL_ON, gateFails } from '../../verdict/gate.ts'
import { decideGate } from '../../verdict/decide-gate.ts'
import { baselineHealth } from '../../verdict/baseline-health.ts'
import { standing } from '../../verdict/standing.ts'
import { writeRunReport } from '../../app/pipeline/write-report.ts'
import { comparisonOptions } from '../../app/pipeline/compare.ts'
import { historyFileBeside, readHistory } from '../../records/tally/trend.ts'
import { InputError } from '../../base/shared/errors.ts'
import { scenarioResults, totals } from './result.ts'
import type { CompareOptions, ComparisonResult, RunResult } from './result-types.ts'
import { expectedAttempts } from '../../records/journal/adaptive-record.ts'

// The run folders a run leaves, read from code as the CLI reads them: `readRun`, `compare` and
// `writeReport` are `convy-ci report` and `convy-ci compare` for a test file or a script.

/** A run folder, or what run() or readRun() returned for one. */
export type RunReference = string | Pick<RunResult, 'dir'>

function folderOf(run: RunReference, cwd: string, what: string): string {
  const dir = typeof run === 'string' ? run : run.dir
  if (dir === null) throw new InputError(`${what}: the run was played with write: false, so it has no folder to read`)
  return resolve(cwd, dir)
}

/** A run folder as run() returns a run: its totals, and per scenario every attempt with its dialogue. */
export async function readRecordedRun(run: RunReference, cwd: string): Promise<RunResult> {
  const dir = folderOf(run, cwd, 'readRun()')
  const [tally, attempts] = await Promise.all([readTally(dir), readAllAttempts(dir)])
  const manifest = tally.manifest
  const planned = expectedAttempts(manifest)
  return {
    agent: manifest.agent.name,
    id: manifest.id,
    dir,
    report: resolve(dir, 'report.html'),
    ...totals(tally),
    complete: manifest.state === 'finished' && (manifest.settings.shard !== null || tally.attempts >= planned),
    exitCode: tally.attempts === 0 ? 1 : [...tally.scenarios.values()].some((s) => s.agentErrors + s.noVerdicts > 0) ? 1 : 0,
    scenarios: scenarioResults(tally, attempts),
  }
}

/** Two run folders compared as `convy-ci compare --fail-on` compares them: the comparison and the gate, as data. */
export async function compareRecordedRuns(before: RunReference, after: RunReference, options: CompareOptions, cwd: string): Promise<ComparisonResult> {
  const failOn = options.failOn ?? 'worse'
  if (!FAIL_ON.includes(failOn)) throw new InputError(`compare(): failOn ${String(failOn)}: expected one of ${FAIL_ON.join(', ')}`)
  const slowerPercent = atLeastZero(options.failOnSlower, 'failOnSlower', 'a percentage')
  const costlierPercent = atLeastZero(options.failOnCostlier, 'failOnCostlier', 'a percentage')
  const minSpeedChangeMs = atLeastZero(options.minSpeedChangeMs, 'minSpeedChangeMs', 'a number of milliseconds')
  const afterDir = folderOf(after, cwd, 'compare()')
  const [beforeTally, afterTally, { history }] = await Promise.all([readTally(folderOf(before, cwd, 'compare()')), readTally(afterDir), readHistory(historyFileBeside(afterDir))])
  // The same options as `convy-ci compare`: the default branch's trend beside the after run says how much answer times drift.
  const comparison = compareRuns(beforeTally, afterTally, comparisonOptions(new Date(), { maxAgeDays: options.maxAgeDays, minSpeedChangeSeconds: minSpeedChangeMs === null ? undefined : minSpeedChangeMs / 1000 }, history))
  // The one gate (verdict/decide-gate.ts), the baseline's health and the speed and cost limits counted as compare --fail-on counts them.
  const { result } = decideGate({ comparison }, { failOn, acrossJudgeChange: options.gateAcrossJudgeChange ?? false, health: baselineHealth(beforeTally, afterTally), slowerPercent, costlierPercent })
  return {
    before: comparison.before.id,
    after: comparison.after.id,
    standing: standing(comparison),
    passRate: { before: comparison.tiles.passRate.before, after: comparison.tiles.passRate.after },
    worse: comparison.scenarios.worse.map((s) => s.id),
    better: comparison.scenarios.better.map((s) => s.id),
    notCompared: comparison.scenarios.notCompared.map((s) => ({ id: s.id, reason: s.reason })),
    warnings: comparison.warnings.map((w) => w.message),
    gate: { failOn, outcome: result.outcome, reason: result.reason, fails: gateFails(result, options.failOnInconclusive ?? true) },
    details: JSON.parse(JSON.stringify(comparison)) as Record<string, unknown>,
  }
}

function atLeastZero(value: number | undefined, name: string, what: string): number | null {
  if (value === undefined) return null
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) throw new InputError(`compare(): ${name} ${String(value)}: expected ${what}, 0 or more`)
  return value
}

/** Writes (again) a run folder's report.html, as `convy-ci report` does, and returns its path. */
export async function writeRecordedReport(run: RunReference, cwd: string): Promise<string> {
  return writeRunReport(folderOf(run, cwd, 'writeReport()'))
}
