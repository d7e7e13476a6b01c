import { randomUUID } from 'node:crypto'
import { AGENT_CARD_PATH, Role, TaskState, type AgentCard, type Part } from '@a2a-js/sdk'
import { AgentEvent, DefaultRequestHandler, InMemoryTaskStore, type AgentExecutor, type ExecutionEventBus, type RequestContext } from '@a2a-js/sdk/server'
import { agentCardHandler, jsonRpcHandler, UserBuilder } from '@a2a-js/sdk/server/express'
import express, { type NextFunction, type Request, type Response } from 'express'
import type { TestCertificates } from './certificates.ts'
import { botAnswer } from './agent-server.ts'
import { misbehaviourIn, pause, pieces, serve, words } from './serve.ts'

/**
 * An A2A agent built with the official SDK (`@a2a-js/sdk` server on express), speaking v1.0 and,
 * through the SDK's compatibility layer, v0.3 at the same URL. It answers as the support bot of
 * agent-server.ts from every message of its context (the conversation is the `contextId`). An order
 * number of 3+ digits is looked up with `get_order`, reported as ADK reports tool calls: a data part
 * marked `adk_type: function_call`, followed by its result, marked `function_response` (in the
 * message, or in a working status update of the task).
 *
 * - `answerAs: 'message'`: one Message per turn, usage in its metadata.
 * - `answerAs: 'task'`: a Task whose answer streams in appended artifact chunks (`pieceMs` apart),
 *   usage in the final status update's metadata. An answer that asks for the order number leaves
 *   the task `input-required`, with the question as its status message.
 * - `card: 'v0.3'`: the card is the one a v0.3-only server serves (`url`, `protocolVersion`).
 * - Markers (serve.ts): `[error]` throws in the executor (the SDK fails the task), `[drop]` destroys
 *   the connection (after the first chunk when streaming), `[hang]` sends a chunk and never ends.
 */
export interface FakeA2aOptions {
  answerAs: 'message' | 'task'
  card?: 'v1.0' | 'v0.3'
  pieceMs?: number
  tls?: TestCertificates
  /** Answer in two: a message of two text parts, or a task with two artifacts (split after the first sentence). */
  several?: boolean
}

export interface FakeA2aServer {
  url: string
  /** Per incoming message: its context, whether it continued an existing task, and its metadata as the SDK read it. */
  received: { contextId: string; continuedTask: string | undefined; text: string; metadata: unknown }[]
  close(): Promise<void>
}

const text = (value: string): Part => ({ content: { $case: 'text', value }, metadata: undefined, filename: '', mediaType: 'text/plain' })
/** A tool call the way Google's ADK reports one over A2A. */
const functionCall = (id: string, name: string, args: unknown): Part => ({ content: { $case: 'data', value: { id, name, args } }, metadata: { adk_type: 'function_call' }, filename: '', mediaType: 'application/json' })
/** Its result, as ADK reports the tool's response: a data part answering the call's id. */
const functionResponse = (id: string, name: string, response: unknown): Part => ({ content: { $case: 'data', value: { id, name, response } }, metadata: { adk_type: 'function_response' }, filename: '', mediaType: 'application/json' })
const forever = () => new Promise<never>(() => undefined)

export async function startFakeA2aServer(options: FakeA2aOptions): Promise<FakeA2aServer> {
  const contexts = new Map<string, string[]>()
  const split = (answer: string): string[] => {
    const at = answer.indexOf('. ')
    return options.several && at >= 0 ? [answer.slice(0, at + 1), answer.slice(at + 2)] : [answer]
  }
  const received: FakeA2aServer['received'] = []

  const executor: AgentExecutor = {
    cancelTask: async () => undefined,
    async execute(ctx: RequestContext, bus: ExecutionEventBus) {
      const said = ctx.userMessage.parts.map((p) => (p.content?.$case === 'text' ? p.content.value : '')).join('')
      received.push({ contextId: ctx.contextId, continuedTask: ctx.task?.id, text: said, metadata: ctx.userMessage.metadata })
      const misbehaviour = misbehaviourIn(said)
      if (misbehaviour === 'error') throw new Error('the model crashed')
      const history = [...(contexts.get(ctx.contextId) ?? []), said]
      const answer = botAnswer(history)
      const usage = { usage: { input_tokens: words(history.join(' ')), output_tokens: words(answer) } }
      const orderId = /#?(\d{3,})/.exec(said)?.[1]
      const callId = randomUUID()
      const calls = orderId ? [functionCall(callId, 'get_order', { id: orderId }), functionResponse(callId, 'get_order', { id: orderId, status: 'shipped' })] : []
      if (options.answerAs === 'message') {
        if (misbehaviour) return forever()
        contexts.set(ctx.contextId, history)
        const message = { role: Role.ROLE_AGENT, messageId: randomUUID(), parts: [...calls, ...split(answer).map(text)], contextId: ctx.contextId, taskId: '', extensions: [], metadata: usage, referenceTaskIds: [] }
        bus.publish(AgentEvent.message(message))
        return bus.finished()
      }
      const ids = { taskId: ctx.taskId, contextId: ctx.contextId }
      const status = (state: TaskState, message?: string | Part[]) => ({
        state,
        message: message === undefined ? undefined : { role: Role.ROLE_AGENT, messageId: randomUUID(), parts: typeof message === 'string' ? [text(message)] : message, ...ids, extensions: [], metadata: {}, referenceTaskIds: [] },
        timestamp: new Date().toISOString(),
      })
      // A stream starts with the task, new or continued.
      const task = ctx.task ?? { id: ctx.taskId, contextId: ctx.contextId, artifacts: [], history: [ctx.userMessage], metadata: {} }
      bus.publish(AgentEvent.task({ ...task, status: status(ctx.task ? TaskState.TASK_STATE_WORKING : TaskState.TASK_STATE_SUBMITTED) }))
      // As ADK does: the tool call in a working status update, before the answer.
      bus.publish(AgentEvent.statusUpdate({ ...ids, status: status(TaskState.TASK_STATE_WORKING, calls.length ? calls : undefined), metadata: {} }))
      if (answer.endsWith('order number?')) {
        contexts.set(ctx.contextId, history)
        bus.publish(AgentEvent.statusUpdate({ ...ids, status: status(TaskState.TASK_STATE_INPUT_REQUIRED, answer), metadata: usage }))
        return bus.finished()
      }
      for (const [n, said] of split(answer).entries()) for (const [i, piece] of pieces(said).entries()) {
        if (i > 0) await pause(options.pieceMs ?? 0)
        bus.publish(AgentEvent.artifactUpdate({ ...ids, artifact: { artifactId: n === 0 ? 'answer' : `answer-${n + 1}`, name: 'answer', description: '', parts: [text(piece)], metadata: {}, extensions: [] }, append: i > 0, lastChunk: false, metadata: {} }))
        if (misbehaviour) return forever()
      }
      contexts.set(ctx.contextId, history)
      bus.publish(AgentEvent.statusUpdate({ ...ids, status: status(TaskState.TASK_STATE_COMPLETED), metadata: usage }))
      bus.finished()
    },
  }

  const app = express()
  let url = ''
  const card = (): AgentCard => ({
    name: 'Support bot',
    provider: undefined,
    description: 'The support bot of convy-ci tests',
    version: '1',
    documentationUrl: '',
    signatures: [],
    supportedInterfaces: [
      { url, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '1.0' },
      { url, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '0.3' },
    ],
    capabilities: { streaming: true, pushNotifications: false, extensions: [], extendedAgentCard: false },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ['text'],
    defaultOutputModes: ['text'],
    skills: [],
  })
  const requestHandler = new DefaultRequestHandler(card(), new InMemoryTaskStore(), executor)
  if (options.card === 'v0.3') {
    app.get(`/${AGENT_CARD_PATH}`, (_req, res) => {
      res.json({ name: 'Support bot', description: 'v0.3 only', version: '1', url, preferredTransport: 'JSONRPC', protocolVersion: '0.3.0', capabilities: { streaming: true }, defaultInputModes: ['text'], defaultOutputModes: ['text'], skills: [] })
    })
  }
  app.use(`/${AGENT_CARD_PATH}`, agentCardHandler({ agentCardProvider: { getAgentCard: async () => card() }, legacyCompat: { enabled: true } }))
  app.use(express.json(), dropWhenAsked)
  app.use(jsonRpcHandler({ requestHandler, userBuilder: UserBuilder.noAuthentication, legacyCompat: { enabled: true } }))

  const served = await serve(app, options.tls)
  url = `${served.url}/`
  return { url, received, close: served.close }
}

/** `[drop]`: no answer at all to a send; the connection goes after the first artifact chunk of a stream. */
function dropWhenAsked(req: Request, res: Response, next: NextFunction): void {
  const body = req.body as { method?: string; params?: { message?: { parts?: { text?: string }[] } } } | undefined
  const said = (body?.params?.message?.parts ?? []).map((p) => p.text ?? '').join('')
  if (misbehaviourIn(said) !== 'drop') return next()
  if (!/stream|Streaming/.test(body?.method ?? '')) {
    res.socket?.destroy()
    return
  }
  const write = res.write.bind(res) as (chunk: unknown) => boolean
  res.write = ((chunk: unknown) => {
    const ok = write(chunk)
    if (/artifact/i.test(String(chunk))) res.socket?.destroy()
    return ok
  }) as typeof res.write
  next()
}
