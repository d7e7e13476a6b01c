import { ArtifactNotFoundError, type ArtifactClient } from '@actions/artifact'
import { readdir } from 'node:fs/promises'
import { basename, join } from 'node:path'

/**
 * Uploads and downloads through the Actions artifact service. Names are unique within a workflow run,
 * and a re-run (attempt 2 and later) keeps the earlier attempt's artifacts: `replace` deletes a
 * same-named one first, as upload-artifact's `overwrite` does.
 */
export interface UploadOptions {
  retentionDays?: number | undefined
  replace: boolean
}

/** A folder as one zip artifact, its files at the zip's root. */
export async function uploadFolder(client: ArtifactClient, name: string, dir: string, options: UploadOptions): Promise<number> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true })
  const files = entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name))
  if (options.replace) await deleteIfPresent(client, name)
  const { id } = await client.uploadArtifact(name, files, dir, { ...retention(options), compressionLevel: 6 })
  if (id === undefined) throw new Error(`the artifact service gave no id for ${name}`)
  return id
}

/**
 * One file, not zipped: GitHub serves it as is, so an HTML file opens in the browser. The artifact
 * takes the file's name, which must therefore be unique in the workflow run.
 */
export async function uploadSingleFile(client: ArtifactClient, file: string, options: UploadOptions): Promise<number> {
  if (options.replace) await deleteIfPresent(client, basename(file))
  const { id } = await client.uploadArtifact(basename(file), [file], join(file, '..'), { ...retention(options), skipArchive: true })
  if (id === undefined) throw new Error(`the artifact service gave no id for ${basename(file)}`)
  return id
}

/** Where an artifact of another workflow run is read from, through the REST API. */
export interface OtherRun {
  token: string
  owner: string
  repo: string
  runId: number
}

/** Downloads (and unzips) an artifact into dir; a digest that does not match is an error. */
export async function downloadArtifact(client: ArtifactClient, artifactId: number, dir: string, from: OtherRun | null, digest: string | null = null): Promise<void> {
  const findBy = from ? { token: from.token, workflowRunId: from.runId, repositoryOwner: from.owner, repositoryName: from.repo } : undefined
  const result = await client.downloadArtifact(artifactId, { path: dir, ...(findBy ? { findBy } : {}), ...(digest ? { expectedHash: digest } : {}) })
  if (result.digestMismatch) throw new Error(`artifact ${artifactId} does not match its recorded digest ${digest}; it was not used`)
}

async function deleteIfPresent(client: ArtifactClient, name: string): Promise<void> {
  try {
    await client.deleteArtifact(name)
  } catch (error) {
    if (!(error instanceof ArtifactNotFoundError)) throw error
  }
}

function retention(options: UploadOptions): { retentionDays?: number } {
  return options.retentionDays === undefined ? {} : { retentionDays: options.retentionDays }
}
