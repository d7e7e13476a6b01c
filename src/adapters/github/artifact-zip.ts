import { createHash } from 'node:crypto'
import type { Octokit } from './octokit.ts'

/**
 * An artifact's zip through the REST API, checked against its recorded digest: for the CLI, outside
 * Actions (the action itself uses the toolkit's artifact client). GitHub answers with a redirect to
 * signed storage, which fetch follows.
 */
export async function fetchArtifactZip(octokit: Octokit, where: { owner: string; repo: string; artifactId: number; digest: string | null }): Promise<Buffer> {
  const { data } = await octokit.rest.actions.downloadArtifact({ owner: where.owner, repo: where.repo, artifact_id: where.artifactId, archive_format: 'zip' })
  if (!(data instanceof ArrayBuffer)) throw new Error(`artifact ${where.artifactId} did not download as a zip`)
  const zip = Buffer.from(data)
  const digest = `sha256:${createHash('sha256').update(zip).digest('hex')}`
  if (where.digest && where.digest !== digest) throw new Error(`artifact ${where.artifactId} does not match its recorded digest; it was not used`)
  return zip
}
