import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { TOOLS_BODY } from './scenario-tools.ts'

/**
 * How the test agents use the scenario's tools, whatever reaches them (an MCP client, function calls
 * of their own model, in-process): the next step of an answer, from the user's message and the
 * tools' results so far. The three agents of agents-with-tools.test.ts differ only in transport.
 */
export interface StepResult {
  name: string
  text: string
  isError: boolean
}
export type Step = { call: { name: string; arguments: Record<string, unknown> } } | { say: string }

export function nextStep(message: string, results: readonly StepResult[]): Step {
  const call = (name: string, args: Record<string, unknown>): Step => ({ call: { name, arguments: args } })
  if (/tickets/.test(message)) {
    if (results.length < 8) return call('open_ticket', { topic: 'late order' })
    return { say: `opened ${results.filter((r) => !r.isError).length} of 8 tickets: ${results.map((r) => (r.isError ? 'x' : 'o')).join('')}` }
  }
  if (/delete my account/.test(message)) {
    if (results.length === 0) return call('delete_account', { user: 'ada' })
    return { say: `I can't: ${results[0]!.text}` }
  }
  if (/refund O-17/.test(message)) {
    if (results.length === 0) return call('get_order', { order_id: 'O-17' })
    return { say: results[0]!.isError ? `Sorry, the order system failed (${results[0]!.text}). Shall I try again?` : 'Your order O-17 is delayed.' }
  }
  if (/try again/.test(message)) {
    if (results.length === 0) return call('get_order', { order_id: 'O-17' })
    if (results.length === 1) return call('create_refund', { order_id: 'O-17', reason: 'late' })
    if (results.length === 2) return call('get_order', { order_id: 'O-17' })
    return { say: `Your refund for O-17 is ${(JSON.parse(results[2]!.text) as { refund: string }).refund}.` }
  }
  return { say: 'OK.' }
}

/** Plays an answer through a tool caller until it says something. */
export async function answerWith(message: string, callTool: (name: string, args: Record<string, unknown>) => Promise<StepResult>): Promise<string> {
  const results: StepResult[] = []
  for (;;) {
    const step = nextStep(message, results)
    if ('say' in step) return step.say
    results.push(await callTool(step.call.name, step.call.arguments))
  }
}

/** A call through the official MCP client: a protocol error (an unknown tool) becomes an error result, as agent frameworks do. */
export async function callOverMcp(client: Client, name: string, args: Record<string, unknown>): Promise<StepResult> {
  try {
    const result = await client.callTool({ name, arguments: args })
    return { name, text: (result.content as { text: string }[])[0]!.text, isError: result.isError === true }
  } catch (error) {
    return { name, text: (error as Error).message, isError: true }
  }
}

export async function mcpClient(url: string): Promise<Client> {
  const client = new Client({ name: 'test-agent', version: '1.0.0' })
  await client.connect(new StreamableHTTPClientTransport(new URL(url)))
  return client
}

/** convy.yml's tool set and the scenarios every agent plays. */
export const TOOL_SET = `tools:\n  shop:\n${TOOLS_BODY.replace(/^(?=.)/gm, '  ')}`

export const SCENARIOS: Record<string, string> = {
  'scenarios/refund.yml': `script: ["refund O-17", "yes, try again", "and delete my account"]
tools: shop
checks:
  - contains: is requested
  - contains: "its tools: get_order, create_refund, open_ticket"
  - tool_called: create_refund
    args: { order_id: O-17 }
  - tool_order: [get_order, create_refund, get_order]
  - max_tool_calls: 5
end_state:
  - { state: refunds.O-17, equals: requested }
  - { tool_called: create_refund, args: { order_id: O-17 }, times: 1 }
  - { never: open_ticket }
`,
  'scenarios/no-refund.yml': `script: ["refund O-17", "never mind"]
tools: shop
checks:
  - contains: Sorry
end_state:
  - { state: refunds.O-17, equals: requested }
`,
  'scenarios/tickets.yml': `script: ["open some tickets"]
tools: [shop]
checks:
  - contains: opened
end_state:
  - { tool_called: open_ticket, times: 8 }
`,
}
