import type { Attempt, Turn } from '../../src/records/journal/records.ts'
import { attempt, manifest, scenario } from '../report/small-run.ts'

/** A run whose attempt was served tools: a fault on the first call, a call also reported, a hostile argument (served-report.test.ts, report/browser/tool-lines.ts). */
export const HOSTILE = '<img src=x onerror="window.__pwned=1">'

export function servedRun(): { manifest: ReturnType<typeof manifest>; attempts: Attempt[] } {
  const user = (text: string): Turn => ({ role: 'user', text, seconds: 0, tokens: null, error: null })
  const agent = (text: string, extra: Partial<Turn> = {}): Turn => ({ role: 'agent', text, seconds: 1, tokens: null, error: null, ...extra })
  const turns = [user('refund O-17'), agent('Sorry, try again?'), user('yes'), agent('Refund requested.', { toolCalls: [{ name: 'create_refund', arguments: { order_id: 'O-17' } }, { name: 'crm_note', arguments: { text: 'hi' } }] })]
  const tools = {
    url: 'http://127.0.0.1:4000/mcp',
    seed: 7,
    state: { refunds: { 'O-17': 'requested' } },
    calls: [
      { name: 'get_order', arguments: { order_id: 'O-17' }, error: 'upstream timeout', fault: 'call 1: error "upstream timeout"', at: 0.1, turn: 1 },
      { name: 'create_refund', arguments: { order_id: 'O-17' }, result: { refund_id: 'R-9' }, at: 0.4, turn: 2 },
      { name: 'lookup', arguments: { q: HOSTILE }, result: HOSTILE, at: 0.5, turn: 2 },
    ],
  }
  return { manifest: manifest([scenario('refund')]), attempts: [{ ...attempt('refund', 1, 'passed', []), turns, tools }] }
}

