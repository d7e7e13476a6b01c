import { setTimeout as sleep } from 'node:timers/promises'
import type { ScenarioTools, ToolInfo, ToolResult } from '../agents/agent.ts'
import type { ServedCall, ServedTools } from '../../records/journal/records.ts'
import type { Tool } from '../../records/scenario/tools.ts'
import { schemaChecker, type Validate } from '../../records/scenario/tool-input.ts'
import { fillValue, isRecord, statePath, type TemplateScope } from '../../records/scenario/tool-template.ts'
import { capped } from '../../base/shared/text.ts'
import { differences } from '../judge/tool-checks.ts'
import { faultFor } from './faults.ts'

/**
 * One attempt's tools: the answers chosen by the call's arguments, the faults, the world state, and
 * the record of every call, whoever made it (over MCP or in-process) and whatever the agent reports.
 * Everything a call brings is the agent's: kept bounded here, masked with the attempt, escaped where
 * it is shown.
 */

/** Calls recorded per attempt; later ones are still answered, and counted in `omitted`. */
export const MAX_RECORDED_CALLS = 500
/** Arguments longer than this (as JSON) are recorded as their start, as text. */
export const MAX_ARGUMENT_CHARS = 16_000

/** A call to a tool the scenario does not define: a protocol error over MCP, a throw in-process. */
export class UnknownTool extends Error {}

export interface TableOptions {
  tools: Readonly<Record<string, Tool>>
  /** The attempt's context, for `{context.*}`, as it is when a call comes. */
  context: () => Readonly<Record<string, unknown>>
  seed: number
  /** Seconds since the attempt started. */
  at: () => number
  /** The agent turn under way (1-based), or undefined between turns. */
  turn: () => number | undefined
}

export class ToolTable implements ScenarioTools {
  readonly calls: ServedCall[] = []
  readonly state: Record<string, unknown> = {}
  omitted = 0
  readonly #counts = new Map<string, number>()
  readonly #validators = new Map<string, Validate>()
  readonly #closing = new AbortController()

  constructor(private readonly options: TableOptions) {
    for (const [name, tool] of Object.entries(options.tools)) this.#validators.set(name, schemaChecker().compile(tool.input))
  }

  list(): ToolInfo[] {
    return Object.entries(this.options.tools).map(([name, tool]) => ({ name, ...(tool.description === undefined ? {} : { description: tool.description }), inputSchema: tool.input }))
  }

  /** Answers one call; throws UnknownTool for a name the scenario does not define (recorded all the same). */
  async call(name: string, args: Record<string, unknown> = {}): Promise<ToolResult> {
    const record = this.#record(name, args)
    const tool = Object.hasOwn(this.options.tools, name) ? this.options.tools[name] : undefined
    if (tool === undefined) {
      const known = Object.keys(this.options.tools)
      const message = `no tool "${capped(name, 100)}" in this scenario; its tools: ${known.join(', ')}`
      if (record) record.error = message
      throw new UnknownTool(message)
    }
    const n = (this.#counts.get(name) ?? 0) + 1
    this.#counts.set(name, n)
    const hit = faultFor(tool.faults, this.options.seed, name, n)
    if (hit && record) record.fault = hit.text
    if (hit?.fault.delayMs !== undefined) {
      try {
        await sleep(hit.fault.delayMs, undefined, { signal: this.#closing.signal })
      } catch {
        return this.#error(record, 'the attempt ended before the tool answered')
      }
    }
    if (hit?.fault.error !== undefined) return this.#error(record, hit.fault.error)
    const refused = this.#validators.get(name)!(args)
    if (refused !== null) return this.#error(record, `the arguments do not match ${name}'s input schema: ${refused}`)
    const scope: TemplateScope = { arguments: args, context: this.options.context(), state: this.state }
    const answer = tool.answers.find((a) => a.when === undefined || differences(fillValue(a.when, scope), args, []).length === 0)
    if (tool.answers.length > 0 && answer === undefined) return this.#error(record, `no answer of ${name} matches these arguments`)
    if (answer?.error !== undefined) return this.#error(record, String(fillValue(answer.error, scope)))
    const result = answer === undefined ? { ok: true } : fillValue(answer.result, scope)
    // What the call changes is written after its answer is made: a tool reads the state as it was.
    for (const [key, value] of Object.entries(tool.sets ?? {})) setPath(this.state, statePath(key, scope), fillValue(value, scope))
    if (record) record.result = result
    if (hit?.fault.malformed) return { content: [{ type: 'text', text: cutShort(result) }] }
    return resultOf(result)
  }

  /** Ends waits for delayed answers: the attempt is over. */
  close(): void {
    this.#closing.abort()
  }

  record(url: string): ServedTools {
    return { url, seed: this.options.seed, calls: this.calls, state: this.state, ...(this.omitted ? { omitted: this.omitted } : {}) }
  }

  #record(name: string, args: unknown): ServedCall | null {
    if (this.calls.length >= MAX_RECORDED_CALLS) {
      this.omitted++
      return null
    }
    const turn = this.options.turn()
    const call: ServedCall = { name: capped(name, 200), arguments: bounded(args), at: this.options.at(), ...(turn === undefined ? {} : { turn }) }
    this.calls.push(call)
    return call
  }

  #error(record: ServedCall | null, message: string): ToolResult {
    if (record) record.error = message
    return { content: [{ type: 'text', text: message }], isError: true }
  }
}

function bounded(args: unknown): unknown {
  const json = JSON.stringify(args) ?? 'null'
  return json.length > MAX_ARGUMENT_CHARS ? `${json.slice(0, MAX_ARGUMENT_CHARS)}… (cut: ${json.length} characters)` : args
}

/** A result as MCP carries it: its text (JSON for anything but text) and, for a map, the map itself. */
export function resultOf(result: unknown): ToolResult {
  const text = typeof result === 'string' ? result : (JSON.stringify(result) ?? 'null')
  return { content: [{ type: 'text', text }], ...(isRecord(result) ? { structuredContent: result } : {}) }
}

/** `malformed: true`: the answer's text broken off halfway (a JSON text no longer parses), no structured content. */
function cutShort(result: unknown): string {
  const text = typeof result === 'string' ? result : (JSON.stringify(result) ?? 'null')
  return text.slice(0, Math.max(1, Math.floor(text.length / 2)))
}

// Keys come from the agent's arguments: each is defined as the object's own (`__proto__` stays a key).
function setPath(state: Record<string, unknown>, path: readonly string[], value: unknown): void {
  let node = state
  for (const key of path.slice(0, -1)) {
    const next = Object.hasOwn(node, key) ? node[key] : undefined
    if (!isRecord(next)) define(node, key, {})
    node = node[key] as Record<string, unknown>
  }
  const last = path.at(-1)
  if (last !== undefined) define(node, last, value)
}

function define(node: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(node, key, { value, enumerable: true, writable: true, configurable: true })
}
