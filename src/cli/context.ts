// A command runs with the pipeline's context: cli/ adds nothing to it but argv.
export type { Output, PipelineContext as CliContext } from '../pipeline/context.ts'
