import { baselineHealth, BASELINE_WALK_BACK, type BaselineHealth } from '../../verdict/baseline-health.ts'
import type { RunTally } from '../../records/tally/run-tally.ts'

export interface WalkedBaseline<C> {
  candidate: C
  tally: RunTally
  health: BaselineHealth
  /** The newer runs passed over, each with why (their health's reason). */
  passedOver: string[]
  /** When none was healthy: how far back was looked, said after the newest's reason (and again when its health is held against a run later). */
  lookedBack: string | null
}

/**
 * The baseline walked back to: the newest candidate (newest first, as the branch's runs come) whose
 * health against the PR's run is good, looking at `limit` candidates at most. When none of them is
 * healthy, the newest stands, unhealthy, with a reason that says how far back was looked: the gate
 * then cannot pass on it (verdict/baseline-health.ts withBaselineHealth). Null: no candidate at all.
 * The action, `convy-ci publish` and `convy-ci baseline` all walk through here.
 */
export async function walkBack<C>(candidates: AsyncIterable<C>, read: (candidate: C) => Promise<RunTally>, against: RunTally | null, limit: number = BASELINE_WALK_BACK): Promise<WalkedBaseline<C> | null> {
  let newest: WalkedBaseline<C> | null = null
  const passedOver: string[] = []
  let looked = 0
  for await (const candidate of candidates) {
    const tally = await read(candidate)
    const health = baselineHealth(tally, against)
    if (health.healthy) return { candidate, tally, health, passedOver, lookedBack: null }
    newest ??= { candidate, tally, health, passedOver, lookedBack: null }
    passedOver.push(health.reason!)
    if (++looked >= limit) break
  }
  if (newest === null) return null
  const lookedBack = looked === 1 ? 'it is the only run on the branch to compare with' : `none of the newest ${looked} runs on the branch is healthier`
  return { ...newest, health: { healthy: false, reason: `${newest.health.reason} (${lookedBack})` }, passedOver: passedOver.slice(1), lookedBack }
}
