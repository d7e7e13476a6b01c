import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { agreementOf, agreementTable, cohensKappa, type AgreementTable } from '../../src/base/stats/agreement.ts'
import { assertClose, ratio } from './exact-arithmetic.ts'
import { seededRandom } from '../../src/base/stats/permutation.ts'

const table = (bothHold: number, judgeFails: number, judgeHolds: number, bothFail: number): AgreementTable => ({ bothHold, judgeFails, judgeHolds, bothFail })

/**
 * Cohen's κ as scikit-learn's cohen_kappa_score computes it, from the raw label pairs: a confusion
 * matrix, the expected matrix from its margins, κ = 1 − Σ off-diagonal observed / Σ off-diagonal
 * expected. Exact, in rationals: it shares no code and no formula with src/base/stats/agreement.ts.
 */
function referenceKappa(person: readonly boolean[], judge: readonly boolean[]): number {
  const n = BigInt(person.length)
  const confusion = [
    [0n, 0n],
    [0n, 0n],
  ]
  person.forEach((p, i) => void confusion[p ? 0 : 1]![judge[i] ? 0 : 1]!++)
  const rows = confusion.map((r) => r[0]! + r[1]!)
  const cols = [confusion[0]![0]! + confusion[1]![0]!, confusion[0]![1]! + confusion[1]![1]!]
  // Scaled by n so the expected counts stay whole: Σ off-diagonal observed·n vs Σ off-diagonal rowᵢ·colⱼ.
  const observedOff = (confusion[0]![1]! + confusion[1]![0]!) * n
  const expectedOff = rows[0]! * cols[1]! + rows[1]! * cols[0]!
  // κ = 1 − observedOff/expectedOff = (expectedOff − observedOff)/expectedOff
  const numerator = expectedOff - observedOff
  return numerator < 0n ? -ratio(-numerator, expectedOff) : ratio(numerator, expectedOff)
}

/** A seeded generator (mulberry32), so the random tables are the same on every run. */
const random = seededRandom

describe("Cohen's κ", () => {
  // statsmodels 0.14 stats.inter_rater.cohens_kappa (SAS PROC FREQ's simple kappa) on [[a, b], [c, d]]:
  // κ, its asymptotic standard error (Fleiss, Cohen & Everitt 1969), and κ ± 1.96·ASE.
  const vectors: [number, number, number, number, number, number, number, number][] = [
    [40, 5, 3, 12, 0.6595744680851066, 0.11010340441604248, 0.44377576085441495, 0.8753731753157982],
    [30, 10, 10, 30, 0.5, 0.09682458365518543, 0.31022730321775094, 0.6897726967822491],
    [45, 5, 10, 0, -0.1249999999999995, 0.04059494080239739, -0.2045646219272339, -0.045435378072765084],
    [1, 2, 3, 4, -0.08695652173913052, 0.3018661516573027, -0.6786033071391498, 0.5046902636608889],
    [88, 4, 6, 22, 0.7611464968152865, 0.07157728159330137, 0.620857602781134, 0.9014353908494389],
    [34, 19, 22, 9, -0.06956521739130433, 0.10688264306127805, -0.27905134836385925, 0.1399209135812506],
    [15, 2, 14, 28, 0.45370370370370355, 0.10627606476639567, 0.2454064443429218, 0.6620009630644853],
    [30, 32, 19, 21, 0.008387342737323741, 0.09578195427838934, -0.17934183801718154, 0.19611652349182904],
    [37, 25, 27, 6, -0.22459097669806638, 0.09189839404042313, -0.40470851925436613, -0.04447343414176666],
    [37, 22, 2, 7, 0.2085354025218235, 0.09487732404707065, 0.022579264440028973, 0.394491540603618],
  ]

  test('matches statsmodels: κ, its standard error and its 95% interval, to 1e-12', () => {
    for (const [a, b, c, d, kappa, se, lower, upper] of vectors) {
      const k = cohensKappa(table(a, b, c, d))!
      assertClose(k.value, kappa, 1e-12, `κ of ${[a, b, c, d]}`)
      assertClose(k.standardError, se, 1e-12, `SE of ${[a, b, c, d]}`)
      assertClose(k.interval.lower, lower, 1e-12, `lower of ${[a, b, c, d]}`)
      assertClose(k.interval.upper, upper, 1e-12, `upper of ${[a, b, c, d]}`)
    }
  })

  test('equals a reference implementation from the raw pairs on 500 random tables', () => {
    const next = random(26)
    let compared = 0
    for (let round = 0; round < 500; round++) {
      const n = 1 + Math.floor(next() * 150)
      const bias = next()
      const accuracy = next()
      const person = Array.from({ length: n }, () => next() < bias)
      const judge = person.map((p) => (next() < accuracy ? p : !p))
      const k = cohensKappa(agreementTable(person.map((p, i) => [p, judge[i]!] as const)))
      if (new Set([...person, ...judge]).size === 1) {
        assert.equal(k, null, 'one class for both: κ is undefined')
        continue
      }
      assertClose(k!.value, referenceKappa(person, judge), 1e-12, `table ${round}`)
      assert.ok(k!.interval.lower >= -1 && k!.interval.upper <= 1 && k!.interval.lower <= k!.value && k!.value <= k!.interval.upper)
      compared++
    }
    assert.ok(compared > 450, `only ${compared} tables had a κ`)
  })

  test('perfect agreement is κ 1 with an interval of [1, 1]; a single class for both has no κ', () => {
    assert.deepEqual(cohensKappa(table(50, 0, 0, 50)), { value: 1, standardError: 0, interval: { lower: 1, upper: 1 } })
    assert.equal(cohensKappa(table(20, 0, 0, 0)), null)
    assert.equal(cohensKappa(table(0, 0, 0, 0)), null)
    // statsmodels: κ 0, ASE ≈ 0 (4.9e-8 by rounding) when the judge says holds to every one of 11
    // labels; here exactly 0, as it is analytically.
    assert.deepEqual(cohensKappa(table(10, 0, 1, 0)), { value: 0, standardError: 0, interval: { lower: 0, upper: 0 } })
  })
})

describe('agreementOf', () => {
  test('agreement and the rates on holding and failing claims, with Wilson intervals, by hand', () => {
    // 40 both hold, 5 the judge fails, 3 the judge passes, 12 both fail: 60 labels.
    const a = agreementOf(table(40, 5, 3, 12))
    assert.equal(a.labels, 60)
    assert.equal(a.agreement!.value, 52 / 60)
    assert.equal(a.agreement!.of, 60)
    assert.equal(a.onHolding!.value, 40 / 45)
    assert.equal(a.onHolding!.of, 45)
    assert.equal(a.onFailing!.value, 12 / 15)
    assert.equal(a.onFailing!.of, 15)
    // Wilson limits by hand: (p + z²/2n ± z√(p(1−p)/n + z²/4n²)) / (1 + z²/n), z = 1.959963984540054.
    const wilson = (x: number, n: number) => {
      const z = 1.959963984540054
      const p = x / n
      const centre = p + (z * z) / (2 * n)
      const half = z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))
      return [(centre - half) / (1 + (z * z) / n), (centre + half) / (1 + (z * z) / n)]
    }
    for (const [share, x, n] of [
      [a.agreement!, 52, 60],
      [a.onHolding!, 40, 45],
      [a.onFailing!, 12, 15],
    ] as const) {
      const [lower, upper] = wilson(x, n)
      assertClose(share.interval.lower, lower!, 1e-12, `${x}/${n} lower`)
      assertClose(share.interval.upper, upper!, 1e-12, `${x}/${n} upper`)
    }
    assertClose(a.kappa!.value, 0.6595744680851066, 1e-12, 'κ')
  })

  test('a rate with nothing to count is null, not 0', () => {
    const onlyHolding = agreementOf(table(9, 1, 0, 0))
    assert.equal(onlyHolding.onFailing, null)
    assert.equal(onlyHolding.onHolding!.value, 0.9)
    assert.equal(agreementOf(table(0, 0, 0, 0)).agreement, null)
  })

  test('agreementTable counts each pair in its cell', () => {
    assert.deepEqual(
      agreementTable([
        [true, true],
        [true, false],
        [false, true],
        [false, false],
        [false, false],
      ]),
      table(1, 1, 1, 2),
    )
  })
})
