import type { ToolCall } from '../agent.ts'
import { ANSWERED_STATES, FAILED_STATES, functionCallsOf, functionResponsesOf, latestAgentMessages, stateOf, textOf, textsOf, WAITING_STATES, type A2aMessage, type A2aPart, type A2aResult } from './a2a-wire.ts'
import { toolCall, withResult } from './tool-call.ts'
import { excerpt } from '../fetch-json.ts'

/**
 * One turn's results put together: a single result (send) or the events of a stream. A stream sends
 * the task, then status and artifact updates (artifact text can arrive in appended chunks), and ends
 * with a terminal or waiting state; v0.3 also flags the last update `final`.
 */
export interface A2aAnswer {
  /**
   * What the agent said, as separate messages: each text part of its message (a message arrives whole,
   * so its parts are as the agent split them), or each artifact's text (an artifact's parts are often
   * chunks of one text streamed with `append`, so they are joined).
   */
  messages: string[]
  toolCalls: ToolCall[]
  contextId: string | undefined
  /** Set when the task waits for the user's input: the next message continues it. */
  waitingTaskId: string | undefined
}

export class A2aTurn {
  private message: A2aMessage | undefined
  private taskId: string | undefined
  private contextId: string | undefined
  private state = 'unknown'
  private statusText = ''
  private readonly artifacts = new Map<string, A2aPart[]>()
  /** By call id: a call reported in a status update may come again with the task. */
  private readonly calls = new Map<string, ToolCall>()
  /** Tools' results, by the id of the call they answer (or `name:` and the tool's name, without one). */
  private readonly results = new Map<string, unknown>()
  metadata: Record<string, unknown> | undefined
  /** A message, or a task in a terminal or waiting state: nothing more is coming. */
  final = false

  constructor(private readonly onText: () => void) {}

  add(result: A2aResult): void {
    switch (result.kind) {
      case 'message':
        this.addCalls(result.message.parts)
        this.message = result.message
        this.contextId = result.message.contextId ?? this.contextId
        this.addMetadata(result.message.metadata)
        this.final = true
        if (textOf(result.message.parts)) this.onText()
        return
      case 'task':
        this.taskId = result.task.id ?? this.taskId
        this.contextId = result.task.contextId ?? this.contextId
        this.setStatus(result.task.status)
        // A reply that is a finished task keeps the agent's tool calls only in its history.
        for (const message of latestAgentMessages(result.task.history)) this.addCalls(message.parts)
        for (const artifact of result.task.artifacts ?? []) {
          this.addCalls(artifact.parts)
          this.artifacts.set(artifact.artifactId ?? `#${this.artifacts.size}`, [...(artifact.parts ?? [])])
        }
        this.addMetadata(result.task.metadata)
        return
      case 'status':
        this.taskId = result.taskId ?? this.taskId
        this.contextId = result.contextId ?? this.contextId
        this.setStatus(result.status)
        this.addMetadata(result.metadata)
        if (result.final) this.final = true
        return
      case 'artifact': {
        const id = result.artifact?.artifactId ?? 'artifact'
        const parts = result.artifact?.parts ?? []
        this.addCalls(parts)
        this.artifacts.set(id, result.append ? [...(this.artifacts.get(id) ?? []), ...parts] : [...parts])
        this.addMetadata(result.metadata)
        if (textOf(parts)) this.onText()
        return
      }
    }
  }

  answer(what: string, streamed: boolean): A2aAnswer {
    const toolCalls = [...this.calls].map(([id, call]) => {
      const key = this.results.has(id) ? id : `name:${call.name}`
      return this.results.has(key) ? withResult(call, this.results.get(key)) : call
    })
    if (this.message) return { messages: textsOf(this.message.parts), toolCalls, contextId: this.contextId, waitingTaskId: undefined }
    if (FAILED_STATES.includes(this.state)) throw new Error(`${what}: the task ${this.state === 'canceled' ? 'was canceled' : this.state}: ${excerpt(this.statusText || 'no reason given')}`)
    const waiting = WAITING_STATES.includes(this.state)
    if (!waiting && !ANSWERED_STATES.includes(this.state)) {
      throw new Error(
        streamed
          ? `the stream from ${what} ended while the task was ${this.state}: the answer was cut short`
          : `${what} gave back a task that is still ${this.state}; convy-ci needs an answer in the reply (a blocking send), it does not poll`,
      )
    }
    const artifactTexts = [...this.artifacts.values()].map((parts) => textOf(parts)).filter(Boolean)
    return { messages: artifactTexts.length > 0 ? artifactTexts : this.statusText ? [this.statusText] : [], toolCalls, contextId: this.contextId, waitingTaskId: waiting ? this.taskId : undefined }
  }

  private setStatus(status: { state?: string; message?: A2aMessage } | undefined): void {
    if (status === undefined) return
    this.state = stateOf(status)
    this.addCalls(status.message?.parts)
    const text = textOf(status.message?.parts)
    if (text) this.statusText = text
    if (ANSWERED_STATES.includes(this.state) || FAILED_STATES.includes(this.state) || WAITING_STATES.includes(this.state)) this.final = true
  }

  private addCalls(parts: readonly A2aPart[] | undefined): void {
    for (const call of functionCallsOf(parts)) this.calls.set(call.id ?? `#${this.calls.size}`, toolCall(call.name, call.args))
    for (const response of functionResponsesOf(parts)) this.results.set(response.id ?? `name:${response.name}`, response.response)
  }

  private addMetadata(metadata: unknown): void {
    if (metadata !== null && typeof metadata === 'object') this.metadata = { ...this.metadata, ...(metadata as Record<string, unknown>) }
  }
}
