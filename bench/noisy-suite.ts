import type { Verdict } from '../src/records/journal/records.ts'
import { scenario } from '../test/compare/run-builder.ts'

// What bench:adaptive and bench:baseline simulate alike: a suite of S scenarios, and each attempt's
// verdict under the noise of real runs (2% agent errors, 5% without a verdict, 5% user errors).

export const S = 20
export const NOISE = { agentError: 0.02, noVerdict: 0.05, userError: 0.05 }

/**
 * S scenarios' pass rates, a share of them stable (always passing: only the noise fails them), the
 * rest spread from 0.98 down to 0.5. The first scenarios are the stable ones; the last ones the others.
 */
export function suite(stableShare: number): number[] {
  const stable = Math.round(S * stableShare)
  const others = S - stable
  return [...Array.from({ length: stable }, () => 1), ...Array.from({ length: others }, (_, i) => 0.98 - (0.48 * i) / Math.max(1, others - 1))]
}

export type Random = () => number

/** One attempt of a scenario that passes at `rate`, with the noise drawn over it. */
export function outcome(random: Random, rate: number): Verdict {
  const passed = random() < rate
  const roll = random()
  if (roll < NOISE.agentError) return 'agent_error'
  if (roll < NOISE.agentError + NOISE.noVerdict) return 'no_verdict'
  if (roll < NOISE.agentError + NOISE.noVerdict + NOISE.userError) return 'user_error'
  return passed ? 'passed' : 'failed'
}

/** A run's settings as the simulated runs record them. */
export const settings = (k: number) => ({ k, parallel: 1, turnTimeoutSeconds: 60, scenarioGlobs: [], tags: [], smoke: false, shard: null, review: true })

/** The suite's scenarios, s0 … s(S−1), as run.json lists them. */
export const scenarios = Array.from({ length: S }, (_, i) => scenario(`s${i}`))
