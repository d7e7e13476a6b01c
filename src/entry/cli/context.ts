import type { PipelineContext } from '../../app/pipeline/context.ts'

export type { Output } from '../../app/pipeline/context.ts'

/** A command runs with the pipeline's context, and standard input for `chat`. */
export interface CliContext extends PipelineContext {
  /** Standard input, line by line; called once, by the one command that reads it. */
  readLines?: () => AsyncIterable<string>
}
