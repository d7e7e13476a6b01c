// The shop's orders, and the set-up and tear-down that make one for each attempt (convy.yml:
// `setup:` and `teardown:` of support_bot). Set-up answers `{ order_id }`, which convy-ci merges into
// the attempt's context: the bot reads it as the signed-in customer's latest order, and the
// new-order scenario checks for it with `{context.order_id}`.
//
// convy-ci loads the bot and these functions as modules of their own, so the store lives on
// globalThis, where both find it, rather than in a module variable each would have a copy of.

interface Store {
  orders: Map<string, string>
}

const store: Store = ((globalThis as { [key: symbol]: Store })[Symbol.for('convy-ci.example.orders')] ??= {
  orders: new Map([
    ['48213', 'Order 48213 shipped on Monday and arrives on Friday.'],
    ['51877', 'Order 51877 was delivered on Tuesday.'],
  ]),
})

export function orderStatus(id: string): string | undefined {
  return store.orders.get(id)
}

/**
 * Each attempt's order has a number of its own that is the same in every run of that attempt (a
 * resume, a shard, the baseline's run): from the scenario's id and the attempt's number, as a test
 * database seeded per attempt would give it. Attempts played at once never share an order.
 */
export function setup({ scenario, attempt }: { scenario: string; attempt: number }): { order_id: string } {
  let hash = 0
  for (const c of scenario) hash = (hash * 31 + c.charCodeAt(0)) % 3000
  const id = `${7000 + hash}${String(attempt).padStart(2, '0')}`
  store.orders.set(id, `Order ${id} was placed today and ships tomorrow.`)
  return { order_id: id }
}

export function teardown({ context }: { context: Readonly<Record<string, unknown>> }): void {
  store.orders.delete(String(context.order_id))
}
