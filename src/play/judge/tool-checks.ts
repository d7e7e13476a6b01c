import type { ToolCall } from '../agents/agent.ts'
import type { CheckResult } from '../../records/journal/records.ts'
import { checkText, type Check } from '../../records/scenario/scenario.ts'
import { capped } from '../../base/shared/text.ts'

/**
 * The checks decided on the tool calls of a whole attempt, in the order the agent made them:
 * `tool_called` with `args`, `tool_order` and `max_tool_calls`. Each detail names the call it looked
 * at (answer n, its call m) and what differed, so a failed check says what to fix. Tool names and
 * arguments come from the agent: they are quoted short here and escaped wherever they are shown.
 */
export type ToolCheck =
  | Extract<Check, { kind: 'tool_order' | 'max_tool_calls' }>
  | (Extract<Check, { kind: 'tool_called' }> & { args: Record<string, unknown> })

export function isToolCheck(check: Check): check is ToolCheck {
  return check.kind === 'tool_order' || check.kind === 'max_tool_calls' || (check.kind === 'tool_called' && check.args !== undefined)
}

/** A call and where it was: answer n (1-based) and its mth call. */
interface Placed {
  call: ToolCall
  answer: number
  nth: number
}

/** `toolCalls[i]` are the calls answer i came with; `answerCount` the answers the attempt had. */
export function runToolCheck(check: ToolCheck, answerCount: number, toolCalls: readonly (readonly ToolCall[])[]): CheckResult {
  const calls: Placed[] = toolCalls.slice(0, answerCount).flatMap((answer, i) => answer.map((call, j) => ({ call, answer: i + 1, nth: j + 1 })))
  const result = (pass: boolean, detail: string): CheckResult => ({ kind: check.kind, value: checkText(check), pass, detail })
  switch (check.kind) {
    case 'max_tool_calls':
      return result(calls.length <= check.value, maxCallsDetail(calls, check.value))
    case 'tool_order':
      if (answerCount === 0) return result(false, 'the agent gave no answer')
      return orderResult(check.value, calls, result)
    case 'tool_called':
      if (answerCount === 0) return result(false, 'the agent gave no answer')
      return argsResult(check.value, check.args, calls, result)
  }
}

function argsResult(name: string, args: Record<string, unknown>, calls: readonly Placed[], result: (pass: boolean, detail: string) => CheckResult): CheckResult {
  const named = calls.filter((placed) => placed.call.name === name)
  if (named.length === 0) return result(false, noSuchCall(calls))
  const compared = named.map((placed) => ({ placed, differences: differences(args, placed.call.arguments, []) }))
  const match = compared.find((c) => c.differences.length === 0)
  if (match) return result(true, `${where(match.placed)} called it with these arguments`)
  const closest = compared.reduce((best, c) => (c.differences.length < best.differences.length ? c : best))
  const [first, ...more] = closest.differences
  const times = named.length === 1 ? 'once' : `${named.length} times`
  const rest = more.length === 0 ? '' : ` (and ${more.length} more difference${more.length === 1 ? '' : 's'})`
  const closestAt = named.length === 1 ? `at ${where(closest.placed)}` : `the closest, at ${where(closest.placed)}`
  return result(false, `called ${times}, never with these arguments; ${closestAt}: ${first}${rest}`)
}

function orderResult(names: readonly string[], calls: readonly Placed[], result: (pass: boolean, detail: string) => CheckResult): CheckResult {
  const found: Placed[] = []
  let from = 0
  for (const name of names) {
    const at = calls.findIndex((placed, i) => i >= from && placed.call.name === name)
    if (at < 0) {
      const previous = found.at(-1)
      const after = previous ? ` after ${quoted(previous.call.name)} (${where(previous)})` : ''
      const earlier = calls.find((placed) => placed.call.name === name)
      const detail = earlier
        ? `${quoted(name)} was called at ${where(earlier)}, but not${after}; the calls in order: ${sequence(calls)}`
        : `${quoted(name)} was never called${after ? `${after} or before` : ''}; ${calls.length === 0 ? noSuchCall(calls) : `the calls in order: ${sequence(calls)}`}`
      return result(false, detail)
    }
    found.push(calls[at]!)
    from = at + 1
  }
  return result(true, `in this order: ${found.map((placed) => `${quoted(placed.call.name)} (${where(placed)})`).join(', ')}`)
}

function maxCallsDetail(calls: readonly Placed[], max: number): string {
  if (calls.length === 0) return 'no tool call (the agent made none, or its protocol does not show them)'
  const counts = new Map<string, number>()
  for (const { call } of calls) counts.set(call.name, (counts.get(call.name) ?? 0) + 1)
  const byTool = [...counts].sort(([, a], [, b]) => b - a).map(([name, n]) => `${quoted(name)} ×${n}`)
  const listed = byTool.length > 10 ? [...byTool.slice(0, 10), `${byTool.length - 10} more tools`] : byTool
  const total = `${calls.length} tool call${calls.length === 1 ? '' : 's'}`
  return calls.length <= max ? `${total}, at most ${max} allowed: ${listed.join(', ')}` : `${total}, more than ${max}: ${listed.join(', ')}`
}

// Not seeing a call can mean the agent made none, or that its protocol does not show tool calls.
function noSuchCall(calls: readonly Placed[]): string {
  if (calls.length === 0) return 'no answer came with a tool call (the agent made none, or its protocol does not show them)'
  return `no answer called it (tools called: ${[...new Set(calls.map((placed) => quoted(placed.call.name)))].join(', ')})`
}

function where(placed: Placed): string {
  return placed.nth === 1 ? `answer ${placed.answer}` : `answer ${placed.answer}, call ${placed.nth}`
}

const SEQUENCE_SHOWN = 20
function sequence(calls: readonly Placed[]): string {
  const names = calls.slice(0, SEQUENCE_SHOWN).map((placed) => quoted(placed.call.name))
  return names.join(', ') + (calls.length > SEQUENCE_SHOWN ? `, … (${calls.length - SEQUENCE_SHOWN} more)` : '')
}

function quoted(name: string): string {
  return capped(name, 100)
}

/**
 * How `actual` fails to hold `expected`, one sentence per difference. Objects are subsets: every key
 * given must be there, compared the same way, and other keys may be there too. Arrays are compared
 * item by item, and must be as long. Everything else must be equal as JSON (20 is not "20").
 */
export function differences(expected: unknown, actual: unknown, path: readonly (string | number)[]): string[] {
  const at = path.length === 0 ? 'the arguments' : `\`${path.join('.')}\``
  if (isObject(expected)) {
    if (!isObject(actual)) return [`${at} ${path.length === 0 ? 'are' : 'is'} ${shown(actual)}, not a mapping`]
    return Object.entries(expected).flatMap(([key, value]) =>
      Object.hasOwn(actual, key) ? differences(value, actual[key], [...path, key]) : [`\`${[...path, key].join('.')}\` is missing`],
    )
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return [`${at} is ${shown(actual)}, expected a list ${shown(expected)}`]
    if (actual.length !== expected.length) return [`${at} has ${actual.length} item${actual.length === 1 ? '' : 's'}, expected ${expected.length}: ${shown(actual)}`]
    return expected.flatMap((item, i) => differences(item, actual[i], [...path, i]))
  }
  if (expected === actual) return []
  // 20 against "20" reads the same in a message: say which one is text.
  const kind = (value: unknown) => (typeof value === 'string' && typeof expected !== typeof actual ? ' (text)' : '')
  return [`${at} is ${shown(actual)}${kind(actual)}, expected ${shown(expected)}${kind(expected)}`]
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

function shown(value: unknown): string {
  if (value === undefined) return 'absent'
  return capped(JSON.stringify(value) ?? String(value), 80)
}
