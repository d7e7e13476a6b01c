import type { Attempt, Turn } from '../../src/records/journal/records.ts'
import { attempt, manifest, scenario } from '../report/small-run.ts'

/** A run whose answers called tools (one with a hostile name and arguments) and streamed, or not (tool-calls-report.test.ts). */
export const HOSTILE = '<img src=x onerror="window.__pwned=1">'

function withTurns(base: Attempt, turns: Turn[]): Attempt {
  return { ...base, turns }
}

export function toolCallsRun(): { manifest: ReturnType<typeof manifest>; attempts: Attempt[] } {
  const user = (text: string): Turn => ({ role: 'user', text, seconds: 0, tokens: null, error: null })
  const agent = (text: string, seconds: number, extra: Partial<Turn> = {}): Turn => ({ role: 'agent', text, seconds, tokens: null, error: null, ...extra })
  return {
    manifest: manifest([scenario('orders')]),
    attempts: [
      withTurns(attempt('orders', 1, 'passed', []), [
        user('where is order 4321?'),
        agent('It has shipped.', 2, { firstTokenSeconds: 0.4, toolCalls: [{ name: 'get_order', arguments: { id: '4321' } }, { name: HOSTILE, arguments: HOSTILE }] }),
        user('thanks'),
        agent('You are welcome.', 1, { firstTokenSeconds: 0.2 }),
      ]),
      withTurns(attempt('orders', 2, 'passed', []), [user('hi'), agent('Hello.', 3)]),
    ],
  }
}
