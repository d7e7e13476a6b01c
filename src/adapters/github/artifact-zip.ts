import { createHash } from 'node:crypto'
import type { Octokit } from './octokit.ts'

/**
 * An artifact's zip through the REST API, checked against its recorded digest: for the CLI, outside
 * Actions (the action itself uses the toolkit's artifact client). GitHub answers with a redirect to
 * signed storage, which fetch follows. The body is read as it streams and the download stopped once
 * it passes `maxBytes`, whatever size the listing gave: an artifact a pull request uploaded may be
 * listed as 900 bytes and be 157 MB.
 */
export async function fetchArtifactZip(octokit: Octokit, where: { owner: string; repo: string; artifactId: number; digest: string | null; maxBytes: number }): Promise<Buffer> {
  const { data } = await octokit.request('GET /repos/{owner}/{repo}/actions/artifacts/{artifact_id}/{archive_format}', {
    owner: where.owner,
    repo: where.repo,
    artifact_id: where.artifactId,
    archive_format: 'zip',
    request: { parseSuccessResponseBody: false },
  })
  const body = data as unknown as AsyncIterable<Uint8Array> | null
  if (!body || typeof body[Symbol.asyncIterator] !== 'function') throw new Error(`artifact ${where.artifactId} did not download as a zip`)
  const chunks: Buffer[] = []
  const hash = createHash('sha256')
  let size = 0
  // Leaving the loop by the throw cancels the stream: nothing more is read.
  for await (const chunk of body) {
    size += chunk.byteLength
    if (size > where.maxBytes) throw new Error(`artifact ${where.artifactId} is larger than ${where.maxBytes} bytes; its download was stopped there`)
    hash.update(chunk)
    chunks.push(Buffer.from(chunk))
  }
  const digest = `sha256:${hash.digest('hex')}`
  if (where.digest && where.digest !== digest) throw new Error(`artifact ${where.artifactId} does not match its recorded digest; it was not used`)
  return Buffer.concat(chunks, size)
}
