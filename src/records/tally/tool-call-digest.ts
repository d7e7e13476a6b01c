import { answers } from '../journal/attempt-facts.ts'
import type { Attempt } from '../journal/records.ts'
import { capped } from '../../base/shared/text.ts'

/** A tool call as a tally keeps it: the name, and the arguments when their JSON is short. */
export interface ToolCallDigest {
  name: string
  arguments?: unknown
}

/**
 * Per attempt, at most this many calls; arguments whose JSON is longer are left out: a document is
 * not an argument a comparison can count, and a tally stays small whatever the agent sent.
 */
export const DIGEST_TOOL_CALLS = 50
export const DIGEST_ARGUMENTS_CHARS = 1_000

/** The tools an attempt's answers called, in order, bounded as above. Results are not kept: the dialogue has them. */
export function toolCallDigests(attempt: Attempt): ToolCallDigest[] {
  const calls = answers(attempt.turns).flatMap((turn) => turn.toolCalls ?? [])
  return calls.slice(0, DIGEST_TOOL_CALLS).map((call) => {
    const json = call.arguments === undefined ? undefined : JSON.stringify(call.arguments)
    const name = capped(call.name, 200)
    return json !== undefined && json.length <= DIGEST_ARGUMENTS_CHARS ? { name, arguments: call.arguments } : { name }
  })
}
