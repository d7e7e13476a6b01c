import type { CompareOptions, ComparisonResult, RunResult } from './result-types.js';
/** A run folder, or what run() or readRun() returned for one. */
export type RunReference = string | Pick<RunResult, 'dir'>;
/** A run folder as run() returns a run: its totals, and per scenario every attempt with its dialogue. */
export declare function readRecordedRun(run: RunReference, cwd: string): Promise<RunResult>;
/** Two run folders compared as `convy-ci compare --fail-on` compares them: the comparison and the gate, as data. */
export declare function compareRecordedRuns(before: RunReference, after: RunReference, options: CompareOptions, cwd: string): Promise<ComparisonResult>;
/** Writes (again) a run folder's report.html, as `convy-ci report` does, and returns its path. */
export declare function writeRecordedReport(run: RunReference, cwd: string): Promise<string>;
