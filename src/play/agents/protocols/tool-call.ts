import type { ToolCall } from '../agent.ts'

/**
 * Tool calls as protocols carry them: arguments often come as JSON text (OpenAI's `arguments`),
 * sometimes as an object. They are recorded as data either way, so the report, the judge and any
 * later tool check see `{"id": "1234"}` rather than an escaped string.
 */
export function toolCall(name: string, args: unknown): ToolCall {
  return args === undefined ? { name } : { name, arguments: parsedArguments(args) }
}

/** The call with what the tool gave back; a result sent as JSON text is kept as the data it spells. */
export function withResult(call: ToolCall, result: unknown): ToolCall {
  const parsed = parsedArguments(result)
  return parsed === undefined ? call : { ...call, result: parsed }
}

function parsedArguments(args: unknown): unknown {
  if (typeof args !== 'string') return args
  const trimmed = args.trim()
  if (trimmed === '') return undefined
  try {
    return JSON.parse(trimmed) as unknown
  } catch {
    // Not JSON (a custom tool's free text, or fragments that never completed): keep what was sent.
    return args
  }
}
