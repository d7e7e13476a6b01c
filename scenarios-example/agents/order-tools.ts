import type { Answer, Conversation, ScenarioTools, ToolResult } from 'convy-ci'

// The support bot when a scenario serves it tools (docs/tools.md): it looks the order up and files
// the refund through them instead of its own table. They come in-process (`tools` beside the
// context), so the example needs no MCP client; an agent in another process would connect to
// `context.tools_url` with one. A tool error (a fault the scenario injects) gets an apology and an
// offer to try again.

export function toolsConversation(tools: ScenarioTools): Conversation {
  let order: string | undefined
  const reply = (text: string, message: string): Answer => ({ text, usage: { input: 40 + message.length, output: text.split(' ').length } })
  const data = (result: ToolResult): Record<string, unknown> => result.structuredContent ?? {}

  return {
    async answer(message: string) {
      order = /\b(\d{5})\b/.exec(message)?.[1] ?? order
      if (!order) return reply('Sure. What is your order number? It is in your confirmation email.', message)
      const found = await tools.call('get_order', { order_id: order })
      if (found.isError) return reply(`Sorry, our order system did not answer (${found.content[0]?.text}). Shall I try again?`, message)
      const { status, refund } = data(found)
      if (status === 'unknown') return reply(`I can't find an order ${order}. Could you check the number?`, message)
      if (refund) return reply(`A refund for order ${order} is already ${String(refund)}.`, message)
      const filed = await tools.call('create_refund', { order_id: order, reason: `order ${String(status)}` })
      if (filed.isError) return reply(`Sorry, I could not file the refund (${filed.content[0]?.text}).`, message)
      return reply(`Done: refund ${String(data(filed).refund_id)} for order ${order} is requested.`, message)
    },
  }
}
