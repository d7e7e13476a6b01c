import type { FAIL_ON } from '../../verdict/gate.ts'
import type { Shard } from '../../records/journal/records.ts'
import type { CacheMode } from '../../adapters/model-client/model-cache.ts'
import type { CommentPolicy } from '../../app/publish/deps.ts'
import { readActionInputs } from '../options/action-inputs.ts'
import { ADAPTIVE_DEFAULTS } from '../../app/pipeline/defaults.ts'
import type { BaselineChoice } from '../options/kinds.ts'
import type { MODES } from '../options/run-options.ts'

export { INPUT_NAMES } from '../options/action-inputs.ts'
import { ACTION_DEFAULT_ATTEMPTS } from '../options/run-options.ts'
export { ACTION_DEFAULT_ATTEMPTS, ACTION_DEFAULT_BASELINE_ATTEMPTS } from '../options/run-options.ts'
export { MODES } from '../options/run-options.ts'
export type { BaselineChoice } from '../options/kinds.ts'
export type Mode = (typeof MODES)[number]

/**
 * The action's inputs as the steps use them. Each input is declared once, in the option table
 * (src/entry/options/): its kind, its default and its description in action.yml; this file only
 * shapes what the table read.
 */
export interface ActionInputs {
  mode: Mode
  agents: string[]
  config: string
  scenarios: string[]
  tags: string[]
  attempts: number
  /** Attempts per scenario of a run that becomes a baseline (a push to the default branch): at least `attempts`. */
  baselineAttempts: number
  /** On a push to the baseline branch, each scenario's attempts planned from the history (issue 39 item 2). */
  attemptsByHistory: boolean
  /** On a pull request, attempts beyond `attempts`, up to `maxAttempts`, only where the comparison is undecided (issue 39). */
  adaptive: boolean
  /** With adaptive, against a baseline: the first round's attempts per scenario, `attempts` when set, else 3. */
  adaptiveFirstRound: number
  /** With adaptive: the most attempts a scenario gets; at least `attempts`. */
  maxAttempts: number
  parallel: number
  turnTimeoutSeconds: number
  waitFor: { url: string; timeoutSeconds: number } | null
  workingDirectory: string
  failOn: (typeof FAIL_ON)[number]
  /** An inconclusive comparison fails the step too (it is a neutral check otherwise). */
  failOnInconclusive: boolean
  /** A Worse verdict fails the step even when the judge changed between the runs. */
  gateAcrossJudgeChange: boolean
  /** Fail on answers significantly slower by this many percent or more; null: off. */
  failOnSlower: number | null
  /** Fail on agent tokens or dollars per attempt significantly higher by this many percent or more; null: off. */
  failOnCostlier: number | null
  /** A change of answer time smaller than this per answer is never told slower or faster (verdict/speed.ts). */
  minSpeedChangeSeconds: number
  /** Judge samples for the attempts of the scenarios that decide a Worse or Better verdict; null: none (no second look). */
  rejudge: number | null
  comment: CommentPolicy
  check: boolean
  baseline: BaselineChoice
  baselineBranch: string | null
  artifactName: string
  retentionDays: number | undefined
  shard: Shard | null
  /** How the run uses the model cache, which the action carries between workflow runs. */
  cache: CacheMode
  /** No attempt starts once spending would pass this many dollars; null: no budget. */
  budgetUsd: number | null
  githubToken: string | null
  /** Below this κ (or without a calibration of the run's judge) a comparison does not pass the gate; null: convy.yml's judge.min_kappa. */
  judgeMinKappa: number | null
  /** The labels file whose calibration.json applies, relative to working-directory; null: convy.yml's judge.labels. */
  judgeLabels: string | null
  /** The default branch's last runs whose summaries make the trend; 0: no trend. */
  history: number
}

export function readInputs(getInput: (name: string) => string): ActionInputs {
  const v = readActionInputs(getInput)
  const attempts = v.attempts ?? ACTION_DEFAULT_ATTEMPTS
  return {
    mode: v.mode,
    agents: v.agent ?? [],
    config: v.config,
    scenarios: v.scenarios,
    tags: v.tags,
    attempts,
    baselineAttempts: Math.max(attempts, v.baselineAttempts),
    attemptsByHistory: v.attemptsByHistory,
    adaptive: v.adaptive,
    // As the CLI's `run --adaptive`: 3 attempts first unless `attempts` is set.
    adaptiveFirstRound: v.attempts ?? ADAPTIVE_DEFAULTS.k,
    maxAttempts: Math.max(attempts, v.maxAttempts),
    parallel: v.parallel,
    turnTimeoutSeconds: v.turnTimeout,
    waitFor: v.waitFor ? { url: v.waitFor, timeoutSeconds: v.waitForTimeout } : null,
    workingDirectory: v.workingDirectory,
    failOn: v.failOn,
    failOnInconclusive: v.failOnInconclusive,
    gateAcrossJudgeChange: v.gateAcrossJudgeChange,
    failOnSlower: v.failOnSlower ?? null,
    failOnCostlier: v.failOnCostlier ?? null,
    minSpeedChangeSeconds: v.minSpeedChange / 1000,
    rejudge: v.rejudge === undefined || v.rejudge === 1 ? null : v.rejudge,
    comment: v.comment,
    check: v.check,
    baseline: v.baseline,
    baselineBranch: v.branch ?? null,
    artifactName: v.artifactName,
    retentionDays: v.retentionDays,
    shard: v.shard ?? null,
    cache: v.cache,
    budgetUsd: v.budgetUsd ?? null,
    githubToken: v.githubToken ?? null,
    judgeMinKappa: v.judgeMinKappa ?? null,
    judgeLabels: v.judgeLabels ?? null,
    history: v.history,
  }
}
