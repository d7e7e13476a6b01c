import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { scenarioShare } from '../../src/play/runner/shard-scenarios.ts'
import { adaptiveOriginals, joinAdaptiveShares, type ShardOfRun } from '../../src/app/pipeline/adaptive-shares.ts'
import type { RunManifest } from '../../src/records/journal/records.ts'
import type { AdaptiveRecord } from '../../src/records/journal/adaptive-record.ts'

// An adaptive shard's scenarios (run --adaptive --shard I/N) and the join of such shards (issue 39 item 3).

const ids = ['s1', 's10', 's2', 's3', 's4', 's5', 's6', 's7', 's8', 's9', 's11']
const scenarios = ids.map((id) => ({ id }))

describe('the scenarios of an adaptive shard', () => {
  test('balanced, disjoint, together every scenario, and the same whatever order the files load in', () => {
    const shares = [1, 2, 3, 4].map((index) => scenarioShare(scenarios, { index, total: 4 }).map((s) => s.id))
    assert.deepEqual(shares.map((share) => share.length), [3, 3, 3, 2])
    assert.deepEqual(shares.flat().sort(), [...ids].sort())
    assert.equal(new Set(shares.flat()).size, ids.length)
    const reversed = [1, 2, 3, 4].map((index) => scenarioShare([...scenarios].reverse(), { index, total: 4 }).map((s) => s.id))
    assert.deepEqual(reversed, shares)
    // Sorted by id (s1, s10, s11, s2, s3 …), the I-th of every N.
    assert.deepEqual(shares[0], ['s1', 's3', 's7'])
    assert.deepEqual(scenarioShare(scenarios, null).length, ids.length)
  })
})

describe('joining adaptive shards', () => {
  const manifest = (index: number, record: AdaptiveRecord): ShardOfRun => ({
    manifest: { id: `bot/run-${index}`, scenarios: scenarios.slice(0, 4), adaptive: record } as unknown as RunManifest,
    shard: { index, total: 2 },
  })
  // Of s1, s10, s2, s3 sorted: shard 1 owns s1 and s2, shard 2 s10 and s3.
  const one = manifest(1, { scenarios: { s1: { planned: 3, stopped: 'decided' }, s2: { planned: 10, stopped: 'undecided' } } })
  const two = manifest(2, { scenarios: { s3: { planned: 6, stopped: 'worse' }, s10: { planned: 3, stopped: 'decided' } } })

  test("every scenario's attempts and stop, sorted by id; the originals each holds", () => {
    const joined = joinAdaptiveShares([two, one])
    assert.deepEqual(Object.keys(joined.scenarios), ['s1', 's10', 's2', 's3'])
    assert.deepEqual(joined.scenarios['s3'], { planned: 6, stopped: 'worse' })
    assert.equal(adaptiveOriginals(joined).length, 22)
    assert.deepEqual(adaptiveOriginals(one.manifest.adaptive!).slice(2, 5), [{ scenario: 's1', attempt: 3 }, { scenario: 's2', attempt: 1 }, { scenario: 's2', attempt: 2 }])
  })

  test('refuses rounds not decided, a scenario two shards played, and a share that is not the shard\'s', () => {
    const open = manifest(2, { scenarios: { s3: { planned: 6, stopped: null }, s10: { planned: 3, stopped: 'decided' } } })
    assert.throws(() => joinAdaptiveShares([one, open]), /shard 2 of 2 \(bot\/run-2\): the rounds of s3 were not decided; resume it first \(convy-ci resume bot\/run-2\)/)
    const overlapping = manifest(2, { scenarios: { s1: { planned: 3, stopped: 'decided' }, s3: { planned: 6, stopped: 'worse' }, s10: { planned: 3, stopped: 'decided' } } })
    assert.throws(() => joinAdaptiveShares([one, overlapping]), /shard 1 of 2 \(bot\/run-1\) and shard 2 of 2 \(bot\/run-2\) both played scenario s1/)
    const swapped = manifest(2, { scenarios: { s3: { planned: 6, stopped: 'worse' } } })
    assert.throws(() => joinAdaptiveShares([one, swapped]), /shard 2 of 2 \(bot\/run-2\) played s3, not its share of the run's scenarios \(s10, s3\)/)
  })
})
