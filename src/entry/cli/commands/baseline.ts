import { cp, mkdtemp, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { runDir, shortId } from '../../../records/journal/run-folder.ts'
import { apiFailure } from '../../../adapters/github/api-error.ts'
import { downloadBaseline } from '../../../adapters/github/download-baseline.ts'
import { createOctokit } from '../../../adapters/github/octokit.ts'
import { ConvyError, ExitCode, InputError } from '../../../base/shared/errors.ts'
import { parseCommandArgs } from '../args.ts'
import type { CliContext } from '../context.ts'
import { resultsDirOf } from '../../../app/pipeline/project.ts'

/**
 * `convy-ci baseline <agent>...`: downloads the run a pull request would be compared with — the
 * newest successful run on the default branch that uploaded the agent's run artifact — into results/,
 * so `convy-ci compare` reproduces the pull request's comparison locally.
 */
export async function baselineCommand(ctx: CliContext, argv: readonly string[]): Promise<ExitCode> {
  const { values, positionals } = parseCommandArgs('baseline', argv, {
    repo: { type: 'string' },
    branch: { type: 'string' },
    workflow: { type: 'string' },
    'artifact-name': { type: 'string' },
    results: { type: 'string' },
    config: { type: 'string' },
  })
  if (positionals.length === 0) throw new InputError('convy-ci baseline: name the agent(s), e.g. `convy-ci baseline support_bot`')
  const token = ctx.env.GITHUB_TOKEN || ctx.env.GH_TOKEN
  if (!token) throw new InputError('convy-ci baseline: set GITHUB_TOKEN to a token that can read the repository\'s Actions (for example GITHUB_TOKEN=$(gh auth token))')
  const repository = values.repo ?? ctx.env.GITHUB_REPOSITORY
  const [owner, repo, ...rest] = (repository ?? '').split('/')
  if (!owner || !repo || rest.length) throw new InputError(`convy-ci baseline: give the repository as --repo owner/name (or GITHUB_REPOSITORY)${repository ? `, not "${repository}"` : ''}`)
  const workflow = values.workflow === undefined ? null : /^\d+$/.test(values.workflow) ? Number(values.workflow) : values.workflow
  const prefix = values['artifact-name'] ?? 'convy'
  const resultsDir = resultsDirOf(ctx, values)

  const octokit = createOctokit(token, (ctx.env.GITHUB_API_URL || 'https://api.github.com').replace(/\/+$/, ''))
  try {
    const branch = values.branch ?? (await octokit.rest.repos.get({ owner, repo })).data.default_branch
    for (const agent of new Set(positionals)) {
      const download = await mkdtemp(join(tmpdir(), 'convy-baseline-'))
      try {
        const got = await downloadBaseline(octokit, { owner, repo, workflow, branch, prefix, agent }, download)
        if (!got.manifest) throw new InputError(got.why)
        const { manifest, runId } = got
        const target = runDir(resultsDir, manifest.id)
        const already = await stat(target).then(() => true, () => false)
        if (!already) await cp(download, target, { recursive: true })
        const commit = manifest.ci?.commit ? `, commit ${manifest.ci.commit.slice(0, 7)}` : ''
        ctx.stdout.write(
          `${agent}: baseline ${manifest.id} (workflow run ${runId} on ${branch}${commit})${already ? ', already here' : ''}\n` +
            `  ${relative(ctx.cwd, target) || target}\n  compare with: convy-ci compare ${shortId(manifest.id)} <your run>\n`,
        )
      } finally {
        await rm(download, { recursive: true, force: true })
      }
    }
  } catch (error) {
    if (error instanceof ConvyError) throw error
    throw new ConvyError(`convy-ci baseline: ${apiFailure(error, 'actions: read')}`, { cause: error })
  }
  return ExitCode.Ok
}
