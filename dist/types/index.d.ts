/**
 * convy-ci's public API (`import … from 'convy-ci'`): the helpers custom agent modules use
 * (agent-api.ts); `run()`, which plays scenarios from a test file through the same pipeline as
 * `convy-ci run`; and `readRun()`, `compare()` and `writeReport()`, which read run folders as
 * `convy-ci compare` and `convy-ci report` do (library/).
 */
import type { RunOptions } from './entry/library/options.js';
import type { CompareOptions, ComparisonResult, RunResult } from './entry/library/result-types.js';
import type { RunReference } from './entry/library/recorded-runs.js';
export * from './play/agents/agent-api.js';
export type { CheckInput, RunOptions, ScenarioInput } from './entry/library/options.js';
export type { AttemptFailure, AttemptResult, CompareOptions, ComparisonResult, DialogueLine, Holding, RunResult, ScenarioResult, ScenarioStatus } from './entry/library/result-types.js';
export type { RunReference } from './entry/library/recorded-runs.js';
export { ConvyError, InputError, InputErrors, FileError } from './base/shared/errors.js';
/**
 * Plays scenarios against one agent and returns how it did, per scenario: see library/README.md.
 * This is the library's entry point, as cli/main.ts is the CLI's: the one place run() reads the
 * calling process (its working directory, environment and pid), when it is called, never on import.
 */
export declare function run(options: RunOptions): Promise<RunResult>;
/** A run folder (relative to the working directory) read as run() returns a run: totals, and every attempt with its dialogue. */
export declare function readRun(folder: RunReference): Promise<RunResult>;
/**
 * Compares two runs (folders, or what run() and readRun() returned), before then after, as
 * `convy-ci compare --fail-on` does: the comparison and the gate's result, as data.
 */
export declare function compare(before: RunReference, after: RunReference, options?: CompareOptions): Promise<ComparisonResult>;
/** Writes a run folder's report.html (again), as `convy-ci report` does; returns its path. */
export declare function writeReport(run: RunReference): Promise<string>;
