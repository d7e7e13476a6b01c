import assert from 'node:assert/strict'
import { copyFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import type { Agent, Answer, Message } from '../../src/play/agents/agent.ts'
import { createAgent } from '../../src/play/agents/create-agent.ts'
import { runChecks } from '../../src/play/judge/checks.ts'
import type { Check } from '../../src/records/scenario/scenario.ts'
import { AgentConfigSchema } from '../../src/records/config/config.ts'
import { withStepTimeout } from '../../src/play/conversation/step-timeout.ts'
import { createFetch } from '../../src/base/http/fetch.ts'
import { InputError } from '../../src/base/shared/errors.ts'
import { botAnswer } from '../fakes/agent-server.ts'
import { testCertificates, type TestCertificates } from '../fakes/certificates.ts'

/**
 * What every protocol adapter must do, played against a real server of that protocol: keep the
 * conversation's state, stream with a time to first token, read usage and tool calls, and fail a
 * turn clearly when the agent fails inside a 200 answer, when the connection drops mid-answer, when
 * it hangs, and when TLS is wrong. The servers answer as the support bot of agent-server.ts, so the
 * expected answers come from its rules, not from the adapter.
 */
export interface ProtocolUnderTest {
  name: string
  /** A server of the protocol; `slow` spaces the pieces of a streamed answer by about 20 ms. */
  start(options: { tls?: TestCertificates; slow?: boolean }): Promise<{ url: string; close(): Promise<void> }>
  /** The agent's entry in convy.yml for a server at `url`. */
  config(url: string): Record<string, unknown>
  /** Does the protocol (as configured) stream, carry usage, show tool calls? */
  streams: boolean
  usage: 'counted' | 'none'
  toolCalls: boolean
  /** Does the protocol carry what the tool gave back (the servers' get_order returns `{id, status: "shipped"}`)? */
  toolResults?: boolean
  /** How a failed turn reads when the agent reports an error inside a 200 answer. */
  agentError: RegExp
}

export async function talkWith(agent: Agent, messages: readonly string[], onFirstToken?: (turn: number) => void): Promise<Answer[]> {
  const context = { session: `session-${Math.random().toString(16).slice(2)}`, signal: new AbortController().signal, context: {} }
  const conversation = await agent.conversation(context)
  const history: Message[] = []
  const answers: Answer[] = []
  for (const [turn, message] of messages.entries()) {
    const answer = await conversation.answer(message, { ...context, history: [...history], firstToken: () => onFirstToken?.(turn) })
    history.push({ role: 'user', content: message }, { role: 'assistant', content: answer.text ?? '' })
    answers.push(answer)
  }
  return answers
}

async function agentFor(p: ProtocolUnderTest, url: string, extra: Record<string, unknown> = {}, projectDir = '.'): Promise<Agent> {
  const config = AgentConfigSchema.parse({ ...p.config(url), ...extra })
  return (await createAgent(p.name, config, { projectDir, canStripTypes: false, fetch: createFetch() })).agent
}

const DIALOGUE = ['my name is Ann', 'where is my order 4321?', 'thanks']

export function protocolContract(p: ProtocolUnderTest): void {
  describe(`${p.name}: the protocol contract`, () => {
    let server: { url: string; close(): Promise<void> }
    before(async () => {
      server = await p.start({ slow: true })
    })
    after(() => server.close())

    test('a conversation keeps its state across turns', async () => {
      const answers = await talkWith(await agentFor(p, server.url), DIALOGUE)
      assert.deepEqual(
        answers.map((a) => a.text),
        DIALOGUE.map((_, i) => botAnswer(DIALOGUE.slice(0, i + 1))),
      )
      assert.equal(answers[2]?.text, "You're welcome, Ann!", 'the name from the first turn')
    })

    test(p.toolCalls ? 'tool calls are read with their arguments' : 'no tool calls are made up', async () => {
      const [answer] = await talkWith(await agentFor(p, server.url), ['where is my order 4321?'])
      const result = p.toolResults ? { result: { id: '4321', status: 'shipped' } } : {}
      assert.deepEqual(answer?.toolCalls, p.toolCalls ? [{ name: 'get_order', arguments: { id: '4321' }, ...result }] : undefined)
    })

    test('tool checks are decided on the calls the protocol showed: arguments, order and count', async () => {
      const answers = await talkWith(await agentFor(p, server.url), ['where is my order 4321?', 'and my order 5678?'])
      const checks: Check[] = [
        { kind: 'tool_called', value: 'get_order', args: { id: '5678' } },
        { kind: 'tool_called', value: 'get_order', args: { id: 4321 } },
        { kind: 'tool_order', value: ['get_order', 'get_order'] },
        { kind: 'tool_order', value: ['get_order', 'refund'] },
        { kind: 'max_tool_calls', value: 2 },
        { kind: 'max_tool_calls', value: 1 },
      ]
      const results = await runChecks(checks, answers.map((a) => a.text ?? ''), answers.map((a) => a.toolCalls ?? []))
      const unseen = 'no answer came with a tool call (the agent made none, or its protocol does not show them)'
      assert.deepEqual(
        results.map((r) => [r.pass, r.detail]),
        p.toolCalls
          ? [
              [true, 'answer 2 called it with these arguments'],
              [false, 'called 2 times, never with these arguments; the closest, at answer 1: `id` is "4321" (text), expected 4321'],
              [true, 'in this order: get_order (answer 1), get_order (answer 2)'],
              [false, 'refund was never called after get_order (answer 1) or before; the calls in order: get_order, get_order'],
              [true, '2 tool calls, at most 2 allowed: get_order ×2'],
              [false, '2 tool calls, more than 1: get_order ×2'],
            ]
          : [
              [false, unseen],
              [false, unseen],
              [false, `get_order was never called; ${unseen}`],
              [false, `get_order was never called; ${unseen}`],
              [true, 'no tool call (the agent made none, or its protocol does not show them)'],
              [true, 'no tool call (the agent made none, or its protocol does not show them)'],
            ],
      )
    })

    test(p.usage === 'counted' ? 'usage is read: the words the bot read and wrote' : 'no usage is made up', async () => {
      const [answer] = await talkWith(await agentFor(p, server.url), ['hello there'])
      if (p.usage === 'none') return assert.equal(answer?.usage, undefined)
      assert.equal(answer?.usage?.output, botAnswer(['hello there']).split(' ').length)
      assert.ok((answer?.usage?.input ?? 0) >= 2, `input ${answer?.usage?.input}`)
    })

    test(p.streams ? 'the first token is signalled while the answer still streams' : 'an answer that does not stream signals no first token', async () => {
      const signalled: number[] = []
      await talkWith(await agentFor(p, server.url), ['hello, I have a question about nothing in particular'], (turn) => signalled.push(turn))
      if (!p.streams) return assert.deepEqual(signalled, [])
      assert.ok(signalled.length > 0 && signalled.every((turn) => turn === 0), `signalled for turns ${signalled.join(', ')}`)
      // The order, not the time between: an answer that sends its first piece and then never ends
      // must still signal its first token; only the abort from inside that signal ends the turn.
      const agent = await agentFor(p, server.url)
      const stop = new AbortController()
      const conversation = await agent.conversation({ session: 'first-token-then-hang', signal: stop.signal, context: {} })
      const reason = new Error('stopped after the first token')
      let signalledFirst = false
      await assert.rejects(
        withStepTimeout(60, stop.signal, (signal) =>
          conversation.answer('hello [hang]', {
            session: 'first-token-then-hang',
            context: {},
            signal,
            history: [],
            firstToken: () => {
              signalledFirst = true
              stop.abort(reason)
            },
          }),
        ),
        (error) => error === reason,
      )
      assert.ok(signalledFirst)
    })

    test('an error the agent reports inside a 200 answer fails the turn', async () => {
      await assert.rejects(talkWith(await agentFor(p, server.url), ['hello [error]']), p.agentError)
    })

    test('a connection dropped mid-answer fails the turn and says so', async () => {
      await assert.rejects(talkWith(await agentFor(p, server.url), ['hello [drop]']), /broke off|cut short|socket|other side closed|terminated/i)
    })

    test('an agent that hangs mid-answer is stopped by the turn timeout', async () => {
      const agent = await agentFor(p, server.url)
      const conversation = await agent.conversation({ session: 'hang', signal: new AbortController().signal, context: {} })
      // The agent never ends its answer, so only the step's own timeout can end the turn, whatever the load.
      await assert.rejects(
        withStepTimeout(0.3, new AbortController().signal, (signal) => conversation.answer('hello [hang]', { session: 'hang', signal, context: {}, history: [] })),
        (error: Error) => error.message === 'no answer within 0.3 s (--turn-timeout)',
      )
    })
  })

  describe(`${p.name}: TLS with a private CA and a client certificate`, () => {
    let server: { url: string; close(): Promise<void> }
    let certs: TestCertificates
    before(async () => {
      certs = testCertificates()
      server = await p.start({ tls: certs })
    })
    after(() => server.close())

    test('with the CA and the client certificate from tls:, paths relative to convy.yml, it answers', async () => {
      const tls = { ca: 'ca.crt', cert: 'client.crt', key: 'client.key' }
      const [answer] = await talkWith(await agentFor(p, server.url, { tls }, certs.dir), ['hello'])
      assert.equal(answer?.text, botAnswer(['hello']))
    })

    test('without the client certificate, or trusting another CA, the turn fails', async () => {
      await assert.rejects(talkWith(await agentFor(p, server.url, { tls: { ca: 'ca.crt' } }, certs.dir), ['hello']))
      await assert.rejects(talkWith(await agentFor(p, server.url, { tls: { ca: 'other-ca.crt', cert: 'client.crt', key: 'client.key' } }, certs.dir), ['hello']), /certificate/i)
    })

    test('a wrong path, or a key that is not the certificate’s, is a configuration error before any turn', async () => {
      await assert.rejects(agentFor(p, server.url, { tls: { ca: 'nope/ca.crt' } }, certs.dir), (error: unknown) => error instanceof InputError && /agent ".+": tls\.ca: no such file \(.*nope\/ca\.crt\)/.test(error.message))
      copyFileSync(join(certs.dir, 'ca.key'), join(certs.dir, 'wrong.key'))
      await assert.rejects(agentFor(p, server.url, { tls: { cert: 'client.crt', key: 'wrong.key' } }, certs.dir), (error: unknown) => error instanceof InputError && /tls: .*key/i.test(error.message))
    })
  })
}
