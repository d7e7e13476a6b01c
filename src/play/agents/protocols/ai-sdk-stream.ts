import type { ToolCall } from '../agent.ts'
import { excerpt } from '../fetch-json.ts'
import { withResult } from './tool-call.ts'

/**
 * Reads the AI SDK's UI message stream (what `toUIMessageStreamResponse()` sends and `useChat`
 * reads, AI SDK 5 to 7) into an answer and the assistant message to send back next turn. Parts this
 * reader does not know are ignored, as the SDK's own reader would (newer SDKs add part types); an
 * `error` or `abort` part is the agent failing inside a 200 answer.
 */
export interface UIPart {
  type: string
  [field: string]: unknown
}

export interface UIMessage {
  id: string
  role: 'user' | 'assistant'
  parts: UIPart[]
  metadata?: unknown
}

interface ToolPart extends UIPart {
  toolCallId: string
}

export class UIMessageReader {
  private readonly parts: UIPart[] = []
  private readonly texts = new Map<string, UIPart & { text: string }>()
  private readonly tools = new Map<string, ToolPart>()
  private readonly calls: ToolCall[] = []
  /** Where each call id's call is in `calls`, for its output. */
  private readonly callAt = new Map<string, number>()
  /** Where the current step's parts begin (after its step-start), for `reset-step`. */
  private stepStart = 0
  private messageId: string | undefined
  metadata: Record<string, unknown> | undefined
  finished = false

  /** `onText` is called with each piece of text as it arrives. */
  constructor(private readonly onText: (piece: string) => void) {}

  read(part: UIPart): void {
    if (part.messageMetadata !== undefined) this.addMetadata(part.messageMetadata)
    switch (part.type) {
      case 'start':
        if (typeof part.messageId === 'string') this.messageId = part.messageId
        return
      case 'start-step':
        this.parts.push({ type: 'step-start' })
        this.stepStart = this.parts.length
        return
      case 'reset-step':
        // ai@7: the step is played again; what it said so far does not count.
        for (const dropped of this.parts.splice(this.stepStart)) {
          this.texts.delete(String(dropped.id))
          this.tools.delete(String(dropped.toolCallId))
        }
        return
      case 'text-start':
        this.textPart(String(part.id))
        return
      case 'text-delta':
        this.addText(String(part.id), typeof part.delta === 'string' ? part.delta : '')
        return
      case 'text':
        this.addText(typeof part.id === 'string' ? part.id : `text-${this.parts.length}`, typeof part.text === 'string' ? part.text : '')
        return
      case 'tool-input-start':
      case 'tool-input-available':
      case 'tool-input-error':
        this.toolInput(part)
        return
      case 'tool-output-available':
        this.toolOutput(part, { state: 'output-available', output: part.output })
        return
      case 'tool-output-error':
        this.toolOutput(part, { state: 'output-error', errorText: part.errorText })
        return
      case 'finish':
        this.finished = true
        return
      case 'error':
        throw new Error(`the agent sent an error: ${excerpt(typeof part.errorText === 'string' ? part.errorText : JSON.stringify(part))}`)
      case 'abort':
        throw new Error(`the agent aborted its answer${typeof part.reason === 'string' ? `: ${excerpt(part.reason)}` : ''}`)
    }
  }

  get text(): string {
    return this.textParts.join('')
  }

  /** Each text part that says something, in order: an answer with text before and after a tool call has two. */
  get textParts(): string[] {
    return this.parts.flatMap((part) => (part.type === 'text' && part.text !== '' ? [part.text as string] : []))
  }

  get toolCalls(): ToolCall[] {
    return this.calls
  }

  /** The answer as `useChat` keeps it: the next request sends it back with the rest of the chat. */
  message(fallbackId: string): UIMessage {
    const parts = this.parts.map((part) => (part.type === 'text' ? { type: 'text', text: part.text, state: 'done' } : part))
    return { id: this.messageId ?? fallbackId, role: 'assistant', parts, ...(this.metadata === undefined ? {} : { metadata: this.metadata }) }
  }

  private addMetadata(metadata: unknown): void {
    if (metadata !== null && typeof metadata === 'object') this.metadata = { ...this.metadata, ...(metadata as Record<string, unknown>) }
  }

  private textPart(id: string): UIPart & { text: string } {
    let part = this.texts.get(id)
    if (!part) {
      part = { type: 'text', id, text: '' }
      this.texts.set(id, part)
      this.parts.push(part)
    }
    return part
  }

  private addText(id: string, piece: string): void {
    this.textPart(id).text += piece
    if (piece !== '') this.onText(piece)
  }

  private toolInput(part: UIPart): void {
    const id = String(part.toolCallId)
    const name = String(part.toolName)
    let tool = this.tools.get(id)
    if (!tool) {
      // Tools the server declared are `tool-<name>` parts; tools known only at run time are dynamic.
      tool = part.dynamic === true ? { type: 'dynamic-tool', toolName: name, toolCallId: id } : { type: `tool-${name}`, toolCallId: id }
      this.tools.set(id, tool)
      this.parts.push(tool)
    }
    if (part.type === 'tool-input-start') {
      tool.state = 'input-streaming'
      return
    }
    tool.input = part.input
    tool.state = part.type === 'tool-input-error' ? 'output-error' : 'input-available'
    if (part.type === 'tool-input-error') tool.errorText = part.errorText
    this.callAt.set(id, this.calls.length)
    this.calls.push(part.input === undefined ? { name } : { name, arguments: part.input })
  }

  private toolOutput(part: UIPart, result: Record<string, unknown>): void {
    const tool = this.tools.get(String(part.toolCallId))
    if (tool) Object.assign(tool, result)
    const at = this.callAt.get(String(part.toolCallId))
    if (at !== undefined) this.calls[at] = withResult(this.calls[at]!, result.state === 'output-available' ? result.output : { error: result.errorText })
  }
}
