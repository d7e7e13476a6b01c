import type { Attempt, Turn } from '../../src/records/journal/records.ts'
import { attempt, manifest, scenario } from './small-run.ts'

/** A run whose one answer called four tools: a JSON result, a hostile text result, none, and a long one (tool-results.test.ts). */
export const HOSTILE = '<img src=x onerror="window.__pwned=1">'
const LONG = `R-${'x'.repeat(3_000)}`

export function toolResultsRun(): { manifest: ReturnType<typeof manifest>; attempts: Attempt[] } {
  const user = (text: string): Turn => ({ role: 'user', text, seconds: 0, tokens: null, error: null })
  const agent = (text: string, extra: Partial<Turn> = {}): Turn => ({ role: 'agent', text, seconds: 1, tokens: null, error: null, ...extra })
  const turns = [
    user('refund order 4321'),
    agent('Refunded: R-9911.', {
      toolCalls: [
        { name: 'refund', arguments: { order: '4321' }, result: { refund: 'R-9911', amount: 12.5 } },
        { name: 'lookup', arguments: { q: 'x' }, result: HOSTILE },
        { name: 'audit', arguments: {} },
        { name: 'dump', result: LONG },
      ],
    }),
  ]
  return { manifest: manifest([scenario('refund')]), attempts: [{ ...attempt('refund', 1, 'passed', []), turns }] }
}
