import { readFile } from 'node:fs/promises'
import { join, posix } from 'node:path'
import { convyStepInputs, DEFAULT_RULES, rulesOfStep, stricterRules, workflowEnv, type GateRules, type RulesDecided } from '../../app/publish/gate-rules.ts'
import { readRepoFile } from '../../adapters/github/repo-file.ts'
import { apiFailure } from '../../adapters/github/api-error.ts'
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
  const own = rulesOfStep(stepInputsOf(inputs), await readLocal(join(deps.context.cwd, inputs.config)))
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
    // The base's judge may read variables its convy step sets (base_url: ${JUDGE_URL}): those, not this step's.
    return stricterRules(own, baseRules, base, workflow === null ? {} : workflowEnv(workflow, github.job, inputs.agents))
  } catch (error) {
    return cannot(apiFailure(error, 'contents: read'))
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
