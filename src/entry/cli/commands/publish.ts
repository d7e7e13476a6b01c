import { appendFile } from 'node:fs/promises'
import { publishingJob } from '../../../adapters/github/artifact-names.ts'
import { pullRequestOfEventFile } from '../../../adapters/github/event.ts'
import { publishLocalRun } from '../../../app/pipeline/publish.ts'
import { secretsOfProject } from '../../../app/pipeline/project.ts'
import { createMask } from '../../../base/shared/secrets.ts'
import { calibrationNear } from '../../../app/pipeline/judge-calibration.ts'
import { baseConfigRules } from '../base-config.ts'
import { ExitCode, InputError } from '../../../base/shared/errors.ts'
import { readCommandArgs } from '../args.ts'
import { commitSha } from '../../options/kinds.ts'
import type { CliContext } from '../context.ts'

/**
 * `convy-ci publish <run>`: what the action does after a run, from any CI with a token: compares the
 * run with the default branch's latest run, posts the sticky comment and the check on the pull
 * request, prints the markdown (and appends it to GITHUB_STEP_SUMMARY when set), and exits by the gate.
 * Everything it needs is checked before anything is fetched.
 */
export async function publishCommand(ctx: CliContext, argv: readonly string[]): Promise<ExitCode> {
  const { values, positionals } = readCommandArgs('publish', argv)
  if (positionals.length !== 1) throw new InputError('convy-ci publish: give one run (its id, its 4-hex part, or its folder), e.g. `convy-ci publish 3f2a --pr 12 --sha <head commit>`')
  const token = ctx.env.GITHUB_TOKEN || ctx.env.GH_TOKEN
  if (!token) throw new InputError('convy-ci publish: set GITHUB_TOKEN (or GH_TOKEN) to a token that can read the repository\'s Actions and write pull requests and checks')
  const repository = values.repo ?? ctx.env.GITHUB_REPOSITORY
  const [owner, repo, ...rest] = (repository ?? '').split('/')
  if (!owner || !repo || rest.length) throw new InputError(`convy-ci publish: give the repository as --repo owner/name (or GITHUB_REPOSITORY)${repository ? `, not "${repository}"` : ''}`)
  const { failOn, comment } = values

  // The pull request: the flags, else the event file a CI on GitHub's model leaves (GITHUB_EVENT_PATH).
  const eventPath = ctx.env.GITHUB_EVENT_PATH
  const event = (values.pr === undefined || values.sha === undefined) && eventPath ? pullRequestOfEventFile(eventPath) : null
  const pr = values.pr ?? event?.number
  const fromEvent = eventPath ? ` (the event file ${eventPath} names no pull request)` : ''
  if (pr === undefined) throw new InputError(`convy-ci publish: give the pull request as --pr <number>${fromEvent}`)
  const sha = values.sha ?? event?.headSha
  if (sha === undefined) throw new InputError(`convy-ci publish: give the pull request's head commit as --sha <commit>${fromEvent}`)
  // The flag's value was checked by its kind; the event file's is held to the same.
  if (values.sha === undefined && !commitSha().parse(sha).ok) throw new InputError(`${eventPath}: the pull request's head commit ${sha} is no full commit SHA`)

  const workflow = values.workflow ?? null
  const { artifactName, history } = values
  // What this command sends and writes passes through the mask last: the comment, the check, the
  // markdown printed and appended to the job summary, and every line on stderr.
  const project = await secretsOfProject(ctx, { config: values.config })
  const mask = createMask([token, ...project.values], project.redact)
  // --base-config: the base branch's convy.yml, whose judge and min_kappa decide where they are stricter (issue 38).
  const rules = values.baseConfig === undefined ? null : await baseConfigRules(ctx, values.config ?? 'convy.yml', values.baseConfig)
  const published = await publishLocalRun(ctx, {
    run: positionals[0]!,
    token,
    repository: { owner, repo },
    apiUrl: (ctx.env.GITHUB_API_URL || 'https://api.github.com').replace(/\/+$/, ''),
    serverUrl: (ctx.env.GITHUB_SERVER_URL || 'https://github.com').replace(/\/+$/, ''),
    pullRequest: pr,
    headSha: sha,
    branch: values.branch ?? event?.defaultBranch ?? null,
    workflow,
    artifactName,
    history,
    reportUrl: values.reportUrl ?? null,
    settings: {
      failOn,
      failOnInconclusive: values.failOnInconclusive,
      gateAcrossJudgeChange: values.gateAcrossJudgeChange,
      failOnSlower: values.failOnSlower ?? null,
      failOnCostlier: values.failOnCostlier ?? null,
      minSpeedChangeSeconds: values.minSpeedChange / 1000,
      comment,
      check: values.check,
      job: publishingJob(artifactName),
      judge: await calibrationNear(ctx.cwd, { config: values.config }, rules ? { minKappa: rules.rules.minKappa ?? undefined } : {}),
      rules: rules ? { differences: rules.differences, unmet: rules.unmet } : undefined,
    },
    config: values.config,
    results: values.results,
    mask,
    baseJudge: rules?.baseJudge ? { judge: rules.baseJudge, base: rules.base } : null,
  })

  const markdown = mask(published.markdown)
  ctx.stdout.write(markdown.endsWith('\n') ? markdown : `${markdown}\n`)
  // In a GitHub Actions `run:` step, the job summary gets the same text the action writes there.
  const summary = ctx.env.GITHUB_STEP_SUMMARY
  if (summary) await appendFile(summary, `${markdown}\n`)
  if (failOn !== 'never' || published.gated.outcome !== 'pass') ctx.stderr.write(mask(`gate (fail-on: ${failOn}): ${published.gated.outcome}: ${published.gated.reason}\n`))
  if (published.failure) ctx.stderr.write(mask(`${published.failure}\n`))
  // As compare: evidence missing is 3 (a workflow can tell it from a Worse), a fail or an unfinished run 1.
  if (published.failedBy === 'evidence-missing') return ExitCode.Inconclusive
  return published.failure ? ExitCode.Failed : ExitCode.Ok
}
