import { cp, mkdtemp, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { runDir, shortId } from '../../../records/journal/run-folder.ts'
import { apiFailure } from '../../../adapters/github/api-error.ts'
import { downloadBaselines } from '../../../adapters/github/download-baseline.ts'
import { walkBack } from '../../../app/publish/walk-back.ts'
import { readTally } from '../../../records/tally/read-tally.ts'
import { findRun } from '../../../records/journal/read-run.ts'
import { createOctokit } from '../../../adapters/github/octokit.ts'
import { ConvyError, ExitCode, InputError } from '../../../base/shared/errors.ts'
import { readCommandArgs } from '../args.ts'
import type { CliContext } from '../context.ts'
import { resultsDirOf } from '../../../app/pipeline/project.ts'
import { fetchHistory, type HistorySearch } from '../../../adapters/github/history.ts'
import type { Octokit } from '../../../adapters/github/octokit.ts'
import { HISTORY_FILE, writeHistory } from '../../../records/tally/trend.ts'
import { errorMessage } from '../../../base/shared/errors.ts'

/**
 * `convy-ci baseline <agent>...`: downloads the run a pull request would be compared with — the
 * newest healthy successful run on the default branch that uploaded the agent's run artifact, walked
 * back past runs with too many errors as the action does (app/publish/walk-back.ts) — into results/,
 * so `convy-ci compare` reproduces the pull request's comparison locally. `--against <run>` holds the
 * candidates against a local run, as the action holds them against the PR's; without it only their
 * own share of errors counts.
 */
export async function baselineCommand(ctx: CliContext, argv: readonly string[]): Promise<ExitCode> {
  const { values, positionals } = readCommandArgs('baseline', argv)
  if (positionals.length === 0) throw new InputError('convy-ci baseline: name the agent(s), e.g. `convy-ci baseline support_bot`')
  const token = ctx.env.GITHUB_TOKEN || ctx.env.GH_TOKEN
  if (!token) throw new InputError('convy-ci baseline: set GITHUB_TOKEN to a token that can read the repository\'s Actions (for example GITHUB_TOKEN=$(gh auth token))')
  const repository = values.repo ?? ctx.env.GITHUB_REPOSITORY
  const [owner, repo, ...rest] = (repository ?? '').split('/')
  if (!owner || !repo || rest.length) throw new InputError(`convy-ci baseline: give the repository as --repo owner/name (or GITHUB_REPOSITORY)${repository ? `, not "${repository}"` : ''}`)
  const workflow = values.workflow ?? null
  const prefix = values.artifactName
  const resultsDir = resultsDirOf(ctx, values)
  const history = values.historyToFetch

  const against = values.against === undefined ? null : await readTally((await findRun(resultsDir, values.against)).dir)

  const octokit = createOctokit(token, (ctx.env.GITHUB_API_URL || 'https://api.github.com').replace(/\/+$/, ''))
  try {
    const branch = values.branch ?? (await octokit.rest.repos.get({ owner, repo })).data.default_branch
    for (const agent of new Set(positionals)) {
      const download = await mkdtemp(join(tmpdir(), 'convy-baseline-'))
      try {
        const downloads = downloadBaselines(octokit, { owner, repo, workflow, branch, prefix, agent }, (index) => join(download, String(index)))
        const walked = await walkBack(downloads.candidates, (candidate) => readTally(candidate.dir), against)
        if (!walked) throw new InputError(downloads.whyNone())
        const { manifest, runId, dir } = walked.candidate
        const target = runDir(resultsDir, manifest.id)
        const already = await stat(target).then(() => true, () => false)
        if (!already) await cp(dir, target, { recursive: true })
        const commit = manifest.ci?.commit ? `, commit ${manifest.ci.commit.slice(0, 7)}` : ''
        for (const reason of walked.passedOver) ctx.stderr.write(`${agent}: passed over a newer run: ${reason}\n`)
        if (!walked.health.healthy) ctx.stderr.write(`warning: ${agent}: ${walked.health.reason}; a gate will not pass on it\n`)
        ctx.stdout.write(
          `${agent}: baseline ${manifest.id} (workflow run ${runId} on ${branch}${commit})${already ? ', already here' : ''}\n` +
            `  ${relative(ctx.cwd, target) || target}\n  compare with: convy-ci compare ${shortId(manifest.id)} <your run>\n`,
        )
        if (history > 0) await fetchTrend(ctx, octokit, { owner, repo, workflow, branch, prefix, agent, runs: history }, resultsDir, download)
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

/**
 * `--history N`: the branch's last N runs' summaries, kept as results/<agent>/history.json, where
 * `report` and `compare` draw each scenario's trend from. A history that cannot be read is a warning:
 * the baseline is what was asked for.
 */
async function fetchTrend(ctx: CliContext, octokit: Octokit, search: HistorySearch, resultsDir: string, scratch: string): Promise<void> {
  try {
    const fetched = await fetchHistory(octokit, search, scratch)
    for (const problem of fetched.problems) ctx.stderr.write(`warning: ${search.agent}: trend: ${problem}\n`)
    const file = join(resultsDir, search.agent, HISTORY_FILE)
    await writeHistory(file, { branch: search.branch, entries: fetched.entries }, ctx.now())
    const without = fetched.withoutSummary ? `; ${fetched.withoutSummary} had no summary artifact` : ''
    ctx.stdout.write(`  history: ${fetched.entries.length} of the last ${fetched.runsSeen} successful run(s) on ${search.branch}${without}\n  ${relative(ctx.cwd, file) || file}\n`)
  } catch (error) {
    ctx.stderr.write(`warning: ${search.agent}: the history was not fetched, so reports show no trend: ${errorMessage(error)}\n`)
  }
}
