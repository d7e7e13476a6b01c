import assert from 'node:assert/strict'
import { test } from 'node:test'
import { choose, seededRandom, stratifiedPermutationTest, type Stratum } from '../../src/base/stats/permutation.ts'

/** Every way of relabelling within each stratum, counted by brute force: the reference for small cases. */
function bruteForce(strata: Stratum[]): { pGreater: number; pLess: number } {
  const sums = (s: Stratum): number[] => {
    const pooled = [...s.before, ...s.after]
    const out: number[] = []
    for (let mask = 0; mask < 1 << pooled.length; mask++) {
      let bits = 0
      let total = 0
      for (let i = 0; i < pooled.length; i++) {
        if (!(mask & (1 << i))) continue
        bits++
        total += pooled[i]!
      }
      if (bits === s.after.length) out.push(total)
    }
    return out
  }
  let totals = [0]
  for (const s of strata) totals = totals.flatMap((t) => sums(s).map((x) => t + x))
  const observed = strata.reduce((t, s) => t + s.after.reduce((a, b) => a + b, 0), 0)
  return { pGreater: totals.filter((t) => t >= observed - 1e-9).length / totals.length, pLess: totals.filter((t) => t <= observed + 1e-9).length / totals.length }
}

test('one stratum is exact: 1, 2, 3 against 4, 5, 6 is the most extreme of C(6, 3) = 20 ways', () => {
  const result = stratifiedPermutationTest([{ before: [1, 2, 3], after: [4, 5, 6] }])
  assert.deepEqual(result, { pGreater: 1 / 20, pLess: 1, minimumP: 1 / 20, method: 'exact' })
  assert.equal(choose(10, 5), 252)
})

test('ties count as at least as extreme, both ways', () => {
  const result = stratifiedPermutationTest([{ before: [2, 2], after: [2, 2] }])
  assert.deepEqual([result.pGreater, result.pLess], [1, 1])
})

test('several strata, shuffled with a seed, agree with brute force within the shuffles’ error', () => {
  const random = seededRandom(42)
  const strata: Stratum[] = Array.from({ length: 3 }, (_, s) => ({
    before: Array.from({ length: 4 }, () => Math.log(1 + random() * 3)),
    after: Array.from({ length: 4 }, () => Math.log(1 + random() * 3 + s * 0.3)),
  }))
  const exact = bruteForce(strata)
  const shuffled = stratifiedPermutationTest(strata, { shuffles: 20_000 })
  assert.equal(shuffled.method, 'shuffles')
  // Binomial error of 20,000 shuffles: at most about 0.0035 per standard error.
  assert.ok(Math.abs(shuffled.pGreater - exact.pGreater) < 0.012, `${shuffled.pGreater} vs ${exact.pGreater}`)
  assert.ok(Math.abs(shuffled.pLess - exact.pLess) < 0.012, `${shuffled.pLess} vs ${exact.pLess}`)
  assert.deepEqual(stratifiedPermutationTest(strata, { shuffles: 20_000 }), shuffled, 'the same seed, the same answer')
})

test('many strata use the normal approximation, close to the shuffles', () => {
  const random = seededRandom(7)
  const strata: Stratum[] = Array.from({ length: 400 }, () => ({
    before: Array.from({ length: 5 }, () => random()),
    after: Array.from({ length: 5 }, () => random() + 0.02),
  }))
  const normal = stratifiedPermutationTest(strata)
  const shuffled = stratifiedPermutationTest(strata, { shuffles: 5_000 })
  assert.deepEqual([normal.method, shuffled.method], ['normal', 'shuffles'])
  assert.ok(Math.abs(normal.pGreater - shuffled.pGreater) < 0.02, `${normal.pGreater} vs ${shuffled.pGreater}`)
})
