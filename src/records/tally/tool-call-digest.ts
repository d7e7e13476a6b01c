import type { Attempt } from '../journal/records.ts'
import { attemptCalls } from '../journal/tool-evidence.ts'
import { capped } from '../../base/shared/text.ts'

/** A tool call as a tally keeps it: the name, and the arguments when their JSON is short. */
export interface ToolCallDigest {
  name: string
  arguments?: unknown
  /** Served by convy-ci's tools (play/tools/), reported by the agent or not. */
  served?: true
  /** The fault injected on purpose into a served call: `call 1: error "upstream timeout"`. */
  fault?: string
}

/**
 * Per attempt, at most this many calls; arguments whose JSON is longer are left out: a document is
 * not an argument a comparison can count, and a tally stays small whatever the agent sent.
 */
export const DIGEST_TOOL_CALLS = 50
export const DIGEST_ARGUMENTS_CHARS = 1_000

/**
 * The tools an attempt's answers called, in order, bounded as above: reported and served, each call
 * once (tool-evidence.ts). Results are not kept: the dialogue has them.
 */
export function toolCallDigests(attempt: Attempt): ToolCallDigest[] {
  const calls = attemptCalls(attempt.turns, attempt.tools?.calls).flat()
  return calls.slice(0, DIGEST_TOOL_CALLS).map((call) => {
    const json = call.arguments === undefined ? undefined : JSON.stringify(call.arguments)
    const name = capped(call.name, 200)
    const marks = { ...(call.served ? { served: true as const } : {}), ...(call.fault === undefined ? {} : { fault: capped(call.fault, 200) }) }
    return json !== undefined && json.length <= DIGEST_ARGUMENTS_CHARS ? { name, arguments: call.arguments, ...marks } : { name, ...marks }
  })
}
