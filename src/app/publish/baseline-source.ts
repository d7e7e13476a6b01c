import { plural } from '../../views/page/format.ts'
import type { RunTally } from '../../records/tally/run-tally.ts'
import { neutralise } from '../../views/markdown/neutralise.ts'
import type { Repository } from '../../adapters/github/event.ts'

/** Where a baseline was found: another workflow run's artifact, or the Actions cache. */
export type BaselineSource = { kind: 'artifact'; runId: number } | { kind: 'cache'; key: string; because: string }

/**
 * The sentence under a comparison that says where its baseline came from and how old it is: a
 * baseline from the cache may be older than the newest artifact, and a reader deserves to know.
 */
export function baselineSourceLine(tally: RunTally, source: BaselineSource, github: { serverUrl: string; repository: Repository }, now: Date): string {
  const { owner, repo } = github.repository
  const where =
    source.kind === 'artifact'
      ? `the artifact of [workflow run ${source.runId}](${github.serverUrl}/${owner}/${repo}/actions/runs/${source.runId})`
      : `the Actions cache (${neutralise(source.key, 200)}), as ${neutralise(source.because, 200)}`
  const made = Date.parse(tally.manifest.finishedAt ?? tally.manifest.startedAt)
  const age = Number.isNaN(made) ? '' : `, made ${ageOf(now.getTime() - made)} ago`
  return `_Baseline ${neutralise(tally.manifest.id, 100)}: from ${where}${age}._`
}

function ageOf(ms: number): string {
  const minutes = Math.max(0, Math.round(ms / 60_000))
  if (minutes < 90) return plural(minutes, 'minute')
  const hours = Math.round(minutes / 60)
  if (hours < 48) return plural(hours, 'hour')
  return plural(Math.round(hours / 24), 'day')
}
