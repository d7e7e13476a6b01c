import type { ServedCall, ToolCall, Turn } from './records.ts'

/**
 * The tool calls of an attempt as evidence: what the agent reported with each answer, and what
 * convy-ci's own tools served meanwhile (play/tools/). Checks, the judge, the tallies and the pages
 * all read them through here, so they count the same calls.
 *
 * One call, two witnesses: a served call and a reported call of the same answer, with the same name
 * and equal arguments, are one call, kept as served (convy-ci saw it, and its answer is convy-ci's);
 * they pair in order, first with first. Served calls of an answer come first, in the order they
 * arrived; reported calls left unpaired (tools convy-ci does not serve) follow, in the agent's order.
 * A served call that came between answers (while the conversation opened or closed) goes with the
 * next answer, or the last one.
 */
export interface SeenCall extends ToolCall {
  /** convy-ci served it (it is in the attempt's `tools.calls`). */
  served?: true
  /** The tool error it answered, when served. */
  error?: string
  /** The fault injected on purpose, when served: `call 1: error "upstream timeout"`. */
  fault?: string
}

/** `calls[i]` are answer i+1's; `answerCount` the attempt's answers (agent turns that did not fail). */
export function callsByAnswer(answerCount: number, reported: readonly (readonly ToolCall[])[], served: readonly ServedCall[] | undefined): SeenCall[][] {
  const byAnswer: SeenCall[][] = Array.from({ length: answerCount }, () => [])
  if (answerCount === 0) return byAnswer
  let pending: SeenCall[] = []
  for (const call of served ?? []) {
    const seen = seenOf(call)
    if (call.turn === undefined) pending.push(seen)
    else {
      const slot = byAnswer[Math.min(call.turn, answerCount) - 1]!
      slot.push(...pending, seen)
      pending = []
    }
  }
  byAnswer[answerCount - 1]!.push(...pending)
  return byAnswer.map((servedHere, i) => {
    const unpaired = [...servedHere]
    const extra = (reported[i] ?? []).filter((call) => {
      const twin = unpaired.findIndex((s) => s.name === call.name && sameJson(s.arguments, call.arguments))
      if (twin < 0) return true
      unpaired.splice(twin, 1)
      return false
    })
    return [...servedHere, ...extra]
  })
}

/** The same, from a recorded attempt's turns. */
export function attemptCalls(turns: readonly Turn[], served: readonly ServedCall[] | undefined): SeenCall[][] {
  const answered = turns.filter((turn) => turn.role === 'agent' && turn.error === null)
  return callsByAnswer(answered.length, answered.map((turn) => turn.toolCalls ?? []), served)
}

function seenOf(call: ServedCall): SeenCall {
  return {
    name: call.name,
    ...(call.arguments === undefined ? {} : { arguments: call.arguments }),
    ...(call.result === undefined ? {} : { result: call.result }),
    served: true,
    ...(call.error === undefined ? {} : { error: call.error }),
    ...(call.fault === undefined ? {} : { fault: call.fault }),
  }
}

/** Equal as JSON with keys in any order (an agent may order them differently from the MCP client). */
function sameJson(a: unknown, b: unknown): boolean {
  return canonical(a ?? {}) === canonical(b ?? {})
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`
  if (value !== null && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`)
      .join(',')}}`
  }
  return JSON.stringify(value) ?? 'null'
}
