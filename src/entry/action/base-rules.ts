import { readFile } from 'node:fs/promises'
import { join, posix } from 'node:path'
import { convyStepInputs, DEFAULT_RULES, judgeLabelsOf, rulesOfStep, stricterRules, workflowEnv, type GateRules, type RulesDecided } from '../../app/publish/gate-rules.ts'
import { readRepoFile } from '../../adapters/github/repo-file.ts'
import { apiFailure } from '../../adapters/github/api-error.ts'
import type { Octokit } from '../../adapters/github/octokit.ts'
import { CALIBRATION_FILE, parseCalibration, type Calibration } from '../../records/calibration/calibration.ts'
import { DEFAULT_LABELS_FILE } from '../../records/config/load-config.ts'
import type { BaselineChoice, ActionInputs } from './inputs.ts'
import type { ActionDeps } from './deps.ts'

/**
 * The base branch's rules for a pull request's gate (issue 38): the convy step's inputs in the
 * workflow file (GITHUB_WORKFLOW_REF) and its convy.yml, both read at the base commit through the
 * contents API with the job's token, held against this step's own; the stricter of each applies.
 * Null where there is no pull request (a push decides nothing against a base).
 */
export async function baseBranchRules(deps: ActionDeps): Promise<RulesDecided | null> {
  const { github, octokit, inputs } = deps
  const pr = github.pullRequest
  if (!pr) return null
  const ownConvyYml = await readLocal(join(deps.context.cwd, inputs.config))
  const own = rulesOfStep(stepInputsOf(inputs), ownConvyYml)
  const base = `the base branch (${pr.baseRef})`
  const cannot = (why: string): RulesDecided => {
    const unmet = `the base branch's rules could not be read (${why}), so nothing shows this pull request keeps them`
    return { rules: own, differences: [unmet], unmet: [unmet], baseJudge: null, base }
  }
  if (!octokit) return cannot('there is no github-token')
  if (!pr.baseSha || !github.workflowPath) return cannot('the event names no base commit or workflow file')
  const { owner, repo } = github.repository
  try {
    const workflow = await readRepoFile(octokit, { owner, repo, path: github.workflowPath, ref: pr.baseSha })
    const step = workflow === null ? null : convyStepInputs(workflow, github.job, inputs.agents)
    // No such workflow or step at the base: this pull request adds it, and the action's defaults are the base's rules.
    const withInputs = step ?? {}
    const configPath = posix.normalize(posix.join(String(withInputs['working-directory'] ?? '.'), String(withInputs['config'] ?? 'convy.yml')))
    const convyYml = await readRepoFile(octokit, { owner, repo, path: configPath, ref: pr.baseSha })
    const baseRules: GateRules = step || convyYml !== null ? rulesOfStep(withInputs, convyYml) : DEFAULT_RULES
    // The judge's calibration is the base's too: a pull request's own calibration.json must not vouch for the judge (min_kappa).
    const workingDirectory = String(withInputs['working-directory'] ?? '.')
    const labels = withInputs['judge-labels'] ? posix.join(workingDirectory, String(withInputs['judge-labels'])) : posix.join(posix.dirname(configPath), judgeLabelsOf(convyYml) ?? DEFAULT_LABELS_FILE)
    const calibrationPath = posix.normalize(posix.join(posix.dirname(labels), CALIBRATION_FILE))
    const baseCalibration = { calibration: await readBaseCalibration(octokit, { owner, repo, path: calibrationPath, ref: pr.baseSha }), path: calibrationPath }
    // The base's judge may read variables its convy step sets (base_url: ${JUDGE_URL}): those, not this step's.
    return { ...stricterRules(own, baseRules, base, workflow === null ? {} : workflowEnv(workflow, github.job, inputs.agents)), baseCalibration }
  } catch (error) {
    return cannot(apiFailure(error, 'contents: read'))
  }
}

/**
 * calibration.json at the base commit; null where it is not there, or is not a calibration this
 * convy-ci reads (as a base's unparsable setting counts as unset: the gate then behaves as the base
 * without one would, which under min_kappa is evidence missing, never a pass).
 */
async function readBaseCalibration(octokit: Octokit, where: { owner: string; repo: string; path: string; ref: string }): Promise<Calibration | null> {
  const text = await readRepoFile(octokit, where)
  if (text === null) return null
  try {
    return parseCalibration(text, `${where.path} at ${where.ref.slice(0, 7)}`)
  } catch {
    return null
  }
}

/** The inputs as the workflow gave them, for the comparison with the base's step. */
function stepInputsOf(inputs: ActionInputs): Record<string, unknown> {
  return {
    'fail-on': inputs.failOn,
    'fail-on-inconclusive': String(inputs.failOnInconclusive),
    'gate-across-judge-change': String(inputs.gateAcrossJudgeChange),
    attempts: String(inputs.attempts),
    'fail-on-slower': inputs.failOnSlower,
    'fail-on-costlier': inputs.failOnCostlier,
    'min-speed-change': String(inputs.minSpeedChangeSeconds * 1000),
    comment: inputs.comment,
    baseline: inputs.baseline.kind === 'run' ? String(inputs.baseline.runId) : inputs.baseline.kind,
    'baseline-branch': inputs.baselineBranch,
    'judge-min-kappa': inputs.judgeMinKappa,
  }
}

/** The inputs the gate runs with: the decided rules in place of this step's own. */
export function withRules(inputs: ActionInputs, rules: GateRules): ActionInputs {
  const baseline: BaselineChoice = rules.baseline === 'auto' || rules.baseline === 'none' ? { kind: rules.baseline } : /^\d+$/.test(rules.baseline) ? { kind: 'run', runId: Number(rules.baseline) } : { kind: 'auto' }
  return {
    ...inputs,
    failOn: rules.failOn,
    failOnInconclusive: rules.failOnInconclusive,
    gateAcrossJudgeChange: rules.gateAcrossJudgeChange,
    failOnSlower: rules.failOnSlower,
    failOnCostlier: rules.failOnCostlier,
    minSpeedChangeSeconds: rules.minSpeedChangeMs / 1000,
    comment: rules.comment,
    baseline,
    baselineBranch: rules.baselineBranch,
    judgeMinKappa: rules.minKappa,
  }
}

async function readLocal(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8')
  } catch {
    return null
  }
}
