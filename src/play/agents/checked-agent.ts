import { InputError } from '../../base/shared/errors.ts'
import type { Agent, Answer, Conversation, ToolCall } from './agent.ts'
import { describeJsonType } from './dotted-path.ts'
import { excerpt } from './fetch-json.ts'
import { spokenOf } from './answer-messages.ts'

/**
 * A user's module is checked where it meets convy-ci: the export when it is loaded (bad input, exit
 * 2), and what conversation() and answer() return on every turn (a failed turn whose message says
 * what was expected, instead of a TypeError deep in the runner).
 */
export function agentExport(exports: Readonly<Record<string, unknown>>, file: string): Agent {
  const agent = exports['agent']
  if (agent === undefined) {
    const names = Object.keys(exports)
    const hint = names.includes('default') ? '; write `export const agent = …` instead of a default export' : ''
    throw new InputError(`${file} does not export \`agent\` (it exports: ${names.length === 0 ? 'nothing' : names.join(', ')})${hint}`)
  }
  if (agent === null || typeof agent !== 'object' || typeof (agent as Partial<Agent>).conversation !== 'function') {
    throw new InputError(`${file} exports \`agent\`, but it is ${describe(agent)} without a conversation() method`)
  }
  return checkedAgent(agent as Agent, file)
}

function checkedAgent(agent: Agent, file: string): Agent {
  const version = agent.version
  return {
    version: typeof version === 'string' ? version : undefined,
    async conversation(context) {
      const conversation = (await agent.conversation(context)) as Partial<Conversation> | null | undefined
      if (conversation === null || typeof conversation !== 'object' || typeof conversation.answer !== 'function') {
        throw new Error(`${file}: agent.conversation() must return an object with an answer() method, but returned ${describe(conversation)}`)
      }
      const opened = conversation as Conversation
      return {
        answer: async (message, answerContext) => checkedAnswer(await opened.answer(message, answerContext), file),
        close: opened.close === undefined ? undefined : (closeContext) => opened.close?.(closeContext),
      }
    },
  }
}

function checkedAnswer(answer: unknown, file: string): Answer {
  const expected = `${file}: answer() must return { text: string } or { messages: string[] }, with usage?: { input?: number, output?: number } and toolCalls?: { name: string, arguments?: unknown, result?: unknown }[]`
  if (answer === null || typeof answer !== 'object') throw new Error(`${expected}, but returned ${describe(answer)}`)
  const { messages, usage, toolCalls } = answer as Answer
  if (messages !== undefined && (!Array.isArray(messages) || !messages.every((m) => typeof m === 'string'))) {
    throw new Error(`${expected}, but its messages are ${excerpt(JSON.stringify(messages) ?? String(messages))}`)
  }
  const said = spokenOf(answer as Answer)
  if (said === null) throw new Error(`${expected}, but returned ${describe(answer)}`)
  const checked: Answer = said
  if (usage !== undefined && usage !== null) {
    const countsOk = [usage.input, usage.output].every((n) => n === undefined || (typeof n === 'number' && Number.isFinite(n) && n >= 0))
    if (typeof usage !== 'object' || !countsOk) throw new Error(`${expected}, but its usage is ${JSON.stringify(usage)}`)
    checked.usage = { input: usage.input, output: usage.output }
  }
  if (toolCalls !== undefined && toolCalls !== null) {
    const callsOk = Array.isArray(toolCalls) && toolCalls.every((call: Partial<ToolCall> | null) => typeof call?.name === 'string' && call.name !== '')
    if (!callsOk) throw new Error(`${expected}, but its toolCalls are ${excerpt(JSON.stringify(toolCalls) ?? String(toolCalls))}`)
    checked.toolCalls = toolCalls.map(({ name, arguments: args, result }) => ({ name, ...(args === undefined ? {} : { arguments: args }), ...(result === undefined ? {} : { result }) }))
  }
  return checked
}

function describe(value: unknown): string {
  if (value === undefined) return 'undefined'
  if (typeof value === 'string') return `a string (${JSON.stringify(value.slice(0, 40))})`
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const keys = Object.keys(value)
    return `an object with ${keys.length === 0 ? 'no keys' : `keys ${keys.join(', ')}`}`
  }
  return describeJsonType(value)
}
