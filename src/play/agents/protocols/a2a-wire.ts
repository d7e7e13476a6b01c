/**
 * The two dialects of Agent2Agent JSON-RPC, turned into one shape. v1.0 has `SendMessage`,
 * SCREAMING_CASE enums and results wrapped by kind (`{task: …}`, `{statusUpdate: …}`); v0.3 has
 * `message/send`, kebab-case states and a `kind` field on each result. Both put text in parts with a
 * `text` field.
 */
export type A2aVersion = '1.0' | '0.3'

export interface A2aPart {
  text?: unknown
  [field: string]: unknown
}

export interface A2aArtifact {
  artifactId?: string
  parts?: A2aPart[]
}

export interface A2aMessage {
  role?: string
  contextId?: string
  taskId?: string
  parts?: A2aPart[]
  metadata?: unknown
}

export interface A2aStatus {
  state?: string
  message?: A2aMessage
}

export interface A2aTask {
  id?: string
  contextId?: string
  status?: A2aStatus
  artifacts?: A2aArtifact[]
  history?: A2aMessage[]
  metadata?: unknown
}

/** One result, or one event of a stream, whichever dialect it came in. */
export type A2aResult =
  | { kind: 'message'; message: A2aMessage }
  | { kind: 'task'; task: A2aTask }
  | { kind: 'status'; taskId?: string; contextId?: string; status?: A2aStatus; final: boolean; metadata?: unknown }
  | { kind: 'artifact'; taskId?: string; contextId?: string; artifact?: A2aArtifact; append: boolean; metadata?: unknown }
  | { kind: 'unknown' }

export function methodFor(version: A2aVersion, stream: boolean): string {
  if (version === '1.0') return stream ? 'SendStreamingMessage' : 'SendMessage'
  return stream ? 'message/stream' : 'message/send'
}

/** The `A2A-Version` header: without it a v1.0 server does not know its own methods (-32601). */
export function versionHeaders(version: A2aVersion): Record<string, string> {
  return version === '1.0' ? { 'A2A-Version': '1.0' } : {}
}

/** The user's message; the attempt's context, when there is one, is its `metadata`. */
export function userMessage(version: A2aVersion, text: string, messageId: string, ids: { contextId?: string; taskId?: string }, context: Readonly<Record<string, unknown>> = {}): Record<string, unknown> {
  const continued = { ...(ids.contextId ? { contextId: ids.contextId } : {}), ...(ids.taskId ? { taskId: ids.taskId } : {}), ...(Object.keys(context).length > 0 ? { metadata: { ...context } } : {}) }
  if (version === '1.0') return { messageId, role: 'ROLE_USER', parts: [{ text }], ...continued }
  return { kind: 'message', messageId, role: 'user', parts: [{ kind: 'text', text }], ...continued }
}

export function readResult(version: A2aVersion, result: unknown): A2aResult {
  if (result === null || typeof result !== 'object') return { kind: 'unknown' }
  const r = result as Record<string, unknown>
  if (version === '1.0') {
    if (r['message']) return { kind: 'message', message: r['message'] as A2aMessage }
    if (r['task']) return { kind: 'task', task: r['task'] as A2aTask }
    if (r['statusUpdate']) return status(r['statusUpdate'] as Record<string, unknown>)
    if (r['artifactUpdate']) return artifact(r['artifactUpdate'] as Record<string, unknown>)
    return { kind: 'unknown' }
  }
  switch (r['kind']) {
    case 'message':
      return { kind: 'message', message: r as A2aMessage }
    case 'task':
      return { kind: 'task', task: r as A2aTask }
    case 'status-update':
      return status(r)
    case 'artifact-update':
      return artifact(r)
    default:
      return { kind: 'unknown' }
  }
}

function status(r: Record<string, unknown>): A2aResult {
  return { kind: 'status', taskId: r['taskId'] as string, contextId: r['contextId'] as string, status: r['status'] as A2aStatus, final: r['final'] === true, metadata: r['metadata'] }
}

function artifact(r: Record<string, unknown>): A2aResult {
  return { kind: 'artifact', taskId: r['taskId'] as string, contextId: r['contextId'] as string, artifact: r['artifact'] as A2aArtifact, append: r['append'] === true, metadata: r['metadata'] }
}

/** `TASK_STATE_INPUT_REQUIRED` and `input-required` alike become `input-required`. */
export function stateOf(status: A2aStatus | undefined): string {
  return String(status?.state ?? 'unknown').toLowerCase().replace(/^task_state_/, '').replaceAll('_', '-')
}

export const ANSWERED_STATES = ['completed']
/** The agent waits for the user: the next message continues the same task. */
export const WAITING_STATES = ['input-required', 'auth-required']
export const FAILED_STATES = ['failed', 'rejected', 'canceled']

/**
 * A2A has no tool calls of its own. Google's ADK (and agents that follow it) report each one as a
 * data part `{name, args, id}` marked `adk_type` (or `type`) `function_call` in its metadata.
 */
export function functionCallsOf(parts: readonly A2aPart[] | undefined): { id: string | undefined; name: string; args: unknown }[] {
  return (parts ?? []).flatMap((part) => {
    const metadata = (part.metadata ?? {}) as Record<string, unknown>
    const data = part.data as { id?: unknown; name?: unknown; args?: unknown } | undefined
    if ((metadata['adk_type'] ?? metadata['type']) !== 'function_call' || typeof data?.name !== 'string') return []
    return [{ id: typeof data.id === 'string' ? data.id : undefined, name: data.name, args: data.args }]
  })
}

/**
 * A tool's result as ADK reports it: a data part `{id, name, response}` marked `function_response`,
 * in a message, a status update or an artifact, answering the call with the same id.
 */
export function functionResponsesOf(parts: readonly A2aPart[] | undefined): { id: string | undefined; name: string; response: unknown }[] {
  return (parts ?? []).flatMap((part) => {
    const metadata = (part.metadata ?? {}) as Record<string, unknown>
    const data = part.data as { id?: unknown; name?: unknown; response?: unknown } | undefined
    if ((metadata['adk_type'] ?? metadata['type']) !== 'function_response' || typeof data?.name !== 'string') return []
    return [{ id: typeof data.id === 'string' ? data.id : undefined, name: data.name, response: data.response }]
  })
}

/** What the agent said since the user's last message: a task's history holds every turn of the task. */
export function latestAgentMessages(history: readonly A2aMessage[] | undefined): A2aMessage[] {
  const messages = history ?? []
  const lastUser = messages.map((m) => String(m.role).toLowerCase()).findLastIndex((role) => role === 'user' || role === 'role_user')
  return messages.slice(lastUser + 1)
}

export function textOf(parts: readonly A2aPart[] | undefined): string {
  return textsOf(parts).join('')
}

/** Each text part that says something, in order. */
export function textsOf(parts: readonly A2aPart[] | undefined): string[] {
  return (parts ?? []).flatMap((part) => (typeof part.text === 'string' && part.text !== '' ? [part.text] : []))
}
