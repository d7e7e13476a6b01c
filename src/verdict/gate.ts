import type { Comparison } from './comparison.ts'
import { plural } from '../base/shared/text.ts'
import { cannotTellSentence, judgeUnstableSentence } from './standing.ts'

/**
 * The merge gate of `compare --fail-on`, the action and `publish`: decided by the statistics alone.
 * An agent error is a failed attempt inside the statistics; an attempt without a verdict (convy-ci's
 * own models failed) never fails a gate — too many of them make it inconclusive instead.
 */
export const FAIL_ON = ['worse', 'failing', 'never'] as const
export type FailOn = (typeof FAIL_ON)[number]

export interface GateOptions {
  failOn: FailOn
  /** Fail on a Worse verdict even when the judge (model, prompt, temperature or samples) changed between the runs. */
  acrossJudgeChange?: boolean
}

/** pass, fail, or inconclusive: the comparison cannot tell (a neutral check; exit 0 unless asked). */
export type GateOutcome = 'pass' | 'fail' | 'inconclusive'

export interface GateResult {
  outcome: GateOutcome
  /** One plain-text sentence. */
  reason: string
}

/** What the attempts of the run being gated came to, for `fail-on: failing` without a comparison. */
export interface GatedRun {
  passed: number
  failed: number
  agentErrors: number
  noVerdicts: number
}

export function gate(c: Comparison, options: GateOptions): GateResult {
  if (options.failOn === 'never') return { outcome: 'pass', reason: 'fail-on: never' }
  if (options.failOn === 'failing') {
    const passed = c.tiles.passed.after ?? 0
    const counted = c.tiles.passed.of?.after ?? 0
    return gateRun({ passed, failed: counted - passed, agentErrors: 0, noVerdicts: c.tiles.noVerdicts.after ?? 0 }, 'failing')
  }
  if (c.verdict === 'worse') {
    const drove = c.scenarios.worse.map((s) => s.id)
    const named = drove.length === 0 ? '' : `: ${drove.slice(0, 5).join(', ')}${drove.length > 5 ? ` and ${drove.length - 5} more` : ''}`
    if (c.judgeChange && !options.acrossJudgeChange) {
      return { outcome: 'inconclusive', reason: `Worse${named}, but not attributable to the agent, so it does not fail the gate: ${c.judgeChange.message}` }
    }
    return { outcome: 'fail', reason: `Worse than the baseline${named}.` }
  }
  if (c.overall.scenarios === 0) return { outcome: 'inconclusive', reason: 'No scenario could be compared.' }
  if (c.coverage.inconclusive) return { outcome: 'inconclusive', reason: `Inconclusive: ${c.coverage.inconclusive}` }
  const unstable = judgeUnstableSentence(c)
  if (unstable) return { outcome: 'inconclusive', reason: unstable }
  const cannotTell = cannotTellSentence(c)
  if (cannotTell) return { outcome: 'inconclusive', reason: cannotTell }
  return { outcome: 'pass', reason: c.verdict === 'better' ? 'Better than the baseline.' : 'Within noise of the baseline.' }
}

/**
 * `fail-on: failing` on one run: every attempt must pass. An agent error is an attempt that did not
 * pass; an attempt without a verdict says nothing either way, so it can only leave the gate inconclusive.
 */
export function gateRun(run: GatedRun, failOn: FailOn): GateResult {
  if (failOn !== 'failing') return { outcome: 'pass', reason: `fail-on: ${failOn}` }
  const notPassed = run.failed + run.agentErrors
  const total = run.passed + notPassed + run.noVerdicts
  if (notPassed > 0) return { outcome: 'fail', reason: `${notPassed} of ${plural(total, 'attempt')} did not pass (fail-on: failing).` }
  if (run.noVerdicts > 0) return { outcome: 'inconclusive', reason: `Every attempt with a verdict passed, but ${run.noVerdicts} of ${plural(total, 'attempt')} have none (convy-ci's own models failed).` }
  return { outcome: 'pass', reason: `All ${plural(total, 'attempt')} passed.` }
}

/** Whether the gate's result fails the step or the command: inconclusive only when asked. */
export function gateFails(result: GateResult, failOnInconclusive: boolean): boolean {
  return result.outcome === 'fail' || (result.outcome === 'inconclusive' && failOnInconclusive)
}
