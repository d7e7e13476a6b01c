// The example support bot (agents/support-bot.ts) as an HTTP service, for the example workflow: the
// same rules behind a JSON API, the way most agents are reached in CI. Plain Node, no dependencies:
//   PORT=8080 node scenarios-example/server.mjs
// POST /api/chat {session_id, message, latest_order?} → {data: {answer, usage: {input_tokens, output_tokens}}}
// POST /test/orders → {order_id}: a new order, the set-up of each attempt; DELETE /test/orders/ID its tear-down.
// GET /health → 200. SUPPORT_BOT_VARIANT=regressed skips asking for the order number.
import { createServer } from 'node:http'

const ORDERS = {
  48213: 'Order 48213 shipped on Monday and arrives on Friday.',
  51877: 'Order 51877 was delivered on Tuesday.',
}
let nextOrder = 60001
const regressed = process.env.SUPPORT_BOT_VARIANT === 'regressed'
const FORGETS_REASON = 0.3
const sessions = new Map()

function answer(session, message) {
  const text = message.toLowerCase()
  const number = /\b(\d{5})\b/.exec(message)?.[1]
  if (number) session.order = number
  else if (session.latest && /latest|newest|last order/.test(text)) session.order = session.latest
  if (/refund|money back|return/.test(text)) session.topic = 'refund'
  else if (session.topic === 'none' && /package|order|deliver|arriv|where is/.test(text)) session.topic = 'status'

  if (/password|log ?in|sign ?in/.test(text)) return 'You can reset your password at example.com/reset; the link is valid for one hour.'
  if (session.topic === 'none') return 'I can help with orders, deliveries and refunds. What can I do for you?'
  if (!session.order && !regressed) return 'Sure. What is your order number? It is in your confirmation email.'
  if (session.order && !(session.order in ORDERS)) return `I can't find an order ${session.order}. Could you check the number?`
  if (session.topic === 'status') return session.order ? ORDERS[session.order] : 'Your order is on its way.'
  if (!session.askedReason && !session.forgetsReason) {
    session.askedReason = true
    return 'I can refund that. May I ask the reason for the return?'
  }
  return `Done: a refund for order ${session.order ?? 'your order'} is on its way, within 5 working days.`
}

function send(res, status, body) {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body))
}

const server = createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/health') return send(res, 200, { ok: true })
  if (req.method === 'POST' && req.url === '/test/orders') {
    const id = String(nextOrder++)
    ORDERS[id] = `Order ${id} was placed today and ships tomorrow.`
    return send(res, 200, { order_id: id })
  }
  if (req.method === 'DELETE' && req.url?.startsWith('/test/orders/')) {
    delete ORDERS[decodeURIComponent(req.url.slice('/test/orders/'.length))]
    return res.writeHead(204).end()
  }
  if (req.method !== 'POST' || req.url !== '/api/chat') return send(res, 404, { error: 'not found' })
  let raw = ''
  req.setEncoding('utf8')
  req.on('data', (chunk) => (raw += chunk))
  req.on('end', () => {
    let request
    try {
      request = JSON.parse(raw)
    } catch {
      return send(res, 400, { error: 'the body is not JSON' })
    }
    if (typeof request?.session_id !== 'string' || typeof request?.message !== 'string') return send(res, 400, { error: 'expected {session_id, message}' })
    if (!sessions.has(request.session_id)) sessions.set(request.session_id, { topic: 'none', order: undefined, latest: request.latest_order || undefined, askedReason: false, forgetsReason: Math.random() < FORGETS_REASON })
    const text = answer(sessions.get(request.session_id), request.message)
    send(res, 200, { data: { answer: text, usage: { input_tokens: 40 + request.message.length, output_tokens: text.split(' ').length } } })
  })
})

const port = Number(process.env.PORT ?? 8080)
// PORT=0 takes a free port; the line says which (tests read it).
server.listen(port, () => console.log(`support bot listening on http://localhost:${server.address().port}`))
