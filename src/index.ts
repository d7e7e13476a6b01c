/**
 * convy-ci's public API (`import … from 'convy-ci'`): the helpers custom agent modules use
 * (agent-api.ts), and `run()`, which plays scenarios from a test file through the same pipeline as
 * `convy-ci run` (library/).
 */
import type { RunOptions } from './entry/library/options.ts'
import type { RunResult } from './entry/library/result-types.ts'

export * from './play/agents/agent-api.ts'
export type { CheckInput, RunOptions, ScenarioInput } from './entry/library/options.ts'
export type { AttemptFailure, Holding, RunResult, ScenarioResult, ScenarioStatus } from './entry/library/result-types.ts'
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
