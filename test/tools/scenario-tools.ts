/** The tools the tests serve: an order to look up (failing on its first call), a refund that writes the world, a flaky ticket tool. */
export const TOOLS_BODY = `
  get_order:
    description: Look up an order by its id
    input: { order_id: string }
    answers:
      - when: { order_id: O-17 }
        result: { status: delayed, refund: "{state.refunds.{order_id}}" }
      - when: { order_id: "{context.other_order}" }
        result: { status: delivered, customer: "{context.customer}" }
      - result: { status: unknown, asked: "{order_id}" }
    faults:
      - { call: 1, error: upstream timeout }
  create_refund:
    input: { order_id: string, reason: string? }
    answers: [{ result: { refund_id: "R-{order_id}" } }]
    sets: { "refunds.{order_id}": requested }
  open_ticket:
    input: { topic: string }
    answers: [{ result: { ticket: T-1 } }]
    faults: [{ rate: 0.5, error: ticket service unavailable }]
`

/** A scenario's tools and end state. */
export const REFUND_TOOLS = `
tools:
${TOOLS_BODY}end_state:
  - { state: refunds.O-17, equals: requested }
  - { tool_called: create_refund, args: { order_id: O-17 }, times: 1 }
  - { never: open_ticket }
`
