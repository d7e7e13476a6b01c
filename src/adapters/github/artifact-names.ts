import type { Shard } from '../../records/journal/records.ts'

/**
 * The names the action uploads under. The run folder's name is what later workflow runs look for as
 * their baseline, so it depends only on the prefix and the agent; shards add their place.
 */
export function runArtifactName(prefix: string, agent: string, shard: Shard | null = null): string {
  return shard ? `${prefix}-${agent}-shard-${shard.index}-of-${shard.total}` : `${prefix}-${agent}`
}

/** The artifact-name the action uses when none is given. */
export const DEFAULT_ARTIFACT_NAME = 'convy'

/**
 * The job a comment and a check belong to: several jobs that publish one agent (a matrix over Node
 * versions, two workflows) set their own artifact-name, which keeps their comments and checks apart.
 * Null for the default, so a single job's names stay as they were.
 */
export function publishingJob(artifactName: string): string | null {
  return artifactName === DEFAULT_ARTIFACT_NAME ? null : artifactName
}

/** An unzipped artifact is named after its file, so the file name is unique in the workflow run. */
export function reportFileName(prefix: string, agent: string): string {
  return `${prefix}-${agent}-report.html`
}

/**
 * The run's summary (records/tally/run-summary.ts), a few KB that later pull requests read for the
 * default branch's trend. `+` is not allowed in an agent's name, so this never names another agent's run.
 */
export function summaryArtifactName(prefix: string, agent: string): string {
  return `${prefix}-${agent}+summary`
}

/** The shards of one agent among a run's artifacts, with their place. */
export function shardOf(prefix: string, agent: string, artifactName: string): Shard | null {
  const head = `${prefix}-${agent}-shard-`
  if (!artifactName.startsWith(head)) return null
  const match = /^(\d+)-of-(\d+)$/.exec(artifactName.slice(head.length))
  return match ? { index: Number(match[1]), total: Number(match[2]) } : null
}
