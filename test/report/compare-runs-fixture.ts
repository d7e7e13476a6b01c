import type { RunRecord } from '../../src/records/tally/run-tally.ts'
import type { Attempt, Verdict } from '../../src/records/journal/records.ts'
import { attempt, manifest, scenario } from './small-run.ts'

/**
 * Two runs of five attempts per scenario that differ in known ways:
 *
 *   S1 5/5 → 0/5   Worse        S2 5/5 → 5/5   Same
 *   S3 0/5 → 5/5   Better       S4 3/5 → 2/5   Same
 *   OLD only before, NEW only after, EDIT edited in between, NV no verdict after
 *
 * and the judge changed from gpt-4.1 to gpt-5.
 */
function attempts(id: string, verdicts: Verdict[]): Attempt[] {
  return verdicts.map((v, i) =>
    attempt(id, i + 1, v, [1 + i / 10], {
      claims: v === 'passed' || v === 'failed' ? [{ claim: `claim of ${id}`, pass: v === 'passed', reason: `${id} attempt ${i + 1} ${v}` }] : [],
    }),
  )
}

const pass = (n: number): Verdict[] => Array.from({ length: n }, () => 'passed')
const fail = (n: number): Verdict[] => Array.from({ length: n }, () => 'failed')

export function comparedRuns(): { before: RunRecord; after: RunRecord } {
  const shared = ['S1', 'S2', 'S3', 'S4', 'NV'].map((id) => scenario(id, { judge: [`claim of ${id}`] }))
  const settings = { k: 5, parallel: 1, turnTimeoutSeconds: 30, scenarioGlobs: [], tags: [], smoke: false, shard: null }
  const before = manifest([...shared, scenario('OLD'), scenario('EDIT', { user: 'version one' })], { settings })
  const after = manifest([...shared, scenario('NEW'), scenario('EDIT', { user: 'version two' })], {
    settings,
    id: 'bot/2026-03-02T10-00-00_cd34',
    startedAt: '2026-03-02T10:00:00.000Z',
    finishedAt: '2026-03-02T10:02:00.000Z',
    models: { ...before.models, judge: 'gpt-5' },
  })
  return {
    before: {
      manifest: before,
      attempts: [
        ...attempts('S1', pass(5)),
        ...attempts('S2', pass(5)),
        ...attempts('S3', fail(5)),
        ...attempts('S4', [...pass(3), ...fail(2)]),
        ...attempts('NV', pass(5)),
        ...attempts('OLD', pass(5)),
        ...attempts('EDIT', pass(5)),
      ],
    },
    after: {
      manifest: after,
      attempts: [
        ...attempts('S1', fail(5)),
        ...attempts('S2', pass(5)),
        ...attempts('S3', pass(5)),
        ...attempts('S4', [...pass(2), ...fail(3)]),
        ...attempts('NV', ['no_verdict', 'no_verdict', 'no_verdict', 'no_verdict', 'no_verdict']),
        ...attempts('NEW', pass(5)),
        ...attempts('EDIT', fail(5)),
      ],
    },
  }
}
