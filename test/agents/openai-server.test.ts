import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import OpenAI, { APIError, AuthenticationError, NotFoundError } from 'openai'
import { botAnswer } from '../fakes/agent-server.ts'
import { startFakeOpenAIServer, type FakeOpenAIServer } from '../fakes/openai-server.ts'

/**
 * The fake OpenAI server is only worth testing against if the official client accepts its answers:
 * these tests speak to it through `openai` itself, the way real applications do.
 */
let server: FakeOpenAIServer
let client: OpenAI
before(async () => {
  server = await startFakeOpenAIServer({ token: 'sk-test' })
  client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-test', maxRetries: 0 })
})
after(() => server.close())

const ORDER = 'where is my order 4321?'

describe('the fake OpenAI server, through the official client', () => {
  test('chat completions without streaming: text, tool calls and usage', async () => {
    const completion = await client.chat.completions.create({ model: 'bot', messages: [{ role: 'user', content: ORDER }] })
    const message = completion.choices[0]!.message
    assert.equal(message.content, botAnswer([ORDER]))
    assert.deepEqual(message.tool_calls?.map((c) => (c.type === 'function' ? [c.function.name, JSON.parse(c.function.arguments)] : null)), [['get_order', { id: '4321' }]])
    assert.equal(completion.usage?.prompt_tokens, 5)
  })

  test('chat completions streamed: the helper joins fragments into a final completion with usage', async () => {
    const runner = client.chat.completions.stream({ model: 'bot', messages: [{ role: 'user', content: ORDER }], stream_options: { include_usage: true } })
    const final = await runner.finalChatCompletion()
    const message = final.choices[0]!.message
    assert.equal(message.content, botAnswer([ORDER]))
    assert.equal(message.tool_calls?.[0]?.type === 'function' && message.tool_calls[0].function.arguments, '{"id":"4321"}')
    assert.equal(final.usage?.completion_tokens, botAnswer([ORDER]).split(' ').length)
  })

  test('an error chunk inside a 200 stream is thrown by the client', async () => {
    const stream = await client.chat.completions.create({ model: 'bot', messages: [{ role: 'user', content: 'hello [error]' }], stream: true })
    await assert.rejects(async () => {
      for await (const _chunk of stream);
    }, (error: unknown) => error instanceof APIError && /crashed mid-answer/.test(error.message))
  })

  test('responses: output_text, a function_call item, usage, and previous_response_id', async () => {
    const first = await client.responses.create({ model: 'bot', input: 'my name is Ann' })
    const second = await client.responses.create({ model: 'bot', input: ORDER, previous_response_id: first.id })
    assert.equal(second.output_text, botAnswer(['my name is Ann', ORDER]))
    assert.deepEqual(second.output.filter((item) => item.type === 'function_call').map((item) => item.name), ['get_order'])
    assert.equal(second.usage?.input_tokens, 9)
  })

  test('responses streamed: the helper assembles the final response', async () => {
    const final = await client.responses.stream({ model: 'bot', input: ORDER }).finalResponse()
    // openai@6 adds output_text to a streamed final response only when it parses one; read the items.
    const text = final.output.flatMap((item) => (item.type === 'message' ? item.content.map((part) => (part.type === 'output_text' ? part.text : '')) : [])).join('')
    assert.equal(text, botAnswer([ORDER]))
    assert.equal(final.status, 'completed')
  })

  test('errors are the client’s own classes: a bad key, an unknown previous response', async () => {
    const wrongKey = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-wrong', maxRetries: 0 })
    await assert.rejects(wrongKey.chat.completions.create({ model: 'bot', messages: [{ role: 'user', content: 'hi' }] }), AuthenticationError)
    await assert.rejects(client.responses.create({ model: 'bot', input: 'hi', previous_response_id: 'resp_nope' }), (error: unknown) => error instanceof NotFoundError && error.code === 'previous_response_not_found')
  })
})
