import * as z from 'zod'
import { FAIL_ON } from '../compare/gate.ts'
import { DEFAULT_ARTIFACT_NAME } from '../github/artifact-names.ts'
import { RUN_DEFAULTS } from '../pipeline/defaults.ts'
import type { Shard } from '../journal/records.ts'
import { CACHE_MODES, type CacheMode } from '../model-client/model-cache.ts'
import { parseShard } from '../runner/select-scenarios.ts'
import { InputError, InputErrors } from '../shared/errors.ts'
import { COMMENT_POLICIES, type CommentPolicy } from '../publish/deps.ts'

/**
 * The action's inputs, read when asked and checked in one pass: every wrong input is reported at
 * once, by the name the workflow gives it. An empty input is an absent one (GitHub passes '' for
 * inputs that are not set and have no default).
 */
export const MODES = ['run', 'publish', 'merge'] as const
export type Mode = (typeof MODES)[number]

export type BaselineChoice = { kind: 'auto' } | { kind: 'none' } | { kind: 'run'; runId: number }

const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/

const list = (missing?: string) => z.string(missing).transform((text) => text.split(/[\s,]+/).filter(Boolean))
const whole = (min: number, max: number) => z.coerce.number().int(`expected a whole number from ${min} to ${max}`).min(min, `expected a whole number from ${min} to ${max}`).max(max, `expected a whole number from ${min} to ${max}`)
const seconds = z.coerce.number().positive('expected a number of seconds above 0')
// The YAML 1.2 core schema's booleans, as core.getBooleanInput reads them.
const boolean = z.enum(['true', 'True', 'TRUE', 'false', 'False', 'FALSE'], 'expected true or false').transform((text) => text.toLowerCase() === 'true')

/**
 * Attempts per scenario when the workflow does not say: the smallest k at which one scenario that
 * stops passing altogether (1.0 → 0 among 20) is caught at least 90% of the time (npm run
 * bench:verdict; README, "Statistics"). Below it, the comparison says it cannot tell.
 */
export const ACTION_DEFAULT_ATTEMPTS = 5

const InputsSchema = z.object({
  mode: z.enum(MODES, `expected one of ${MODES.join(', ')}`).default('run'),
  agent: list('name at least one agent').pipe(z.array(z.string().regex(NAME, 'agent names use letters, digits, ".", "_" and "-"')).min(1, 'name at least one agent')),
  config: z.string().default('convy.yml'),
  scenarios: list().default([]),
  tags: list().default([]),
  attempts: whole(1, 1000).default(ACTION_DEFAULT_ATTEMPTS),
  parallel: whole(1, 1000).default(RUN_DEFAULTS.parallel),
  'turn-timeout': seconds.default(RUN_DEFAULTS.turnTimeoutSeconds),
  'wait-for': z.url({ protocol: /^https?$/, error: 'expected an http(s) URL' }).optional(),
  'wait-for-timeout': seconds.default(120),
  'working-directory': z.string().default('.'),
  'fail-on': z.enum(FAIL_ON, `expected one of ${FAIL_ON.join(', ')}`).default('worse'),
  'fail-on-inconclusive': boolean.default(false),
  'gate-across-judge-change': boolean.default(false),
  rejudge: whole(1, 15).optional(),
  comment: z.enum(COMMENT_POLICIES, `expected one of ${COMMENT_POLICIES.join(', ')}`).default('on-change'),
  check: boolean.default(true),
  baseline: z
    .string()
    .regex(/^(auto|none|\d+)$/, 'expected auto, none, or the id of a workflow run')
    .default('auto')
    .transform((text): BaselineChoice => (text === 'auto' || text === 'none' ? { kind: text } : { kind: 'run', runId: Number(text) })),
  'baseline-branch': z.string().optional(),
  'artifact-name': z.string().regex(NAME, 'use letters, digits, ".", "_" and "-"; it starts the names of the artifacts').default(DEFAULT_ARTIFACT_NAME),
  'retention-days': whole(1, 90).optional(),
  shard: z
    .string()
    .optional()
    .transform((text, ctx): Shard | null => {
      if (text === undefined) return null
      try {
        return parseShard(text)
      } catch {
        ctx.addIssue({ code: 'custom', message: 'expected I/N with 1 ≤ I ≤ N, e.g. 1/4' })
        return z.NEVER
      }
    }),
  cache: z.enum(CACHE_MODES, `expected one of ${CACHE_MODES.join(', ')}`).default('readwrite'),
  'budget-usd': z.coerce.number().positive('expected an amount of dollars above 0').optional(),
  'github-token': z.string().optional(),
})

export const INPUT_NAMES = Object.keys(InputsSchema.shape) as (keyof typeof InputsSchema.shape)[]

export interface ActionInputs {
  mode: Mode
  agents: string[]
  config: string
  scenarios: string[]
  tags: string[]
  attempts: number
  parallel: number
  turnTimeoutSeconds: number
  waitFor: { url: string; timeoutSeconds: number } | null
  workingDirectory: string
  failOn: (typeof FAIL_ON)[number]
  /** An inconclusive comparison fails the step too (it is a neutral check otherwise). */
  failOnInconclusive: boolean
  /** A Worse verdict fails the step even when the judge changed between the runs. */
  gateAcrossJudgeChange: boolean
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
    parallel: v.parallel,
    turnTimeoutSeconds: v['turn-timeout'],
    waitFor: v['wait-for'] ? { url: v['wait-for'], timeoutSeconds: v['wait-for-timeout'] } : null,
    workingDirectory: v['working-directory'],
    failOn: v['fail-on'],
    failOnInconclusive: v['fail-on-inconclusive'],
    gateAcrossJudgeChange: v['gate-across-judge-change'],
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
  }
}
