import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { fisherExact, hypergeometricPmf, logFactorial, stratifiedExactTest, type Stratum } from '../../src/base/stats/exact-tests.ts'
import { assertClose, bruteForceStratified, choose, exactFisher, lnFactorial, ratio, seededRandom } from './exact-arithmetic.ts'

const counts = (passed: number, total: number) => ({ passed, total })
const stratum = (x1: number, n1: number, x2: number, n2: number): Stratum => ({ first: counts(x1, n1), second: counts(x2, n2) })

describe('logFactorial', () => {
  test('matches ln(n!) of the exact integer on both sides of the switch to Stirling', () => {
    for (const n of [0, 1, 2, 5, 19, 20, 21, 22, 30, 50, 100, 170, 171, 500, 1000, 3000]) {
      assertClose(logFactorial(n), lnFactorial(n), 1e-14, `ln ${n}!`)
    }
  })

  test('refuses what is not a non-negative integer', () => {
    assert.throws(() => logFactorial(-1), RangeError)
    assert.throws(() => logFactorial(2.5), RangeError)
  })
})

describe('hypergeometricPmf', () => {
  test('equals C(K,k)·C(N−K,n−k)/C(N,n) computed exactly', () => {
    for (const [k, population, successes, draws] of [[0, 10, 5, 5], [2, 10, 5, 5], [3, 7, 4, 3], [40, 200, 90, 100], [1, 6, 1, 3]] as const) {
      const exact = ratio(choose(successes, k) * choose(population - successes, draws - k), choose(population, draws))
      assertClose(hypergeometricPmf(k, population, successes, draws), exact, 1e-12, `P(X=${k}) N=${population} K=${successes} n=${draws}`)
    }
  })

  test('is 0 outside the support', () => {
    assert.equal(hypergeometricPmf(6, 10, 5, 5), 0)
    assert.equal(hypergeometricPmf(0, 10, 8, 5), 0) // at least 3 of the 5 drawn must be successes
  })
})

describe('fisherExact', () => {
  // scipy 1.17 fisher_exact([[x1, n1-x1], [x2, n2-x2]], alternative=…): less, greater, two-sided.
  const scipy: [number, number, number, number, number, number, number][] = [
    [1, 3, 3, 3, 0.20000000000000004, 1.0, 0.4000000000000001],
    [0, 3, 3, 3, 0.05000000000000001, 1.0, 0.10000000000000002],
    [0, 4, 4, 4, 0.014285714285714284, 1.0, 0.028571428571428567],
    [3, 5, 5, 5, 0.22222222222222224, 1.0, 0.4444444444444445],
    [2, 5, 5, 5, 0.08333333333333333, 1.0, 0.16666666666666666],
    [1, 5, 5, 5, 0.023809523809523808, 1.0, 0.047619047619047616],
    [0, 5, 5, 5, 0.003968253968253969, 1.0, 0.007936507936507938],
    [7, 10, 10, 10, 0.10526315789473684, 1.0, 0.21052631578947367],
    [5, 10, 10, 10, 0.016253869969040248, 1.0, 0.032507739938080496],
    [1, 3, 9, 10, 0.10839160839160841, 0.9965034965034965, 0.10839160839160841],
    [7, 10, 2, 10, 0.9972612526792093, 0.03488925934746368, 0.06977851869492736],
    [82, 100, 89, 100, 0.11391463102601838, 0.9465106921975802, 0.22782926205203677],
    [820, 1000, 890, 1000, 5.4340915852425475e-6, 0.9999970195360398, 1.0868183170485095e-5],
    [0, 5, 0, 5, 1.0, 1.0, 1.0],
    [3, 7, 3, 7, 0.703962703962704, 0.703962703962704, 1.0],
    [12, 40, 25, 38, 0.0015318000272883543, 0.9996982333893357, 0.002940596712914305],
    [4991, 5000, 4997, 5000, 0.07287716706170884, 0.9807692673440819, 0.14575433412341768],
  ]

  test('matches scipy on the tables of stats.md §2 and beyond, to 1e-9', () => {
    for (const [x1, n1, x2, n2, less, greater, twoSided] of scipy) {
      const result = fisherExact(counts(x1, n1), counts(x2, n2))
      const label = `${x2}/${n2} → ${x1}/${n1}`
      assertClose(result.less, less, 1e-9, `${label} less`)
      assertClose(result.greater, greater, 1e-9, `${label} greater`)
      assertClose(result.twoSided, twoSided, 1e-9, `${label} two-sided`)
    }
  })

  test('matches the printed table of stats.md §2', () => {
    const printed: [number, number, string, string][] = [
      [1, 3, '0.40', '0.20'], [0, 3, '0.10', '0.050'], [0, 4, '0.029', '0.014'], [3, 5, '0.44', '0.22'], [2, 5, '0.17', '0.083'],
      [1, 5, '0.048', '0.024'], [0, 5, '0.0079', '0.0040'], [7, 10, '0.21', '0.11'], [5, 10, '0.033', '0.016'],
    ]
    for (const [after, k, twoSided, oneSided] of printed) {
      const result = fisherExact(counts(after, k), counts(k, k))
      const digits = (text: string) => text.length - text.indexOf('.') - 1
      assert.equal(result.twoSided.toFixed(digits(twoSided)), twoSided, `${k}/${k} → ${after}/${k} two-sided`)
      assert.equal(result.less.toFixed(digits(oneSided)), oneSided, `${k}/${k} → ${after}/${k} one-sided`)
    }
  })

  test('matches exact rational arithmetic on 300 random tables, to 1e-12', () => {
    const random = seededRandom(7)
    for (let i = 0; i < 300; i++) {
      const n1 = 1 + Math.floor(random() * 30)
      const n2 = 1 + Math.floor(random() * 30)
      const x1 = Math.floor(random() * (n1 + 1))
      const x2 = Math.floor(random() * (n2 + 1))
      const exact = exactFisher(x1, n1, x2, n2)
      const result = fisherExact(counts(x1, n1), counts(x2, n2))
      const label = `[[${x1}, ${n1 - x1}], [${x2}, ${n2 - x2}]]`
      assertClose(result.less, exact.less, 1e-12, `${label} less`)
      assertClose(result.greater, exact.greater, 1e-12, `${label} greater`)
      assertClose(result.twoSided, exact.twoSided, 1e-12, `${label} two-sided`)
    }
  })

  test('gives the smallest p the margins allow in each direction', () => {
    const result = fisherExact(counts(4, 5), counts(3, 5)) // 7 passes among 10: the first group has 2 to 5
    assertClose(result.minimumLess, ratio(choose(7, 2) * choose(3, 3), choose(10, 5)), 1e-12)
    assertClose(result.minimumGreater, ratio(choose(7, 5), choose(10, 5)), 1e-12)
    const allPassed = fisherExact(counts(5, 5), counts(5, 5))
    assert.equal(allPassed.minimumLess, 1)
    assert.equal(allPassed.minimumGreater, 1)
  })
})

describe('stratifiedExactTest', () => {
  test('with one stratum is Fisher’s test', () => {
    const random = seededRandom(11)
    for (let i = 0; i < 100; i++) {
      const n1 = 1 + Math.floor(random() * 12)
      const n2 = 1 + Math.floor(random() * 12)
      const x1 = Math.floor(random() * (n1 + 1))
      const x2 = Math.floor(random() * (n2 + 1))
      const fisher = fisherExact(counts(x1, n1), counts(x2, n2))
      const stratified = stratifiedExactTest([stratum(x1, n1, x2, n2)])
      assertClose(stratified.less, fisher.less, 1e-12)
      assertClose(stratified.greater, fisher.greater, 1e-12)
      assertClose(stratified.twoSided, fisher.twoSided, 1e-12)
    }
  })

  test('equals brute-force enumeration of every within-scenario reassignment', () => {
    const cases: [number, number, number, number][][] = [
      [[1, 3, 3, 3], [2, 3, 3, 3], [0, 3, 2, 3]],
      [[2, 3, 3, 3], [1, 2, 4, 4], [3, 4, 1, 2], [1, 3, 4, 5]],
      [[3, 3, 0, 3], [0, 2, 2, 2], [2, 4, 2, 4]],
      [[3, 3, 3, 3], [0, 3, 0, 3], [1, 3, 3, 3]], // two strata that carry no information
    ]
    for (const strata of cases) {
      const brute = bruteForceStratified(strata)
      const result = stratifiedExactTest(strata.map(([x1, n1, x2, n2]) => stratum(x1, n1, x2, n2)))
      const label = JSON.stringify(strata)
      assertClose(result.less, brute.less, 1e-12, `${label} less`)
      assertClose(result.greater, brute.greater, 1e-12, `${label} greater`)
      assertClose(result.twoSided, brute.twoSided, 1e-12, `${label} two-sided`)
    }
  })

  // Layouts of stats.md's worked examples (S = 20, k = 5), found to reproduce its printed p-values;
  // the long-digit expectations are an independent convolution of scipy's hypergeometric pmfs.
  const exampleA = [[4, 5, 5, 5], [0, 5, 4, 5], [2, 5, 5, 5], [5, 5, 5, 5], [5, 5, 5, 5], [5, 5, 5, 5], [5, 5, 5, 5], [5, 5, 5, 5], [4, 5, 3, 5], [3, 5, 3, 5],
    [4, 5, 3, 5], [5, 5, 5, 5], [4, 5, 3, 5], [5, 5, 5, 5], [4, 5, 5, 5], [5, 5, 4, 5], [2, 5, 4, 5], [5, 5, 5, 5], [5, 5, 5, 5], [5, 5, 5, 5]] as const
  const exampleB = [[4, 5, 2, 5], [5, 5, 5, 5], [5, 5, 5, 5], [5, 5, 4, 5], [5, 5, 5, 5], [5, 5, 5, 5], [4, 5, 5, 5], [5, 5, 5, 5], [5, 5, 5, 5], [5, 5, 5, 5],
    [5, 5, 4, 5], [5, 5, 5, 5], [4, 5, 5, 5], [4, 5, 5, 5], [5, 5, 5, 5], [5, 5, 5, 5], [5, 5, 5, 5], [4, 5, 5, 5], [5, 5, 5, 5], [0, 5, 5, 5]] as const

  test('example A of stats.md: 89/100 → 82/100, p_worse 0.090, two-sided 0.18', () => {
    const result = stratifiedExactTest(exampleA.map(([x1, n1, x2, n2]) => stratum(x1, n1, x2, n2)))
    assert.equal(result.observed, 82)
    assert.equal(result.less.toFixed(3), '0.090')
    assert.equal(result.twoSided.toFixed(2), '0.18')
    assertClose(result.less, 0.09036680767101729)
    assertClose(result.greater, 0.9632338991688842)
    assertClose(result.twoSided, 0.18073361534203455)
  })

  test('example B of stats.md: 95/100 → 90/100 with one scenario 5/5 → 0/5, p_worse 0.117', () => {
    const result = stratifiedExactTest(exampleB.map(([x1, n1, x2, n2]) => stratum(x1, n1, x2, n2)))
    assert.equal(result.less.toFixed(3), '0.117')
    assertClose(result.less, 0.11696015211640216)
    assertClose(result.greater, 0.9642547123015877)
    assertClose(result.twoSided, 0.2339203042328043)
  })

  test('with no strata nothing is unusual', () => {
    assert.deepEqual(stratifiedExactTest([]), { less: 1, greater: 1, twoSided: 1, observed: 0 })
  })

  // How long it takes is bench/report.ts's to measure (it compares two 10,000-attempt runs); a timed
  // test fails when the machine is busy. Here, that a test this large is decided at all.
  test('10,000 attempts a side in 2,000 scenarios are decided: a probability, the two tails adding up', () => {
    const random = seededRandom(3)
    const strata = Array.from({ length: 2000 }, () => stratum(Math.floor(random() * 6), 5, Math.floor(random() * 6), 5))
    const result = stratifiedExactTest(strata)
    assert.ok(result.less > 0 && result.less <= 1)
    assert.ok(result.greater > 0 && result.greater <= 1)
    // The observed value belongs to both tails, so they overlap: together they hold at least everything.
    assert.ok(result.less + result.greater >= 1)
  })
})
