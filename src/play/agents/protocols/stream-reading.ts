import type { StreamAgentConfig } from '../../../records/config/config.ts'
import type { Answer, ToolCall, Usage } from '../agent.ts'
import { lookupPath } from '../dotted-path.ts'
import { excerpt } from '../fetch-json.ts'
import { toolCall } from './tool-call.ts'
import { usageAt } from './usage.ts'

/**
 * One answer of a generic stream, put together event by event from the paths in convy.yml. Built
 * in, whatever the paths: an SSE event named `error` is an agent error, and `data: [DONE]` or an
 * event named `done` or `end` ends the answer.
 */
export interface StreamItem {
  /** The SSE event's name; undefined for an NDJSON line. */
  event: string | undefined
  raw: string
  /** The item parsed as JSON; undefined when it is not JSON. */
  json: unknown
}

const END_EVENTS = ['done', 'end']

export class StreamReading {
  private deltas = ''
  private whole: string | undefined
  private sawText = false
  private usage: Usage | undefined
  private readonly calls: ToolCall[] = []
  private last: StreamItem | undefined
  done = false
  session: string | undefined

  constructor(
    private readonly config: StreamAgentConfig,
    private readonly onText: () => void,
  ) {}

  /** Reads one event or line; true when it ended the answer. */
  read(item: StreamItem, what: string): boolean {
    this.last = item
    if (item.event === 'error') throw new Error(`${what} sent an error event: ${errorText(item.json) ?? excerpt(item.raw)}`)
    if (this.isDone(item) && item.json === undefined) return (this.done = true)
    const json = item.json
    if (json !== undefined) {
      const error = this.found(json, this.config.error)
      if (error !== undefined && error !== null && error !== false && error !== '') throw new Error(`${what} sent an error: ${errorText(error) ?? excerpt(JSON.stringify(error))}`)
      this.readText(json)
      this.readRest(json)
    }
    this.done = this.isDone(item)
    return this.done
  }

  answer(what: string): Answer {
    if (this.config.done !== undefined && !this.done) throw new Error(`the stream from ${what} ended before its end marker (${this.config.done}): the answer was cut short`)
    if (!this.sawText && this.calls.length === 0) {
      const paths = [this.config.delta, this.config.text].filter(Boolean).join('" or "')
      const lastSeen = this.last === undefined ? 'nothing came' : `the last was: ${excerpt(this.last.raw)}`
      throw new Error(`no event from ${what} had text at "${paths}"; ${lastSeen}`)
    }
    const text = this.whole ?? this.deltas
    return { text, ...(this.usage ? { usage: this.usage } : {}), ...(this.calls.length > 0 ? { toolCalls: this.calls } : {}) }
  }

  private readText(json: unknown): void {
    const delta = this.found(json, this.config.delta)
    if (typeof delta === 'string') {
      this.sawText = true
      this.deltas += delta
      if (delta !== '') this.onText()
    }
    const whole = this.found(json, this.config.text)
    if (typeof whole === 'string') {
      this.sawText = true
      this.whole = whole
      if (whole !== '') this.onText()
    }
  }

  private readRest(json: unknown): void {
    const usage = this.config.tokens ? usageAt(json, this.config.tokens) : undefined
    if (usage) this.usage = usage
    const session = this.found(json, this.config.session)
    if (typeof session === 'string' || typeof session === 'number') this.session = String(session)
    const spec = this.config.tool_calls
    const calls = spec ? this.found(json, spec.path) : undefined
    for (const call of Array.isArray(calls) ? calls : calls == null ? [] : [calls]) {
      const name = this.found(call, spec!.name)
      if (typeof name === 'string' && name !== '') this.calls.push(toolCall(name, this.found(call, spec!.arguments)))
    }
  }

  private isDone(item: StreamItem): boolean {
    const marker = this.config.done
    if (item.raw === '[DONE]' || (item.event !== undefined && END_EVENTS.includes(item.event))) return true
    if (marker === undefined || marker === '[DONE]') return false
    if (marker.startsWith('event:')) return item.event === marker.slice('event:'.length).trim()
    return this.found(item.json, marker) === true
  }

  private found(json: unknown, path: string | undefined): unknown {
    if (path === undefined || json === null || typeof json !== 'object') return undefined
    const lookup = lookupPath(json, path)
    return lookup.found ? lookup.value : undefined
  }
}

function errorText(error: unknown): string | undefined {
  if (typeof error === 'string') return excerpt(error)
  if (error !== null && typeof error === 'object') {
    const { message, error: inner } = error as { message?: unknown; error?: unknown }
    if (typeof message === 'string') return excerpt(message)
    if (inner !== undefined) return errorText(inner)
  }
  return undefined
}
