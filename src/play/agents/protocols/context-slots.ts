/**
 * Where the attempt's context goes in the protocols that have a slot for it (docs/agents.md,
 * "Context"). An empty context adds nothing: an agent without one sees the same requests as before.
 */
type Context = Readonly<Record<string, unknown>>

export function hasContext(context: Context | undefined): context is Context {
  return context !== undefined && Object.keys(context).length > 0
}

function isMap(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

/** The context's keys over a map the configuration already sends in the same slot (kept when it is not a map). */
export function mergedMap(existing: unknown, context: Context): Record<string, unknown> {
  return { ...(isMap(existing) ? existing : {}), ...context }
}

/**
 * OpenAI's `metadata` holds only strings (16 keys, 512 characters each, on OpenAI itself): a string
 * value is sent as it is, anything else (a number, a list, a nested map) as its JSON text. Nothing is
 * cut: a server that enforces the limits refuses the request, and the turn fails saying so.
 */
export function metadataStrings(context: Context): Record<string, string> {
  return Object.fromEntries(Object.entries(context).map(([key, value]) => [key, typeof value === 'string' ? value : JSON.stringify(value) ?? 'null']))
}

/** The context as an OpenAI chat agent's model reads it: a system message's text (openai-chat.ts says why). */
export function contextSystemText(context: Context): string {
  return `Context for this conversation (JSON):\n${JSON.stringify(context, null, 2)}`
}
