/**
 * The part of a chat completion convy-ci reads; the rest may be anything a compatible server sends.
 * Checked by hand rather than with a zod schema because it runs on every model call: zod's first
 * parse compiles the schema and later ones cost tens of microseconds, a visible share of the runner's
 * CPU at a thousand calls a second (bench/runner.ts). test/models/completion.test.ts holds it to the
 * shape a schema would accept.
 */
export interface Completion {
  choices: { message: { content?: string | null; refusal?: string | null }; finish_reason?: string | null }[]
  usage?: { prompt_tokens?: number | null; completion_tokens?: number | null } | null
}

/** The completion, or undefined when the body does not have that shape. */
export function readCompletion(body: unknown): Completion | undefined {
  if (!isRecord(body)) return undefined
  const { choices, usage } = body
  if (!Array.isArray(choices) || choices.length === 0 || !choices.every(isChoice)) return undefined
  if (usage !== undefined && usage !== null && !(isRecord(usage) && isNumberOrNothing(usage['prompt_tokens']) && isNumberOrNothing(usage['completion_tokens']))) {
    return undefined
  }
  return body as unknown as Completion
}

function isChoice(choice: unknown): boolean {
  if (!isRecord(choice) || !isStringOrNothing(choice['finish_reason'])) return false
  const message = choice['message']
  return isRecord(message) && isStringOrNothing(message['content']) && isStringOrNothing(message['refusal'])
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function isStringOrNothing(value: unknown): boolean {
  return value === undefined || value === null || typeof value === 'string'
}

function isNumberOrNothing(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'number' && Number.isFinite(value))
}
