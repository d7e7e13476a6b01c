import { wilsonInterval, Z_95, type Interval } from './intervals.ts'

/**
 * How a judge's yes/no decisions agree with a person's labels of the same decisions: the 2×2 table,
 * and what it comes to. The person is the reference: "holding" and "failing" claims are what the
 * person said, and the judge's rates on each are its sensitivity and specificity.
 */
export interface AgreementTable {
  /** The person says the claim holds, and so does the judge. */
  bothHold: number
  /** The person says it holds; the judge says it does not (the judge fails a good answer). */
  judgeFails: number
  /** The person says it does not hold; the judge says it does (the judge passes a bad answer). */
  judgeHolds: number
  /** Both say it does not hold. */
  bothFail: number
}

/** A share with its 95% Wilson interval; null when nothing was counted. */
export interface Share {
  value: number
  of: number
  interval: Interval
}

export interface Kappa {
  value: number
  /** The asymptotic standard error of Fleiss, Cohen & Everitt (1969), as SAS PROC FREQ and statsmodels give it. */
  standardError: number
  /** κ ± z·SE, clipped to [−1, 1]. */
  interval: Interval
}

export interface Agreement {
  labels: number
  /** Decisions where judge and person agree. */
  agreement: Share | null
  /** Of the claims the person says hold, the share the judge says hold (sensitivity). */
  onHolding: Share | null
  /** Of the claims the person says fail, the share the judge says fail (specificity). */
  onFailing: Share | null
  /** Cohen's κ; null when chance agreement is 1 (every label and decision the same): κ is undefined. */
  kappa: Kappa | null
}

export function agreementOf(t: AgreementTable, z: number = Z_95): Agreement {
  const n = t.bothHold + t.judgeFails + t.judgeHolds + t.bothFail
  return {
    labels: n,
    agreement: share(t.bothHold + t.bothFail, n, z),
    onHolding: share(t.bothHold, t.bothHold + t.judgeFails, z),
    onFailing: share(t.bothFail, t.bothFail + t.judgeHolds, z),
    kappa: cohensKappa(t, z),
  }
}

function share(count: number, of: number, z: number): Share | null {
  return of === 0 ? null : { value: count / of, of, interval: wilsonInterval(count, of, z) }
}

/**
 * Cohen's κ = (pₒ − pₑ)/(1 − pₑ) with its large-sample interval. The variance is Fleiss, Cohen &
 * Everitt's (1969) for the 2×2 table: with proportions pᵢⱼ (i the person, j the judge) and margins
 * pᵢ., p.ⱼ,
 *   Var κ = [Σᵢ pᵢᵢ(1 − (pᵢ. + p.ᵢ)(1 − κ))² + (1 − κ)² Σᵢ≠ⱼ pᵢⱼ(p.ᵢ + pⱼ.)² − (κ − pₑ(1 − κ))²] / (n(1 − pₑ)²).
 * A bootstrap would need a seeded random source and gives nothing better at 50–100 labels; a Wald
 * interval can pass 1 near perfect agreement, so it is clipped.
 */
export function cohensKappa(t: AgreementTable, z: number = Z_95): Kappa | null {
  const n = t.bothHold + t.judgeFails + t.judgeHolds + t.bothFail
  if (n === 0) return null
  const p = [
    [t.bothHold / n, t.judgeFails / n],
    [t.judgeHolds / n, t.bothFail / n],
  ] as const
  const row = [p[0][0] + p[0][1], p[1][0] + p[1][1]] as const
  const col = [p[0][0] + p[1][0], p[0][1] + p[1][1]] as const
  const observed = p[0][0] + p[1][1]
  const chance = row[0] * col[0] + row[1] * col[1]
  if (chance >= 1 - 1e-12) return null
  const kappa = (observed - chance) / (1 - chance)
  let sum = 0
  for (const i of [0, 1] as const) sum += p[i][i] * (1 - (row[i] + col[i]) * (1 - kappa)) ** 2
  sum += (1 - kappa) ** 2 * (p[0][1] * (col[0] + row[1]) ** 2 + p[1][0] * (col[1] + row[0]) ** 2)
  sum -= (kappa - chance * (1 - kappa)) ** 2
  // One side gave one answer throughout: κ is 0 whatever the table, and its variance 0 exactly (the
  // formula gets there only up to rounding).
  const oneAnswer = Math.min(...row, ...col) === 0
  const standardError = oneAnswer ? 0 : Math.sqrt(Math.max(0, sum) / (n * (1 - chance) ** 2))
  return {
    value: kappa,
    standardError,
    interval: { lower: Math.max(-1, kappa - z * standardError), upper: Math.min(1, kappa + z * standardError) },
  }
}

/** The table of paired decisions: [person says it holds, judge says it holds]. */
export function agreementTable(pairs: Iterable<readonly [person: boolean, judge: boolean]>): AgreementTable {
  const t: AgreementTable = { bothHold: 0, judgeFails: 0, judgeHolds: 0, bothFail: 0 }
  for (const [person, judge] of pairs) {
    if (person && judge) t.bothHold++
    else if (person) t.judgeFails++
    else if (judge) t.judgeHolds++
    else t.bothFail++
  }
  return t
}
