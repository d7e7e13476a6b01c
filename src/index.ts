/**
 * convy-ci's public API (`import … from 'convy-ci'`): the helpers custom agent modules use
 * (agent-api.ts); `run()`, which plays scenarios from a test file through the same pipeline as
 * `convy-ci run`; and `readRun()`, `compare()` and `writeReport()`, which read run folders as
 * `convy-ci compare` and `convy-ci report` do (library/).
 */
import type { RunOptions } from './entry/library/options.ts'
import type { CompareOptions, ComparisonResult, RunResult } from './entry/library/result-types.ts'
import type { RunReference } from './entry/library/recorded-runs.ts'

export * from './play/agents/agent-api.ts'
export type { CheckInput, RunOptions, ScenarioInput } from './entry/library/options.ts'
export type { AttemptFailure, AttemptResult, CompareOptions, ComparisonResult, DialogueLine, Holding, RunResult, ScenarioResult, ScenarioStatus } from './entry/library/result-types.ts'
export type { RunReference } from './entry/library/recorded-runs.ts'
export { ConvyError, InputError, InputErrors, FileError } from './base/shared/errors.ts'

/**
 * Plays scenarios against one agent and returns how it did, per scenario: see library/README.md.
 * This is the library's entry point, as cli/main.ts is the CLI's: the one place run() reads the
 * calling process (its working directory, environment and pid), when it is called, never on import.
 */
export async function run(options: RunOptions): Promise<RunResult> {
  // Loaded when called: an agent module that imports defineAgent or postJson should not pay for
  // the whole pipeline (a quarter of a second to load).
  const { runFromCode } = await import('./entry/library/run.ts')
  const features = process.features as { typescript?: string | false }
  return runFromCode(options, {
    cwd: process.cwd(),
    env: process.env,
    canStripTypes: features.typescript === 'strip' || features.typescript === 'transform',
    process,
  })
}

/** A run folder (relative to the working directory) read as run() returns a run: totals, and every attempt with its dialogue. */
export async function readRun(folder: RunReference): Promise<RunResult> {
  const { readRecordedRun } = await import('./entry/library/recorded-runs.ts')
  return readRecordedRun(folder, process.cwd())
}

/**
 * Compares two runs (folders, or what run() and readRun() returned), before then after, as
 * `convy-ci compare --fail-on` does: the comparison and the gate's result, as data.
 */
export async function compare(before: RunReference, after: RunReference, options: CompareOptions = {}): Promise<ComparisonResult> {
  const { compareRecordedRuns } = await import('./entry/library/recorded-runs.ts')
  return compareRecordedRuns(before, after, options, process.cwd())
}

/** Writes a run folder's report.html (again), as `convy-ci report` does; returns its path. */
export async function writeReport(run: RunReference): Promise<string> {
  const { writeRecordedReport } = await import('./entry/library/recorded-runs.ts')
  return writeRecordedReport(run, process.cwd())
}
