import type { Comparison } from './comparison.ts'
import type { VerdictCounts } from '../records/journal/verdict-counts.ts'
import { plural } from '../base/shared/text.ts'
import { cannotTellSentence, editedFailingEverywhere, missingEvidence, named, smallestTellingK, userErrorSentence } from './standing.ts'

/**
 * The merge gate of `compare --fail-on`, the action and `publish` (one default for all: worse). Its
 * rule (issue 21): evidence the pull request's run lacks never makes it more lenient than it would be
 * with that evidence counted against the run. It decides on the worse of the comparison on verdicts
 * and the strict comparison (counted-against.ts); where they disagree, or a scenario the baseline
 * could test has no verdict, disappeared, or was judged by another judge, the gate is inconclusive
 * with the evidence missing — which fails by default. Too little to tell (k too low for any one
 * scenario to register) is the other inconclusive: neutral, with the k that would tell.
 *
 * This is the gate on the comparison's statistics; every caller goes through decide-gate.ts, which
 * adds the baseline's health, the judge's calibration and the speed and cost limits, and reads the
 * `verdict` output from the same decision.
 */
export const FAIL_ON = ['worse', 'failing', 'never'] as const
export type FailOn = (typeof FAIL_ON)[number]
export const DEFAULT_FAIL_ON: FailOn = 'worse'

export interface GateOptions {
  failOn: FailOn
  /** Gate across a change of judge (model, prompt, temperature, samples, review) that no rejudge settled, as if nothing changed. */
  acrossJudgeChange?: boolean
}

export type GateOutcome = 'pass' | 'fail' | 'inconclusive'

/** too-little-to-tell: neutral, never fails; evidence-missing: fails unless fail-on-inconclusive is false. */
export type InconclusiveKind = 'too-little-to-tell' | 'evidence-missing'

/**
 * What failed the gate, for callers that decide on it (a message, an exit): never read from `reason`,
 * which is words. worse: the comparison's verdict; not-all-passed: `fail-on: failing`; user-errors:
 * the simulated user went off script; edited-failing: an edited scenario fails every attempt; limit:
 * a speed or cost limit (fail-on-slower, fail-on-costlier) alone.
 */
export type FailKind = 'worse' | 'not-all-passed' | 'user-errors' | 'edited-failing' | 'limit'

export interface GateResult {
  outcome: GateOutcome
  /** Which inconclusive; null unless outcome is inconclusive. */
  inconclusive: InconclusiveKind | null
  /** What failed it; null unless outcome is fail. */
  failKind: FailKind | null
  /** Plain text; names scenarios and may quote model names: escape it wherever it is shown. */
  reason: string
  /** The scenarios the reason is about, by the pull request's ids. */
  scenarios: string[]
  /** For too-little-to-tell: the attempts per scenario that would tell. */
  tellingK: number | null
}

/** What the attempts of the run being gated came to, for `fail-on: failing` without a comparison. */
export type GatedRun = Pick<VerdictCounts, 'passed' | 'failed' | 'agentErrors' | 'noVerdicts'>

const pass = (reason: string): GateResult => ({ outcome: 'pass', inconclusive: null, failKind: null, reason, scenarios: [], tellingK: null })
const fail = (failKind: FailKind, reason: string, scenarios: string[] = []): GateResult => ({ outcome: 'fail', inconclusive: null, failKind, reason, scenarios, tellingK: null })
/** Evidence missing: an inconclusive that fails unless fail-on-inconclusive is false. */
export const missing = (reason: string, scenarios: string[] = []): GateResult => ({ outcome: 'inconclusive', inconclusive: 'evidence-missing', failKind: null, reason, scenarios, tellingK: null })

export function gate(c: Comparison, options: GateOptions): GateResult {
  if (options.failOn === 'never') return pass('fail-on: never')
  if (options.failOn === 'failing') {
    const passed = c.tiles.passed.after ?? 0
    const counted = c.tiles.passed.of?.after ?? 0
    return gateRun({ passed, failed: counted - passed, agentErrors: 0, noVerdicts: c.tiles.noVerdicts.after ?? 0 }, 'failing')
  }
  if (c.judgeChange && !options.acrossJudgeChange) {
    const was = c.verdict === 'worse' ? `Worse (${named(c.scenarios.worse.map((s) => s.id))}), but` : 'Not decided:'
    return missing(`Evidence missing: ${was} the baseline was not judged as this run was and no rejudge settled it. ${c.judgeChange.message} Judge both runs with one judge (the base branch's settles it: the action does, and publish and compare with --base-config), or gate across the change on purpose (--gate-across-judge-change).`, c.scenarios.worse.map((s) => s.id))
  }
  if (c.verdict === 'worse') {
    const drove = c.scenarios.worse.map((s) => s.id)
    return fail('worse', `Worse than the baseline${drove.length ? `: ${named(drove)}` : ''}.`, drove)
  }
  const offScript = userErrorSentence(c)
  if (offScript) return fail('user-errors', offScript, c.userErrors.scenarios.map((s) => s.id))
  const edited = editedFailingEverywhere(c)
  if (edited.length > 0) {
    const shown = edited.map((s) => `${s.id} (0/${s.after!.judged}; the baseline's old version ${s.before ? `${s.before.passed}/${s.before.judged}` : 'not judged'})`)
    return fail('edited-failing', `Edited and failing every attempt: ${named(shown)}.`, edited.map((s) => s.id))
  }
  const lacking = missingEvidence(c)
  if (lacking) return missing(`Evidence missing: ${lacking.reasons.join('; ')}.`, lacking.scenarios)
  const cannotTell = cannotTellSentence(c)
  if (cannotTell) return { outcome: 'inconclusive', inconclusive: 'too-little-to-tell', failKind: null, reason: cannotTell, scenarios: [], tellingK: smallestTellingK() }
  return pass(c.verdict === 'better' ? 'Better than the baseline.' : 'Within noise of the baseline.')
}

/**
 * `fail-on: failing` on one run: every attempt must pass. An agent error is an attempt that did not
 * pass; attempts without a verdict leave the evidence missing.
 */
export function gateRun(run: GatedRun, failOn: FailOn): GateResult {
  if (failOn !== 'failing') return pass(`fail-on: ${failOn}`)
  const notPassed = run.failed + run.agentErrors
  const total = run.passed + notPassed + run.noVerdicts
  if (notPassed > 0) return fail('not-all-passed', `${notPassed} of ${plural(total, 'attempt')} did not pass (fail-on: failing).`)
  if (run.noVerdicts > 0) return missing(`Evidence missing: every attempt with a verdict passed, but ${run.noVerdicts} of ${plural(total, 'attempt')} have none (convy-ci's own models failed).`)
  return pass(`All ${plural(total, 'attempt')} passed.`)
}

/**
 * Whether the gate's result fails the step or the command: a fail always; evidence missing unless
 * fail-on-inconclusive is false; too little to tell never (it is neutral, and says the k that would tell).
 */
export function gateFails(result: GateResult, failOnInconclusive = true): boolean {
  return result.outcome === 'fail' || (result.inconclusive === 'evidence-missing' && failOnInconclusive)
}
