import { defineAgent, type Answer } from 'convy-ci'
import { orderStatus } from './orders.ts'
import { toolsConversation } from './order-tools.ts'

// A small rule-based support bot for a web shop. It keeps state per conversation, reports tokens,
// and is a little unreliable on purpose: sometimes it confirms a refund without asking why, so
// repeated attempts show a flaky scenario. SUPPORT_BOT_VARIANT=regressed makes it skip asking for the
// order number, to try `convy-ci compare` on a real regression. Orders are looked up in the shop's
// store (orders.ts), where each attempt's set-up adds the customer's latest one.

const regressed = process.env.SUPPORT_BOT_VARIANT === 'regressed'
const FORGETS_REASON = 0.3

type Topic = 'none' | 'status' | 'refund'

export const agent = defineAgent({
  version: regressed ? '2.0-regressed' : '1.4',
  conversation({ context, tools }) {
    // A scenario that serves tools (scenarios/refund-with-tools.yml) is answered through them.
    if (tools) return toolsConversation(tools)
    // The signed-in customer's latest order, from the attempt's context (set-up made it).
    const latest = typeof context.order_id === 'string' ? context.order_id : undefined
    let topic: Topic = 'none'
    let order: string | undefined
    let askedReason = false
    // Decided once per conversation, as a real model's habit would be: about one refund in three.
    const forgetsReason = Math.random() < FORGETS_REASON
    const reply = (text: string, message: string): Answer => ({ text, usage: { input: 40 + message.length, output: text.split(' ').length } })

    return {
      answer(message: string) {
        const text = message.toLowerCase()
        const number = /\b(\d{5})\b/.exec(message)?.[1]
        if (number) order = number
        else if (latest && /latest|newest|last order/.test(text)) order = latest
        if (/refund|money back|return/.test(text)) topic = 'refund'
        else if (topic === 'none' && /package|order|deliver|arriv|where is/.test(text)) topic = 'status'

        if (/password|log ?in|sign ?in/.test(text)) {
          return reply('You can reset your password at example.com/reset; the link is valid for one hour.', message)
        }
        if (topic === 'none') {
          return reply('I can help with orders, deliveries and refunds. What can I do for you?', message)
        }
        if (!order && !regressed) return reply('Sure. What is your order number? It is in your confirmation email.', message)
        if (order && orderStatus(order) === undefined) return reply(`I can't find an order ${order}. Could you check the number?`, message)
        if (topic === 'status') return reply(order ? orderStatus(order)! : 'Your order is on its way.', message)

        if (!askedReason && !forgetsReason) {
          askedReason = true
          return reply('I can refund that. May I ask the reason for the return?', message)
        }
        return reply(`Done: a refund for order ${order ?? 'your order'} is on its way, within 5 working days.`, message)
      },
    }
  },
})
