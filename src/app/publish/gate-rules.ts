import { parse } from 'yaml'
import { FAIL_ON, type FailOn } from '../../verdict/gate.ts'
import { MIN_SPEED_CHANGE_SECONDS } from '../../verdict/speed.ts'
import { COMMENT_POLICIES, type CommentPolicy } from './deps.ts'
import type { Calibration } from '../../records/calibration/calibration.ts'

/**
 * The settings that decide the gate (issue 38): a pull request must not loosen its own check by
 * editing them. They are read twice — as the pull request's run has them, and at the base commit (its
 * workflow file's convy step and its convy.yml) — and the stricter of the two applies. The pull
 * request's own values still ran; every difference is said at the top of the comment and the check.
 */
export interface GateRules {
  failOn: FailOn
  failOnInconclusive: boolean
  gateAcrossJudgeChange: boolean
  attempts: number
  failOnSlower: number | null
  failOnCostlier: number | null
  /** Answer times that moved less than this per answer are never told slower (the input min-speed-change): a raised minimum loosens fail-on-slower. */
  minSpeedChangeMs: number
  comment: CommentPolicy
  /** `auto`, `none` or a workflow run id, as the input. */
  baseline: string
  baselineBranch: string | null
  minKappa: number | null
  /** convy.yml's `models.judge` and `models.base_url` as written (unexpanded): the judge's identity includes its endpoint. */
  judgeModel: string | null
  judgeEndpoint: string | null
}

/** What the action runs with when the workflow says nothing: the base of a workflow that has no convy step yet. */
export const DEFAULT_RULES: GateRules = {
  failOn: 'worse',
  failOnInconclusive: true,
  gateAcrossJudgeChange: false,
  attempts: 5,
  failOnSlower: null,
  failOnCostlier: null,
  minSpeedChangeMs: MIN_SPEED_CHANGE_SECONDS * 1000,
  comment: 'on-change',
  baseline: 'auto',
  baselineBranch: null,
  minKappa: null,
  judgeModel: null,
  judgeEndpoint: null,
}

export interface RulesDecided {
  /** What the gate applies: the stricter of each. */
  rules: GateRules
  /** One plain sentence per difference, naming both values and which applied. */
  differences: string[]
  /**
   * Differences the stricter value cannot undo, because the run was already played with the pull
   * request's (fewer attempts, another judge): the gate cannot pass on them (evidence missing).
   */
  unmet: string[]
  /**
   * The base's judge, which decides the gate (issue 38, item 2): its model and `models.base_url` as
   * its convy.yml writes them, and the variables its convy step sets; null where the base names none
   * (or its rules could not be read).
   */
  baseJudge: BaseJudge | null
  /** The base branch as the sentences name it: `the base branch (main)`. */
  base: string
  /**
   * The judge's calibration at the base commit, which the min_kappa gate reads in place of the pull
   * request's (a pull request must not vouch for its own judge); absent where the base's rules could
   * not be read. `calibration` null: the base has none.
   */
  baseCalibration?: { calibration: Calibration | null; path: string }
}

/** A judge as another commit's convy.yml names it: asked with this project's key, at its own endpoint. */
export interface BaseJudge {
  model: string
  /** `models.base_url` as written (its ${VAR}s unexpanded); null: OPENAI_BASE_URL or OpenAI's API. */
  baseUrl: string | null
  /** Variables the base's convy step sets (plain values only), read before the job's own. */
  env: Record<string, string>
}

const FAIL_ON_RANK: Record<FailOn, number> = { never: 0, worse: 1, failing: 2 }
const COMMENT_RANK: Record<CommentPolicy, number> = { never: 0, 'on-change': 1, always: 2 }

/**
 * The stricter of the pull request's rules and the base's; `base` names the base branch in the
 * sentences; `baseEnv`: the variables the base's convy step sets (workflowEnv), which its convy.yml's
 * judge may read.
 */
export function stricterRules(pr: GateRules, baseRules: GateRules, base: string, baseEnv: Readonly<Record<string, string>> = {}): RulesDecided {
  const differences: string[] = []
  const unmet: string[] = []
  const rules: GateRules = { ...pr }
  const said = (name: string, prValue: unknown, baseValue: unknown, applied: 'pr' | 'base') =>
    differences.push(`this pull request changes ${name} from ${shown(baseValue)} to ${shown(prValue)}: the gate used ${applied === 'base' ? `${base}'s` : "this pull request's, the stricter"} (${shown(applied === 'base' ? baseValue : prValue)})`)
  const pick = <K extends keyof GateRules>(key: K, name: string, stricter: (a: GateRules[K], b: GateRules[K]) => boolean) => {
    const a: GateRules[K] = pr[key]
    const b: GateRules[K] = baseRules[key]
    if (a === b) return
    const baseWins = stricter(b, a)
    rules[key] = baseWins ? b : a
    said(name, a, b, baseWins ? 'base' : 'pr')
  }
  pick('failOn', 'fail-on', (a, b) => FAIL_ON_RANK[a] > FAIL_ON_RANK[b])
  pick('failOnInconclusive', 'fail-on-inconclusive', (a) => a)
  pick('gateAcrossJudgeChange', 'gate-across-judge-change', (a) => !a)
  // A limit set is stricter than none; a lower percentage stricter than a higher one.
  const limit = (a: number | null, b: number | null) => a !== null && (b === null || a < b)
  pick('failOnSlower', 'fail-on-slower', limit)
  pick('failOnCostlier', 'fail-on-costlier', limit)
  pick('minSpeedChangeMs', 'min-speed-change', (a, b) => a < b)
  pick('comment', 'comment', (a, b) => COMMENT_RANK[a] > COMMENT_RANK[b])
  pick('minKappa', 'the judge\'s min_kappa', (a, b) => a !== null && (b === null || a > b))
  // Where the baseline comes from is never the pull request's to choose.
  pick('baseline', 'baseline', () => true)
  pick('baselineBranch', 'baseline-branch', () => true)
  if (pr.attempts < baseRules.attempts) {
    unmet.push(`this pull request lowers attempts from ${baseRules.attempts} to ${pr.attempts}: its run has fewer attempts than ${base}'s rules ask for`)
    differences.push(unmet.at(-1)!)
  } else if (pr.attempts !== baseRules.attempts) differences.push(`this pull request raises attempts from ${baseRules.attempts} to ${pr.attempts}`)
  const judgeChanged = pr.judgeModel !== baseRules.judgeModel || pr.judgeEndpoint !== baseRules.judgeEndpoint
  // The base's judge is asked about this pull request's dialogues (app/pipeline/settle-judge.ts): the
  // change is settled there, or evidence is missing. A base that names no judge has none to ask.
  const baseJudge = baseRules.judgeModel === null ? null : { model: baseRules.judgeModel, baseUrl: baseRules.judgeEndpoint, env: { ...baseEnv } }
  if (judgeChanged) {
    const endpoint = pr.judgeEndpoint !== baseRules.judgeEndpoint ? ` at another endpoint (${shown(pr.judgeEndpoint)}, was ${shown(baseRules.judgeEndpoint)})` : ''
    const change = `this pull request changes the judge to ${shown(pr.judgeModel)}${endpoint}`
    if (baseJudge) differences.push(`${change}: the gate used ${base}'s judge (${shown(baseRules.judgeModel)}) on this pull request's dialogues; the new judge's view is shown as information`)
    else {
      unmet.push(`${change}: ${base} names no judge to settle it with, and the run was judged by another`)
      differences.push(unmet.at(-1)!)
    }
  }
  return { rules, differences, unmet, baseJudge, base }
}

function shown(value: unknown): string {
  return value === null || value === undefined ? 'unset' : `"${String(value)}"`
}

/**
 * The rules a workflow file's convy step gives (`with:`), found as the step of job `job` that uses
 * the convy action (uses: …/action@… or ./), and the settings of its convy.yml. Values that do not
 * parse are taken as unset, so the defaults apply: a base's typo never loosens the gate.
 */
export function rulesOfStep(withInputs: Record<string, unknown>, convyYml: string | null): GateRules {
  const text = (name: string) => (withInputs[name] === undefined || withInputs[name] === null ? null : String(withInputs[name]).trim() || null)
  const number = (name: string) => {
    const value = text(name)
    return value === null || !Number.isFinite(Number(value)) ? null : Number(value)
  }
  const bool = (name: string, fallback: boolean) => {
    const value = text(name)?.toLowerCase()
    return value === 'true' ? true : value === 'false' ? false : fallback
  }
  const failOn = text('fail-on')
  const comment = text('comment')
  const config = projectRules(convyYml)
  const attempts = number('attempts')
  const minSpeed = number('min-speed-change')
  return {
    failOn: FAIL_ON.includes(failOn as FailOn) ? (failOn as FailOn) : DEFAULT_RULES.failOn,
    failOnInconclusive: bool('fail-on-inconclusive', DEFAULT_RULES.failOnInconclusive),
    gateAcrossJudgeChange: bool('gate-across-judge-change', DEFAULT_RULES.gateAcrossJudgeChange),
    attempts: attempts !== null && attempts >= 1 ? Math.floor(attempts) : DEFAULT_RULES.attempts,
    failOnSlower: number('fail-on-slower'),
    failOnCostlier: number('fail-on-costlier'),
    minSpeedChangeMs: minSpeed !== null && minSpeed >= 0 ? minSpeed : DEFAULT_RULES.minSpeedChangeMs,
    comment: COMMENT_POLICIES.includes(comment as CommentPolicy) ? (comment as CommentPolicy) : DEFAULT_RULES.comment,
    baseline: text('baseline') ?? DEFAULT_RULES.baseline,
    baselineBranch: text('baseline-branch'),
    minKappa: number('judge-min-kappa') ?? config.minKappa,
    judgeModel: config.judgeModel,
    judgeEndpoint: config.judgeEndpoint,
  }
}

/** convy.yml's settings that decide the gate, read as written (no variables expanded); unreadable: none. */
export function projectRules(convyYml: string | null): Pick<GateRules, 'minKappa' | 'judgeModel' | 'judgeEndpoint'> {
  let doc: unknown = null
  try {
    doc = convyYml === null ? null : parse(convyYml)
  } catch {
    doc = null
  }
  const at = (...path: string[]) => path.reduce<unknown>((node, key) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined), doc)
  const text = (value: unknown) => (typeof value === 'string' || typeof value === 'number' ? String(value) : null)
  const kappa = at('judge', 'min_kappa')
  return { minKappa: typeof kappa === 'number' ? kappa : null, judgeModel: text(at('models', 'judge')), judgeEndpoint: text(at('models', 'base_url')) }
}

/** convy.yml's `judge.labels` as written (relative to convy.yml's folder); null: unset or unreadable, so labels.jsonl. */
export function judgeLabelsOf(convyYml: string | null): string | null {
  let doc: unknown = null
  try {
    doc = convyYml === null ? null : parse(convyYml)
  } catch {
    return null
  }
  const judge = doc && typeof doc === 'object' ? (doc as Record<string, unknown>)['judge'] : null
  const labels = judge && typeof judge === 'object' ? (judge as Record<string, unknown>)['labels'] : null
  return typeof labels === 'string' && labels.trim() !== '' ? labels.trim() : null
}

/**
 * The sentence for a pull request whose calibration.json differs from the base commit's, or null when
 * they are the same calibration. The gate reads the base's either way (min_kappa decides on it).
 */
export function calibrationDifference(own: Calibration | null, baseCalibration: Calibration | null, base: string): string | null {
  if (canonical(own) === canonical(baseCalibration)) return null
  return `this pull request changes the judge's calibration (calibration.json) from ${calibrationShown(baseCalibration)} to ${calibrationShown(own)}: the gate used ${base}'s`
}

function calibrationShown(calibration: Calibration | null): string {
  if (!calibration) return 'none'
  const kappa = calibration.overall.kappa
  const figure = kappa ? `κ ${kappa.value.toFixed(2)} (95% CI ${kappa.interval.lower.toFixed(2)}–${kappa.interval.upper.toFixed(2)})` : 'κ undefined'
  return `${figure} on ${calibration.overall.labels} labels of "${calibration.judge.model}"`
}

/** JSON with sorted keys: two parses of one calibration compare equal whatever order the files wrote. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, node: unknown) =>
    node && typeof node === 'object' && !Array.isArray(node) ? Object.fromEntries(Object.entries(node as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : node,
  )
}

/**
 * The `with:` of the convy step in a workflow file: job `job`'s steps that use the convy action
 * (`uses:` naming a convy action, or `./` in the action's own repository), the one whose `agent`
 * shares an agent with this step when there are several. Null when the file or the step is not there.
 */
export function convyStepInputs(workflowYml: string, job: string | null, agents: readonly string[]): Record<string, unknown> | null {
  return convyStep(workflowYml, job, agents)?.with ?? null
}

/**
 * The variables the convy step's job and the step itself set (`env:`, the step's winning), which the
 * base's convy.yml may read for its judge (`base_url: ${JUDGE_URL}`). Only plain values: an expression
 * (`${{ secrets.X }}`) cannot be evaluated here, and the job's own environment gives it instead.
 */
export function workflowEnv(workflowYml: string, job: string | null, agents: readonly string[]): Record<string, string> {
  const step = convyStep(workflowYml, job, agents)
  if (!step) return {}
  const plain = (env: unknown) =>
    env && typeof env === 'object'
      ? Object.entries(env as Record<string, unknown>).filter((entry): entry is [string, string | number | boolean] => ['string', 'number', 'boolean'].includes(typeof entry[1]) && !String(entry[1]).includes('${{'))
      : []
  return Object.fromEntries([...plain(step.jobEnv), ...plain(step.env)].map(([name, value]) => [name, String(value)]))
}

function convyStep(workflowYml: string, job: string | null, agents: readonly string[]): { with: Record<string, unknown>; env: unknown; jobEnv: unknown } | null {
  let doc: unknown
  try {
    doc = parse(workflowYml)
  } catch {
    return null
  }
  const jobs = doc && typeof doc === 'object' ? ((doc as Record<string, unknown>)['jobs'] as Record<string, unknown> | undefined) : undefined
  if (!jobs || typeof jobs !== 'object') return null
  const candidates = (job ? [jobs[job]] : Object.values(jobs)).flatMap((j) => {
    const steps = j && typeof j === 'object' ? (j as Record<string, unknown>)['steps'] : null
    const jobEnv = j && typeof j === 'object' ? (j as Record<string, unknown>)['env'] : null
    return Array.isArray(steps) ? steps.map((step: unknown) => (step && typeof step === 'object' ? { ...(step as Record<string, unknown>), [JOB_ENV]: jobEnv } : step)) : []
  })
  const convy = candidates.filter((step): step is Record<string, unknown> => {
    const uses = step && typeof step === 'object' ? (step as Record<string, unknown>)['uses'] : null
    return typeof uses === 'string' && (/convy/i.test(uses) || /^\.\/?$/.test(uses))
  })
  const inputsOf = (step: Record<string, unknown>) => (step['with'] && typeof step['with'] === 'object' ? (step['with'] as Record<string, unknown>) : {})
  const sharing = convy.filter((step) => String(inputsOf(step)['agent'] ?? '').split(/[\s,]+/).some((a) => agents.includes(a)))
  const step = sharing[0] ?? convy[0]
  return step ? { with: inputsOf(step), env: step['env'], jobEnv: step[JOB_ENV] } : null
}

/** Where a candidate step carries its job's `env:`: a key no YAML mapping can have. */
const JOB_ENV = '\u0000job-env'
