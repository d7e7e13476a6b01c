import * as z from '../../base/shared/zod.ts'
import { DEFAULT_FAIL_ON, FAIL_ON } from '../../verdict/gate.ts'
import { DEFAULT_ARTIFACT_NAME } from '../../adapters/github/artifact-names.ts'
import { RUN_DEFAULTS } from '../../app/pipeline/defaults.ts'
import type { Shard } from '../../records/journal/records.ts'
import { CACHE_MODES, type CacheMode } from '../../adapters/model-client/model-cache.ts'
import { parseShard } from '../../play/runner/select-scenarios.ts'
import { InputError, InputErrors } from '../../base/shared/errors.ts'
import { COMMENT_POLICIES, type CommentPolicy } from '../../app/publish/deps.ts'
import { HISTORY_MAX_RUNS } from '../../records/tally/trend.ts'

/**
 * The action's inputs, read when asked and checked in one pass: every wrong input is reported at
 * once, by the name the workflow gives it. An empty input is an absent one (GitHub passes '' for
 * inputs that are not set and have no default).
 */
export const MODES = ['run', 'publish', 'merge'] as const
export type Mode = (typeof MODES)[number]

export type BaselineChoice = { kind: 'auto' } | { kind: 'none' } | { kind: 'run'; runId: number }

const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/

const list = (missing?: string) => z.pipe(z.string(missing), z.transform((text: string) => text.split(/[\s,]+/).filter(Boolean)))
// The int check goes on the coerced number, so a word that is no number at all keeps zod's own message.
const whole = (min: number, max: number) => {
  const message = `expected a whole number from ${min} to ${max}`
  return z.coerce.number().check(z.int(message), z.gte(min, message), z.lte(max, message))
}
const PERCENTAGE = 'expected a percentage, 0 or more (50: fail on a significant change of 1.5 × or more)'
const percentage = z.coerce.number(PERCENTAGE).check(z.gte(0, PERCENTAGE))
const seconds = z.coerce.number().check(z.positive('expected a number of seconds above 0'))
// The YAML 1.2 core schema's booleans, as core.getBooleanInput reads them.
const BOOLEAN_WORDS = ['true', 'True', 'TRUE', 'false', 'False', 'FALSE'] as const
const boolean = z.pipe(
  z.enum(BOOLEAN_WORDS, 'expected true or false'),
  z.transform((text: (typeof BOOLEAN_WORDS)[number]) => text.toLowerCase() === 'true'),
)

/**
 * Attempts per scenario when the workflow does not say: the smallest k at which one scenario that
 * stops passing altogether (1.0 → 0 among 20) is caught at least 90% of the time (npm run
 * bench:verdict; docs/statistics.md). Below it, the comparison says it cannot tell.
 */
export const ACTION_DEFAULT_ATTEMPTS = 5

/**
 * Attempts per scenario of a baseline (a run on a push to the default branch) when the workflow does
 * not say: twice the pull requests' default. A baseline is played once and held against every pull
 * request after it, and its own errors and missing verdicts (2–12% in real runs) are what let a real
 * break escape at k = 5: at 10, a scenario that always passed has its ≥ 4 decided attempts almost
 * always (the collapse rule, verdict/decide.ts), and 10/10 → 0/5 is p = 0.0003 (issue 38, bench:gate).
 */
export const ACTION_DEFAULT_BASELINE_ATTEMPTS = 10

const InputsSchema = z.object({
  mode: z._default(z.enum(MODES, `expected one of ${MODES.join(', ')}`), 'run'),
  agent: z.pipe(
    list('name at least one agent'),
    z.array(z.string().check(z.regex(NAME, 'agent names use letters, digits, ".", "_" and "-"'))).check(z.minLength(1, 'name at least one agent')),
  ),
  config: z._default(z.string(), 'convy.yml'),
  scenarios: z._default(list(), []),
  tags: z._default(list(), []),
  attempts: z._default(whole(1, 1000), ACTION_DEFAULT_ATTEMPTS),
  'baseline-attempts': z._default(whole(1, 1000), ACTION_DEFAULT_BASELINE_ATTEMPTS),
  parallel: z._default(whole(1, 1000), RUN_DEFAULTS.parallel),
  'turn-timeout': z._default(seconds, RUN_DEFAULTS.turnTimeoutSeconds),
  'wait-for': z.optional(z.url({ protocol: /^https?$/, error: 'expected an http(s) URL' })),
  'wait-for-timeout': z._default(seconds, 120),
  'working-directory': z._default(z.string(), '.'),
  'fail-on': z._default(z.enum(FAIL_ON, `expected one of ${FAIL_ON.join(', ')}`), DEFAULT_FAIL_ON),
  // Evidence missing fails by default (verdict/gate.ts); too little to tell is always neutral.
  'fail-on-inconclusive': z._default(boolean, true),
  'gate-across-judge-change': z._default(boolean, false),
  // Off by default; a percentage: 50 fails on a significant change of 1.5 × or more (verdict/decide-gate.ts).
  'fail-on-slower': z.optional(percentage),
  'fail-on-costlier': z.optional(percentage),
  rejudge: z.optional(whole(1, 15)),
  comment: z._default(z.enum(COMMENT_POLICIES, `expected one of ${COMMENT_POLICIES.join(', ')}`), 'on-change'),
  check: z._default(boolean, true),
  baseline: z.pipe(
    z._default(z.string().check(z.regex(/^(auto|none|\d+)$/, 'expected auto, none, or the id of a workflow run')), 'auto'),
    z.transform((text: string): BaselineChoice => (text === 'auto' || text === 'none' ? { kind: text } : { kind: 'run', runId: Number(text) })),
  ),
  'baseline-branch': z.optional(z.string()),
  'artifact-name': z._default(z.string().check(z.regex(NAME, 'use letters, digits, ".", "_" and "-"; it starts the names of the artifacts')), DEFAULT_ARTIFACT_NAME),
  'retention-days': z.optional(whole(1, 90)),
  shard: z.pipe(
    z.optional(z.string()),
    z.transform((text: string | undefined, ctx): Shard | null => {
      if (text === undefined) return null
      try {
        return parseShard(text)
      } catch {
        // zod/mini's transform has no ctx.addIssue: the issue is pushed as addIssue would have made it.
        ctx.issues.push({ code: 'custom', message: 'expected I/N with 1 ≤ I ≤ N, e.g. 1/4', input: text })
        return z.NEVER
      }
    }),
  ),
  cache: z._default(z.enum(CACHE_MODES, `expected one of ${CACHE_MODES.join(', ')}`), 'readwrite'),
  'budget-usd': z.optional(z.coerce.number().check(z.positive('expected an amount of dollars above 0'))),
  'github-token': z.optional(z.string()),
  'judge-min-kappa': z.optional(z.coerce.number().check(z.gte(-1, 'expected a κ from -1 to 1'), z.lte(1, 'expected a κ from -1 to 1'))),
  'judge-labels': z.optional(z.string()),
  history: z._default(whole(0, HISTORY_MAX_RUNS), 10),
})

export const INPUT_NAMES = Object.keys(InputsSchema.shape) as (keyof typeof InputsSchema.shape)[]

export interface ActionInputs {
  mode: Mode
  agents: string[]
  config: string
  scenarios: string[]
  tags: string[]
  attempts: number
  /** Attempts per scenario of a run that becomes a baseline (a push to the default branch): at least `attempts`. */
  baselineAttempts: number
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
  const raw: Record<string, string> = {}
  for (const name of INPUT_NAMES) {
    const value = getInput(name).trim()
    if (value !== '') raw[name] = value
  }
  const parsed = InputsSchema.safeParse(raw)
  if (!parsed.success) {
    throw new InputErrors(
      parsed.error.issues.map((issue) => {
        const name = String(issue.path[0] ?? '')
        const given = raw[name]
        return new InputError(`input ${name}${given === undefined ? ' is required' : ` "${given}"`}: ${issue.message}`)
      }),
    )
  }
  const v = parsed.data
  return {
    mode: v.mode,
    agents: [...new Set(v.agent)],
    config: v.config,
    scenarios: v.scenarios,
    tags: v.tags,
    attempts: v.attempts,
    baselineAttempts: Math.max(v.attempts, v['baseline-attempts']),
    parallel: v.parallel,
    turnTimeoutSeconds: v['turn-timeout'],
    waitFor: v['wait-for'] ? { url: v['wait-for'], timeoutSeconds: v['wait-for-timeout'] } : null,
    workingDirectory: v['working-directory'],
    failOn: v['fail-on'],
    failOnInconclusive: v['fail-on-inconclusive'],
    gateAcrossJudgeChange: v['gate-across-judge-change'],
    failOnSlower: v['fail-on-slower'] ?? null,
    failOnCostlier: v['fail-on-costlier'] ?? null,
    rejudge: v.rejudge === undefined || v.rejudge === 1 ? null : v.rejudge,
    comment: v.comment,
    check: v.check,
    baseline: v.baseline,
    baselineBranch: v['baseline-branch'] ?? null,
    artifactName: v['artifact-name'],
    retentionDays: v['retention-days'],
    shard: v.shard,
    cache: v.cache,
    budgetUsd: v['budget-usd'] ?? null,
    githubToken: v['github-token'] ?? null,
    judgeMinKappa: v['judge-min-kappa'] ?? null,
    judgeLabels: v['judge-labels'] ?? null,
    history: v.history,
  }
}
