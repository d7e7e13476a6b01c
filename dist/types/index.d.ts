/**
 * convy-ci's public API (`import … from 'convy-ci'`): the helpers custom agent modules use
 * (agent-api.ts), and `run()`, which plays scenarios from a test file through the same pipeline as
 * `convy-ci run` (library/).
 */
import type { RunOptions } from './entry/library/options.js';
import type { RunResult } from './entry/library/result-types.js';
export * from './play/agents/agent-api.js';
export type { CheckInput, RunOptions, ScenarioInput } from './entry/library/options.js';
export type { AttemptFailure, Holding, RunResult, ScenarioResult, ScenarioStatus } from './entry/library/result-types.js';
export { ConvyError, InputError, InputErrors, FileError } from './base/shared/errors.js';
/**
 * Plays scenarios against one agent and returns how it did, per scenario: see library/README.md.
 * This is the library's entry point, as cli/main.ts is the CLI's: the one place run() reads the
 * calling process (its working directory, environment and pid), when it is called, never on import.
 */
export declare function run(options: RunOptions): Promise<RunResult>;
